import { type Candidate, classify, identify, makeFrame, matchingIds } from './classify';
import { Emitter, type Event } from '../common/emitter';
import { agentFromCommandLine, agentFromProcess } from './commandLine';
import { dialogOptions } from './dialogOptions';
import { OutputTail, STRONG_TRIGGER } from './prefilter';
import { Screen } from './screen';
import { SIGNATURES, signatureOf } from './signatures';
import type { AgentSignature } from '../agents/screenRules';
import { Debouncer } from './stateMachine';
import type { Detection } from './types';
import { type AgentId, type AgentKind, isAgentKind } from '../common/agents';
import { sameState } from '../common/states';
import type { DetectorSource as StateSource } from '../common/sources';

export interface DetectorOptions {
  cols?: number;
  rows?: number;
  /** The shell-integration command line, strongest identification evidence. */
  commandLine?: string;
  /** Executable names of processes in the terminal, second strongest. */
  processNames?: readonly string[];
  /** An agent known from elsewhere (an alias or wrapper script the command line runs). */
  agentHint?: { agent: AgentKind; evidence: string };
  /** Start time on the caller's clock, in seconds. */
  t?: number;
  /** Record every marker that matches any frame in `fired` (for `npm run compat`; costs time). */
  coverage?: boolean;
}

/** Seconds of stream time between two looks at the screen while output flows. */
export const CLASSIFY_INTERVAL = 0.1;
/** A promoted terminal that shows no agent within this much output and time goes back to the cheap path. */
const DEMOTE_AFTER_BYTES = 64 * 1024;
const DEMOTE_AFTER_SECONDS = 3;
/** After a demotion the weak triggers stay off for this long (seconds of stream time). */
const WEAK_COOLDOWN_SECONDS = 30;

const OSC_IDENTS = [...new Set(SIGNATURES.flatMap((s) => [s.programStatus?.osc ?? 0, 99]).filter((x) => x > 0))];

/**
 * One terminal's detector: raw output chunks in, "which agent, which state" out. Pure (no vscode, no
 * timers): the caller passes timestamps and calls `advance()` at `deadline()` when output pauses.
 */

export class TerminalDetector {
  private cols: number;
  private rows: number;
  private screen: Screen | undefined;
  private readonly tail = new OutputTail();
  private readonly osc = new Map<number, string>();
  private oscVersion = 0;
  /** When the program's own status (OSC) last changed: a state it reports held no longer than this. */
  private oscAt = 0;
  /** The time of the chunk being written, for OSC callbacks fired inside the write. */
  private writingAt = 0;
  /** Screen and OSC versions of the last classified frame: an unchanged frame needs no new look. */
  private lastLooked = '';
  private readonly changes = new Emitter<Detection>();
  /** Each new detection, as it is made. */
  readonly onDidChange: Event<Detection> = this.changes.event;
  private agent: AgentId = 'shell';
  private identifiedBy: 'command-line' | 'process' | 'screen' | undefined;
  private sig: AgentSignature | undefined;
  private current: Detection;
  private readonly debouncer = new Debouncer<Candidate>('idle');
  private dirty = false;
  /** When the screen first changed after the last look: a state seen later held no longer than this. */
  private dirtySince = 0;
  private lastClassify = -Infinity;
  private promotedAt: { t: number; bytes: number } | undefined;
  private bytesSeen = 0;
  private weakArmedAt = -Infinity;
  /** A headless run (`codex exec`, `claude -p`): Working until it exits, its exit code the outcome; no screen rules. */
  private headless: string | undefined;
  /** Which rules fired at least once, for coverage reports. */
  readonly fired = new Set<string>();
  private readonly coverage: boolean;

  constructor(opts: DetectorOptions = {}) {
    this.coverage = opts.coverage ?? false;
    this.cols = opts.cols ?? 80;
    this.rows = opts.rows ?? 24;
    const t = opts.t ?? 0;
    this.current = { t, agent: 'shell', state: 'idle', source: 'pty-scrape', evidence: 'no agent' };
    const cmd = agentFromCommandLine(opts.commandLine);
    if (cmd?.headless)
      this.startHeadless(
        cmd.agent,
        `${cmd.token} ${cmd.headless}`,
        'command-line',
        `headless run, command line: "${cmd.token} ${cmd.headless}"`,
        t,
      );
    else if (cmd) this.setAgent(cmd.agent, 'command-line', `command line: "${cmd.token}"`, t, 'command');
    else if (opts.agentHint) this.setAgent(opts.agentHint.agent, 'command-line', opts.agentHint.evidence, t, 'command');
    else if (opts.processNames) this.setProcessNames(opts.processNames, t);
  }

  get detection(): Detection {
    return this.current;
  }

