import { SHELL_FAILURES } from '../../detect/commandLine';
import { TerminalDetector } from '../../detect/detector';
import type { Detection } from '../../detect/types';
import { CastBuffer } from '../../formats/castWriter';
import { DeadlineTimer } from './deadline';
import { findingWord, type ProcessFinding } from './processFinding';
import type { Scheduler } from '../../common/scheduler';
import type { Observation } from '../../store/observation';
import { type AgentKind, isAgent, isAgentKind } from '../../common/agents';
import { sameState, type StateKey } from '../../common/states';

export interface SessionOptions {
  cols?: number;
  rows?: number;
  /** Every word the session reports (the adapter writes it to the log channel). */
  onWord?: (id: string, o: Observation) => void;
  /** Shared counters of the detection work done, for the performance report. */
  stats?: DetectionStats;
}

export interface DetectionStats {
  /** Milliseconds spent in the detector (emulation, classification), all terminals together. */
  ms: number;
  chunks: number;
  chars: number;
}

/**
 * The terminal source for one terminal: a detector per shell execution, the deadline timer that lets
 * states settle while output pauses, a bounded recording for bug reports, and what the process scan
 * found. It sends observations (`pty-scrape`, `command`, `process`) stamped in epoch ms: the detector's
 * (seconds since the execution started) from the execution's start, its own from the scheduler's clock.
 */
export class TerminalSession {
  private detector: TerminalDetector | undefined;
  private readonly deadline: DeadlineTimer;
  private cast: CastBuffer | undefined;
  private startMs = 0;
  private cols: number;
  private rows: number;
  private processAgent: ProcessFinding | undefined;
  private disposed = false;
  private cwd: string | undefined;
  private last: StateKey | undefined;
  private commandLine: string | undefined;

  constructor(
    readonly id: string,
    private readonly sink: (o: Observation) => void,
    private readonly scheduler: Scheduler,
    private readonly opts: SessionOptions = {},
  ) {
    this.cols = opts.cols ?? 120;
    this.rows = opts.rows ?? 30;
    this.deadline = new DeadlineTimer(scheduler);
  }

  /** True while an execution's output is being read. */
  get reading(): boolean {
    return this.detector !== undefined;
  }

  /** A shell execution started; `read` says whether its output will arrive through `write`. */
  startExecution(commandLine: string | undefined, read: boolean, agentHint?: { agent: AgentKind; evidence: string }, cwd?: string): void {
    this.stopDetector();
    this.commandLine = commandLine;
    this.processAgent = undefined;
    this.cwd = cwd;
    this.startMs = this.scheduler.now();
    if (!read) {
      this.say({
        agent: 'shell',
        state: 'idle',
        source: 'pty-scrape',
        evidence: `running ${JSON.stringify(commandLine ?? '')} (not read)`,
      });
      return;
    }
    const det = new TerminalDetector({ cols: this.cols, rows: this.rows, commandLine, agentHint, t: 0 });
    this.detector = det;
    this.cast = new CastBuffer(this.cols, this.rows, this.startMs, commandLine);
    det.onDidChange((d) => this.report(d));
    this.report(det.detection);
  }

  /** The agent's own working folder, once known: later observations carry it. */
  setCwd(cwd: string): void {
    this.cwd = cwd;
  }

  write(data: string): void {
    const det = this.detector;
    if (!det) return;
    const ms = this.scheduler.now();
    const t0 = performance.now();
    this.cast?.output(ms, data);
    det.write(data, (ms - this.startMs) / 1000);
    this.schedule();
    const st = this.opts.stats;
    if (st) {
      st.ms += performance.now() - t0;
      st.chunks++;
      st.chars += data.length;
    }
  }

  resize(cols: number, rows: number): void {
    if (cols === this.cols && rows === this.rows) return;
    this.cols = cols;
    this.rows = rows;
    const ms = this.scheduler.now();
    this.cast?.resize(ms, cols, rows);
    this.detector?.resize(cols, rows, (ms - this.startMs) / 1000);
    this.schedule();
  }

