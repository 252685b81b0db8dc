import { TerminalDetector } from '../detect/detector';
import type { Detection } from '../detect/types';
import type { Report } from '../hooks/report';
import { HookSource } from '../sources/hooks/hookSource';
import { logEventToObservation } from '../sources/logs/logSources';
import { TurnEnds } from '../sources/logs/turnEnds';
import { detectionToObservation } from '../sources/terminal/session';
import type { Observation } from '../store/observation';
import { AgentStore } from '../store/store';
import type { TerminalState } from '../store/types';
import type { Cast } from '../formats/cast';
import type { DecodedLog } from './logFiles';
import { playEvents, type ReplayOptions } from './replay';
import type { AgentId } from '../common/agents';
import type { AgentState, WaitKind } from '../common/states';
import type { Source } from '../common/sources';

/** The replayed terminal's id in the store. */
const TERMINAL = 'replay';

export interface FusedOptions extends ReplayOptions {
  logs?: DecodedLog[];
  /** Recorded hook reports (epoch ms), read by the extension's hook source and mapping (./hookFile.ts). */
  hooks?: Report[];
  /** Wall-clock epoch ms of the cast's t = 0: log records and hook reports are placed on the cast's clock by it. */
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
 * Replays a recording with its agent's session logs and recorded hook reports through the same sources,
 * store and arbitration the extension uses: the detector's verdicts, the logs' records and the hooks' words
 * meet in the store in time order, and every change of the shown state is reported. The logs and hooks are
 * named for this terminal (pinned), as a user passing `--log` or `--hooks` says they belong to it.
 */
export function replayFused(
  cast: Cast,
  opts: FusedOptions,
  onChange?: (c: ShownChange) => void,
): { changes: ShownChange[]; store: AgentStore } {
  let clock = opts.t0Ms;
  const store = new AgentStore({ clock: { now: () => clock } });
  store.openTerminal(TERMINAL, 'replay');
  const changes = watchShown(store, opts.t0Ms, onChange);
  const det = new TerminalDetector({
    cols: opts.cols ?? cast.cols,
    rows: opts.rows ?? cast.rows,
    commandLine: opts.commandLine ?? cast.command,
    t: 0,
  });
  const due = dueInputs(store, opts);
  let next = 0;
  const deliverUntil = (ms: number) => {
    for (; next < due.length && due[next].at <= ms; next++) {
      // The screen's own timers that fire before this word, as they would have in real time.
      det.advance((due[next].at - opts.t0Ms) / 1000);
      due[next].deliver();
    }
  };
  const screen = (d: Detection) => store.observe(detectionToObservation(d, opts.t0Ms + d.t * 1000, { terminalId: TERMINAL }));
  screen(det.detection);
  det.onDidChange(screen);
  playEvents(cast, det, (t) => {
    clock = opts.t0Ms + t * 1000;
    deliverUntil(clock);
  });
  clock = opts.t0Ms + (cast.duration + 2) * 1000;
  deliverUntil(clock);
  det.advance(cast.duration + 2);
  deliverUntil(Infinity);
  det.dispose();
  return { changes, store };
}

/** Every change of the replayed terminal's shown state, as it happens. */
function watchShown(store: AgentStore, t0Ms: number, onChange?: (c: ShownChange) => void): ShownChange[] {
  const changes: ShownChange[] = [];
  let lastKey = '';
  store.onDidChange((c) => {
    if (c.id !== TERMINAL || !c.current) return;
    const ch = toChange(c.current, t0Ms, changes.at(-1)?.t ?? 0);
    const key = `${ch.agent}|${ch.state}|${ch.source}|${ch.waitKind ?? ''}|${ch.reason ?? ''}`;
    if (key === lastKey) return;
    lastKey = key;
    changes.push(ch);
    onChange?.(ch);
  });
  return changes;
}

/** A word from beside the screen, due at `at` (epoch ms). */
interface Due {
  at: number;
  deliver(): void;
}

/**
 * The logs' records and the hooks' reports, pinned to the replayed terminal, oldest first (ties: logs, then hooks,
 * each in file order). A reply a log holds until its agent says the turn ended is told when that hook is read,
 * as the live log source does.
 */
function dueInputs(store: AgentStore, opts: FusedOptions): Due[] {
  const pin = (o: Observation): Observation => ({ ...o, locator: { ...o.locator, terminalId: TERMINAL } });
  const turnEnds = new TurnEnds();
  const logs = (opts.logs ?? []).flatMap((l) =>
    l.events.map((e): Due => ({
      at: e.at,
      deliver: () => {
        const told = turnEnds.offer(e, l.file);
        if (told) store.observe(pin(logEventToObservation(told, l.file)));
      },
    })),
  );
  // The extension's hook source; recorded reports name no process, so the store it writes to pins each word.
  const pinned = { observe: (o: Observation) => store.observe(pin(o)), knowsAgentSession: store.knowsAgentSession.bind(store) };
  const hooks = new HookSource(pinned, {
    terminalFor: () => TERMINAL,
    turnEnded: (agent, sessionId, _logPath, provenance) => {
      const held = turnEnds.release(agent, sessionId);
      if (held) store.observe(pin(logEventToObservation(held.event, held.file, provenance)));
    },
  });
  const reports = (opts.hooks ?? []).map((r): Due => ({ at: r.at, deliver: () => void hooks.record(r) }));
  return [...logs, ...reports].sort((a, b) => a.at - b.at);
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