  /** True while the terminal runs the full emulator (an agent is known or suspected). */
  get emulating(): boolean {
    return this.screen !== undefined;
  }

  /** The rendered screen, for `--screen` and bug reports. */
  screenText(): string {
    return this.screen ? this.screen.view().rows.join('\n').replace(/\s+$/, '') : '';
  }

  /** Process names from a process-tree scan; identifies agents started without shell integration. */
  setProcessNames(names: readonly string[], t: number): void {
    if (this.identifiedBy === 'command-line') return;
    for (const n of names) {
      const m = agentFromProcess(n);
      if (m) {
        if (this.agent !== m.agent) this.setAgent(m.agent, 'process', `process: "${m.token}"`, t, 'process');
        return;
      }
    }
  }

  write(data: string, t: number): void {
    this.advance(t);
    this.bytesSeen += data.length;
    if (!this.screen) {
      if (!this.shouldPromote(data, t)) {
        this.tail.push(data);
        return;
      }
      this.promote(t);
    }
    this.writingAt = t;
    this.screen!.write(data);
    this.markDirty(t);
    if (t - this.lastClassify >= CLASSIFY_INTERVAL) this.look(t);
  }

  resize(cols: number, rows: number, t: number): void {
    this.advance(t);
    this.cols = cols;
    this.rows = rows;
    if (this.screen) {
      this.screen.resize(cols, rows);
      this.markDirty(t);
      this.look(t);
    }
  }

  /** The process ended (asciinema `x`, shell-integration end event, terminal closed). */
  exit(code: number | string | undefined, t: number): void {
    this.advance(t);
    this.debouncer.reset('exited');
    const known = code !== undefined && code !== '';
    const evidence = known ? `process ended with exit code ${code}` : 'process ended';
    if (this.headless && known) {
      // The run's own exit status is its outcome: there is no TUI left to say anything else.
      const ok = Number(code) === 0;
      this.emit({
        t,
        agent: this.agent,
        state: ok ? 'completed' : 'failed',
        source: 'command',
        evidence: `${this.headless}: ${evidence}`,
        ...(ok ? {} : { reason: `exit code ${code}` }),
      });
      return;
    }
    this.emit({ t, agent: this.agent, state: 'exited', source: 'command', evidence });
  }

  /** Whether this is a headless run, and what said so. */
  get headlessRun(): string | undefined {
    return this.headless;
  }

  /** Lets time pass without output: commits settled states and looks at a screen that changed. */
  advance(t: number): void {
    for (let guard = 0; guard < 8; guard++) {
      const dl = this.deadline();
      if (dl === undefined || dl > t + 1e-9) return;
      // A changed screen may no longer show the pending state: look before committing it.
      if (this.dirty) this.look(Math.min(this.lookDeadline(), dl));
      else this.commit(this.debouncer.advance(dl));
    }
  }

  /** The next time `advance()` has something to do, on the caller's clock. */
  deadline(): number | undefined {
    const look = this.dirty ? this.lookDeadline() : undefined;
    const settle = this.debouncer.deadline();
    if (look === undefined) return settle;
    if (settle === undefined) return look;
    return Math.min(look, settle);
  }

  dispose(): void {
    this.screen?.dispose();
    this.screen = undefined;
    this.changes.dispose();
  }

  private markDirty(t: number): void {
    if (!this.dirty) {
      this.dirty = true;
      this.dirtySince = t;
    }
  }

  private lookDeadline(): number {
    return Math.max(this.lastClassify + CLASSIFY_INTERVAL, this.dirtySince);
  }

  private shouldPromote(data: string, t: number): boolean {
    if (STRONG_TRIGGER.test(data)) return true;
    return t >= this.weakArmedAt && this.tail.weakTrigger(data);
  }

  private promote(t: number): void {
    this.screen = new Screen(this.cols, this.rows, OSC_IDENTS, (ident, body) => {
      this.osc.set(ident, body);
      this.oscVersion++;
      this.oscAt = this.writingAt;
    });
    this.promotedAt = { t, bytes: this.bytesSeen };
    const context = this.tail.take();
    if (context) this.screen.write(context);
  }

  private demote(t: number): void {
    this.screen?.dispose();
    this.screen = undefined;
    this.osc.clear();
    this.promotedAt = undefined;
    this.dirty = false;
    this.weakArmedAt = t + WEAK_COOLDOWN_SECONDS;
  }

