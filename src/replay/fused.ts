import { TerminalDetector } from '../detect/detector';
import type { AgentId, AgentState, Detection, WaitKind } from '../detect/types';
import { logEventToObservation } from '../sources/logs/logSources';
import { detectionToObservation } from '../sources/terminal/session';
import type { Observation, Source } from '../store/observation';
import { AgentStore } from '../store/store';
import type { TerminalState } from '../store/types';
import type { Cast } from './cast';
import type { DecodedLog } from './logFiles';
import { playEvents, ReplayOptions } from './replay';

/** The replayed terminal's id in the store. */
const TERMINAL = 'replay';

export interface FusedOptions extends ReplayOptions {
  logs: DecodedLog[];
  /** Wall-clock epoch ms of the cast's t = 0: log records are placed on the cast's clock by it. */
  t0Ms: number;
}

/** A change of what the store shows, on the cast's clock (seconds). */
export interface ShownChange {
  t: number;
  agent: AgentId;
  state: AgentState;
  source: Source;
  evidence: string;
  waitKind?: WaitKind;
  reason?: string;
}

/**
 * Replays a recording and its agent's session logs through the same sources, store and arbitration the
 * extension uses: the detector's verdicts and the logs' records meet in the store in time order, and
 * every change of the shown state is reported. The logs are named for this terminal (pinned), as a user
 * passing `--log` says they belong to it.
 */
export function replayFused(cast: Cast, opts: FusedOptions, onChange?: (c: ShownChange) => void): { changes: ShownChange[]; store: AgentStore } {
  let clock = opts.t0Ms;
  const store = new AgentStore({ now: () => clock });
  store.openTerminal(TERMINAL, 'replay');
  const changes: ShownChange[] = [];
  let lastKey = '';
  store.onDidChange((c) => {
    if (c.id !== TERMINAL || !c.current) return;
    const ch = toChange(c.current, opts.t0Ms, changes.at(-1)?.t ?? 0);
    const key = `${ch.agent}|${ch.state}|${ch.source}|${ch.waitKind ?? ''}|${ch.reason ?? ''}`;
    if (key === lastKey) return;
    lastKey = key;
    changes.push(ch);
    onChange?.(ch);
  });
  const logObs = opts.logs
    .flatMap((l) => l.events.map((e) => logEventToObservation(e, l.file)))
    .map((o): Observation => ({ ...o, locator: { ...o.locator, terminalId: TERMINAL } }))
    .sort((a, b) => a.at - b.at);
  let next = 0;
  const logsUntil = (ms: number) => {
    while (next < logObs.length && logObs[next].at <= ms) store.observe(logObs[next++]);
  };
  const det = new TerminalDetector({ cols: opts.cols ?? cast.cols, rows: opts.rows ?? cast.rows, commandLine: opts.commandLine ?? cast.command, t: 0 });
  const screen = (d: Detection) => store.observe(detectionToObservation(d, opts.t0Ms + d.t * 1000, { terminalId: TERMINAL }));
  screen(det.detection);
  det.onChange(screen);
  playEvents(cast, det, (t) => {
    clock = opts.t0Ms + t * 1000;
    logsUntil(clock);
  });
  clock = opts.t0Ms + (cast.duration + 2) * 1000;
  det.advance(cast.duration + 2);
  logsUntil(Infinity);
  det.dispose();
  return { changes, store };
}

function toChange(s: TerminalState, t0Ms: number, lastT: number): ShownChange {
  // A word can be older than the last change (an outcome confirming a turn end the screen saw first): time never goes back.
  const shownAt = s.words.find((w) => w.source === s.source)?.at ?? s.since;
  const t = Math.max(lastT, Math.round(shownAt - t0Ms) / 1000);
  const c: ShownChange = { t, agent: s.agent, state: s.state, source: s.source, evidence: s.evidence };
  if (s.waitKind) c.waitKind = s.waitKind;
  if (s.reason) c.reason = s.reason;
  return c;
}