  /** The execution ended: the agent in it exited; the exit code is the evidence. */
  endExecution(exitCode: number | undefined): void {
    const det = this.detector;
    const ms = this.scheduler.now();
    this.cast?.exit(ms, exitCode);
    const ended = exitCode === undefined ? 'command ended' : `command ended with exit code ${exitCode}`;
    const missing = exitCode !== undefined ? SHELL_FAILURES[exitCode] : undefined;
    // 127 and 126 are the shell's own verdicts (no such command, not executable): no agent ever ran, whatever
    // the command line named, so the terminal is a shell that says why.
    if (det && missing)
      this.say({ agent: 'shell', state: 'idle', source: 'pty-scrape', evidence: `${missing}: ${this.commandLine ?? ''}`.trim() });
    else if (det && isAgent(det.detection)) det.exit(exitCode, (ms - this.startMs) / 1000);
    else if (det) this.say({ agent: 'shell', state: 'idle', source: 'pty-scrape', evidence: ended });
    else if (this.processAgent) this.say({ agent: this.processAgent.agent, state: 'exited', source: 'command', evidence: ended });
    this.processAgent = undefined;
    this.stopDetector();
  }

  /** The terminal closed: whatever ran in it has exited. */
  close(exitCode: number | undefined): void {
    const s = this.last;
    if (s && s.state !== 'exited' && isAgentKind(s.agent)) {
      this.say({
        agent: s.agent,
        state: 'exited',
        source: 'process',
        evidence: exitCode === undefined ? 'terminal closed' : `terminal closed, exit code ${exitCode}`,
      });
    }
    this.dispose();
  }

  /**
   * What a process-tree scan found under this terminal's shell. Used only when the output is not read
   * (no shell integration, a reload while an agent ran, an unread wrapper): agent + working/exited.
   */
  setProcessAgent(found: ProcessFinding | undefined): void {
    // The stream is authoritative while read; a scan may still name an agent the screen has not shown yet.
    if (this.detector) return;
    if (found?.cwd) this.cwd = found.cwd;
    const word = findingWord(this.processAgent, found);
    this.processAgent = found;
    if (word) this.say(word);
  }

  /** The recording of the current (or last) read execution, for "Record Terminal to .cast". */
  recording(): CastBuffer | undefined {
    return this.cast;
  }

  /** The detector's rendered screen, for diagnostics. */
  screenText(): string {
    return this.detector?.screenText() ?? '';
  }

  dispose(): void {
    this.disposed = true;
    this.stopDetector();
  }

  /** A detection, on the detector's clock (seconds since the execution started): stamped in epoch ms. */
  private report(d: Detection): void {
    this.word(d, this.startMs + d.t * 1000);
  }

  /** The session's own word (an execution started or ended, the process scan's finding): now. */
  private say(w: Omit<Detection, 't'>): void {
    this.word({ ...w, t: (this.scheduler.now() - this.startMs) / 1000 }, this.scheduler.now());
  }

  private word(d: Detection, at: number): void {
    if (this.disposed) return;
    if (this.last && sameState(this.last, d)) return;
    this.last = d;
    const o = detectionToObservation(d, at, { terminalId: this.id, cwd: this.cwd });
    this.sink(o);
    this.opts.onWord?.(this.id, o);
  }

  private schedule(): void {
    const det = this.detector;
    if (det) this.deadline.arm(det, this.startMs, () => this.detector === det);
  }

  private stopDetector(): void {
    this.deadline.stop();
    this.detector?.dispose();
    this.detector = undefined;
  }
}

/** A detector's verdict as a store observation. */
export function detectionToObservation(d: Detection, at: number, locator: Observation['locator']): Observation {
  const o: Observation = { source: d.source, at, agent: d.agent, state: d.state, evidence: d.evidence, locator };
  if (d.state === 'waiting')
    o.wait = {
      kind: d.waitKind ?? 'prompt',
      ...(d.waitKind === 'reply-question' ? { question: replyQuestion(d.evidence) } : {}),
      ...(d.options?.length ? { options: d.options } : {}),
    };
  if (d.reason) o.reason = d.reason;
  return o;
}

/**
 * The question of a reply that asks, from the detector's evidence (`rule: "text"`): the quotes and the reply's
 * own bullet (Codex and Claude Code start a reply's first row with `•`/`●`/`⏺`) are not part of what it asks.
 */
export function replyQuestion(evidence: string): string {
  return evidence
    .replace(/^[^:]*: /, '')
    .replace(/^"|"$/g, '')
    .replace(/^[•●⏺◦▪*\u2022-]\s+/u, '');
}