  private look(t: number): void {
    if (!this.screen) return;
    // Looks are throttled, so what we see now may have appeared as early as the first change since the
    // last look; a pending state held only until then.
    const seen = this.dirty ? Math.min(this.dirtySince, t) : t;
    this.dirty = false;
    this.lastClassify = t;
    const p = this.promotedAt;
    if (!this.sig && p && this.bytesSeen - p.bytes > DEMOTE_AFTER_BYTES && t - p.t > DEMOTE_AFTER_SECONDS) {
      this.demote(t);
      return;
    }
    const view = this.screen.view();
    const key = `${view.version}/${this.oscVersion}/${this.agent}`;
    if (key === this.lastLooked) {
      // Nothing visible changed: the candidate is the one offered last time; only time moves on.
      this.commit(this.debouncer.advance(seen));
      return;
    }
    this.lastLooked = key;
    const frame = makeFrame(view, this.osc);
    if (this.headless) return;
    if (!this.sig || this.current.state === 'exited') {
      // After an exit, an agent counts as started again only once a TUI is back on the alternate screen.
      const canStart = !this.sig || frame.view.altScreen;
      const id = canStart ? identify(frame, SIGNATURES) : undefined;
      if (id) {
        for (const r of id.ids) this.fired.add(r);
        const header = frame.view.altScreen ? undefined : signatureOf(id.agent).headless?.header;
        const row = header ? frame.view.rows.find((r) => header.test(r)) : undefined;
        if (row)
          this.startHeadless(id.agent, row.trim(), 'screen', `headless run, output header: "${row.trim()}" (${id.ids.join(', ')})`, seen);
        else this.setAgent(id.agent, 'screen', `identified by ${id.ids.join(', ')}`, seen, 'pty-scrape');
      }
      return;
    }
    const cand = classify(frame, this.sig!);
    if (this.coverage) for (const id of matchingIds(frame, this.sig!)) this.fired.add(id);
    const same = (a: Candidate, b: Candidate) => a.state === b.state && a.waitKind === b.waitKind;
    if (cand.state === this.debouncer.state && cand.state === this.current.state && cand.waitKind !== this.current.waitKind) {
      // Same state, different reason (a dialog after a reply-question): show the new reason at once.
      this.debouncer.reset(cand.state);
      this.commit({ value: cand, t: seen });
      return;
    }
    // The program's own status has an exact time: a 25 ms startup flash must not be backdated into a state.
    const since = this.sig!.programStatus && cand.ruleId.startsWith(this.sig!.programStatus.id) ? Math.max(seen, this.oscAt) : seen;
    this.commit(this.debouncer.offer(cand.state, cand, since, same));
  }

  private commit(c: { value: Candidate; t: number } | undefined): void {
    if (!c) return;
    const v = c.value;
    this.fired.add(v.ruleId.replace(/\+reply-question$/, ''));
    const evidence = v.text ? `${v.ruleId}: ${JSON.stringify(v.text.trim())}` : v.ruleId;
    const dialog = v.state === 'waiting' && v.waitKind !== 'reply-question' && this.screen ? dialogOptions(this.screen.view().rows) : [];
    this.emit({
      t: c.t,
      agent: this.agent,
      state: v.state,
      source: 'pty-scrape',
      evidence,
      waitKind: v.waitKind,
      ...(dialog.length ? { options: dialog } : {}),
    });
  }

  /** A headless run: the agent, Working from now, its outcome from the exit code (source `command`). */
  private startHeadless(agent: AgentKind, what: string, by: 'command-line' | 'screen', evidence: string, t: number): void {
    this.headless = what;
    this.setAgent(agent, by, evidence, t, 'command', 'working');
  }

  /** The agent is known: it starts `idle` (a headless run `working`), and what is on screen already is looked at. */
  private setAgent(
    agent: AgentId,
    by: 'command-line' | 'process' | 'screen',
    evidence: string,
    t: number,
    source: StateSource,
    state: 'idle' | 'working' = 'idle',
  ): void {
    this.agent = agent;
    this.identifiedBy = by;
    this.sig = isAgentKind(agent) ? signatureOf(agent) : undefined;
    if (!this.screen) this.promote(t);
    this.debouncer.reset(state);
    this.emit({ t, agent, state, source, evidence });
    // Look at what is already on screen right away: a promoted terminal may show a state already.
    this.markDirty(t);
    this.lastClassify = -Infinity;
    this.lastLooked = '';
    if (by === 'screen' && !this.headless) {
      const frame = makeFrame(this.screen!.view(), this.osc);
      const cand = classify(frame, this.sig!);
      if (cand.state !== 'idle') {
        this.debouncer.reset(cand.state);
        this.commit({ value: cand, t });
      }
      this.dirty = false;
      this.lastClassify = t;
    }
  }

  private emit(d: Detection): void {
    const c = this.current;
    if (sameState(c, d)) return;
    if (d.waitKind === undefined) delete d.waitKind;
    this.current = d;
    this.changes.fire(d);
  }
}
