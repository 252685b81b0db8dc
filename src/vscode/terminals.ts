import { sleep } from '../common/poll';
import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import { startedBefore } from '../sources/process/startTicks';
import { agentUnder, type FoundAgent, ProcessScan, type ScanTarget } from '../sources/process/processScan';
import { ttySize } from '../sources/process/processTree';
import { realScheduler } from '../common/scheduler';
import { RcFiles } from '../sources/terminal/rcFiles';
import { readDecision } from '../sources/terminal/readPolicy';
import { type DetectionStats, TerminalSession } from '../sources/terminal/session';
import type { AgentStore } from '../store/store';
import type { AgentLensConfig } from './config';
import { printable } from '../common/printable';
import type { AgentKind } from '../common/agents';

/**
 * The emulator must be at least as large as the real terminal (a narrower one wraps full-screen TUIs
 * into garbage; a larger one changes nothing). VS Code's stable API has no terminal size, so we read
 * the pty's size where we can and fall back to this.
 */
const FALLBACK_SIZE = { cols: 240, rows: 80 };
const NAME_POLL_MS = 1000;

/**
 * The only code that reads terminals: shell-integration executions in, chunks to the per-terminal
 * session; terminals without a readable stream are watched through their process tree.
 */
export class TerminalAdapter implements vscode.Disposable {
  private readonly ids = new Map<vscode.Terminal, string>();
  private readonly sessions = new Map<string, TerminalSession>();
  private readonly reading = new Set<string>();
  /** Terminals running a command whose output is not read: watched by the process scan. */
  private readonly unread = new Set<string>();
  /**
   * Terminals whose shell reported a command start since Agent Lens began watching them. A terminal revived
   * after a reload (persistent sessions) has shell integration again but saw no start: whatever runs in it
   * started before, so only its process tree tells.
   */
  private readonly sawStart = new Set<string>();
  /**
   * Terminals whose shell is older than this extension host: revived after a reload, so something may run in
   * them that started before. A terminal opened later only runs what its shell reports (or has no shell
   * integration), so a command whose start event is late is not taken for one that ran before the reload.
   */
  private readonly revivable = new Set<string>();
  private readonly processScan: ProcessScan;
  private readonly nameTimer: NodeJS.Timeout;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly rc = new RcFiles();
  /** Each terminal's shell process: hook reports name their ancestors, and the shell among them is the terminal. */
  private readonly shellPids = new Map<number, string>();
  private sizeTimer: NodeJS.Timeout | undefined;
  readonly stats: DetectionStats = { ms: 0, chunks: 0, chars: 0 };
  /** Each terminal's agent process, where a scan or the agent's folder lookup found it. */
  private readonly agentPids = new Map<string, number>();
  /** A scan found an agent in a terminal that saw no command start (revived after a reload). */
  onAgentFound: ((terminalId: string, found: { agent: AgentKind; pid: number }) => void) | undefined;
  /** Every chunk read from a terminal, after the detector has it (the handoff fallback reads ```handoff blocks). */
  onOutput: ((terminalId: string, chunk: string) => void) | undefined;
  onClosed: ((terminalId: string) => void) | undefined;

  constructor(
    private readonly store: AgentStore,
    private config: () => AgentLensConfig,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.processScan = new ProcessScan({
      intervalSeconds: () => this.config().processScanIntervalSeconds,
      targets: () => this.scanTargets(),
      found: (id, found) => this.processFound(id, found),
      log,
    });
    const w = vscode.window;
    this.disposables.push(
      w.onDidOpenTerminal((t) => this.track(t)),
      w.onDidCloseTerminal((t) => this.closed(t)),
      w.onDidStartTerminalShellExecution((e) => this.started(e)),
      w.onDidEndTerminalShellExecution((e) => this.ended(e)),
      w.onDidChangeTerminalState((t) => this.rename(t)),
    );
    for (const t of w.terminals) this.track(t, true);
    this.reschedule();
    // VS Code fires no event when a tab's title changes (the program in it, a rename): names are compared each second.
    this.nameTimer = setInterval(() => this.syncNames(), NAME_POLL_MS);
  }

  idOf(t: vscode.Terminal): string | undefined {
    return this.ids.get(t);
  }

  terminalOf(id: string): vscode.Terminal | undefined {
    for (const [t, i] of this.ids) if (i === id) return t;
    return undefined;
  }

  /** The terminal whose shell is one of these processes (a reporter's ancestry), if any. */
  terminalForPids(pids: readonly number[]): string | undefined {
    for (const p of pids) {
      const id = this.shellPids.get(p);
      if (id) return id;
    }
    return undefined;
  }

  session(id: string): TerminalSession | undefined {
    return this.sessions.get(id);
  }

  shellPidOf(id: string): number | undefined {
    for (const [pid, tid] of this.shellPids) if (tid === id) return pid;
    return undefined;
  }

  agentPidOf(id: string): number | undefined {
    return this.agentPids.get(id);
  }

  /** Settings changed: restart the scan loop with the new interval. */
  reconfigure(): void {
    this.reschedule();
  }

  dispose(): void {
    this.processScan.dispose();
    clearInterval(this.nameTimer);
    if (this.sizeTimer) clearInterval(this.sizeTimer);
    for (const s of this.sessions.values()) s.dispose();
    this.disposables.forEach((d) => d.dispose());
  }

  private track(t: vscode.Terminal, atActivation = false): string {
    const known = this.ids.get(t);
    if (known) return known;
    // Random, not a counter: ids stay unique across reloads and windows, for the terminal's life.
    const id = `term-${randomBytes(4).toString('hex')}`;
    this.ids.set(t, id);
    this.store.openTerminal(id, t.name);
    const session = new TerminalSession(id, (o) => this.store.observe(o), realScheduler, {
      ...FALLBACK_SIZE,
      stats: this.stats,
      // The evidence is screen text: escaped like the name, so a line on screen cannot forge a log line.
      onWord: (tid, o) =>
        this.log.info(printable(`[${this.store.terminal(tid)?.name ?? tid}] ${o.agent} → ${o.state} (${o.source}) ${o.evidence}`)),
    });
    this.sessions.set(id, session);
    void t.processId.then((pid) => {
      if (pid && this.ids.get(t) === id) {
        this.shellPids.set(pid, id);
        // Where the kernel cannot say (not Linux), a terminal there at activation counts as revived.
        if (startedBefore(pid, process.pid) ?? atActivation) this.revivable.add(id);
      }
      // An agent may already run in it (a terminal revived after a reload): look at once, not at the next tick.
      this.processScan.soon();
    });
    void this.sizeFromPty(t, session);
    this.reschedule();
    return id;
  }

  private rename(t: vscode.Terminal): void {
    const id = this.ids.get(t);
    if (id) this.store.renameTerminal(id, t.name);
  }

  private syncNames(): void {
    for (const [t, id] of this.ids) if (this.store.terminal(id)?.name !== t.name) this.store.renameTerminal(id, t.name);
  }

  private closed(t: vscode.Terminal): void {
    const id = this.ids.get(t);
    if (!id) return;
    this.sessions.get(id)?.close(t.exitStatus?.code);
    this.sessions.delete(id);
    this.reading.delete(id);
    this.unread.delete(id);
    this.sawStart.delete(id);
    this.revivable.delete(id);
    this.agentPids.delete(id);
    this.ids.delete(t);
    for (const [pid, tid] of this.shellPids) if (tid === id) this.shellPids.delete(pid);
    this.store.closeTerminal(id);
    this.onClosed?.(id);
    this.reschedule();
  }

  private started(e: vscode.TerminalShellExecutionStartEvent): void {
    const id = this.track(e.terminal);
    this.sawStart.add(id);
    const session = this.sessions.get(id)!;
    const cl = e.execution.commandLine;
    const confidence =
      cl.confidence === vscode.TerminalShellExecutionCommandLineConfidence.High
        ? 'high'
        : cl.confidence === vscode.TerminalShellExecutionCommandLineConfidence.Medium
          ? 'medium'
          : 'low';
    const cwd = e.execution.cwd?.fsPath ?? e.terminal.shellIntegration?.cwd?.fsPath;
    const decision = readDecision(cl.value, confidence, this.rc.resolver(cwd));
    // A command line can carry a secret (a token in an argument); the user turns trace on to see it.
    this.log.debug(
      `[${printable(e.terminal.name)}] execution (${confidence}): ${decision.read ? 'read' : 'not read'}, ${printable(decision.reason)}`,
    );
    this.log.trace(`[${printable(e.terminal.name)}] command line ${printable(JSON.stringify(cl.value))}`);
    if (!decision.read) {
      session.startExecution(cl.value, false, undefined, cwd);
      this.reading.delete(id);
      this.unread.add(id);
      this.reschedule();
      return;
    }
    // read() only delivers data written after its first call: it must be called in this handler, synchronously.
    const stream = e.execution.read();
    session.startExecution(cl.value, true, decision.agent ? { agent: decision.agent, evidence: decision.reason } : undefined, cwd);
    this.reading.add(id);
    this.unread.delete(id);
    this.reschedule();
    void this.sizeFromPty(e.terminal, session);
    void this.followAgentCwd(e.terminal, session);
    void (async () => {
      try {
        for await (const chunk of stream) {
          session.write(chunk);
          this.onOutput?.(id, chunk);
        }
      } catch (err) {
        this.log.warn(`[${printable(e.terminal.name)}] reading the terminal stream failed: ${printable((err as Error).message)}`);
      }
    })();
  }

  private ended(e: vscode.TerminalShellExecutionEndEvent): void {
    const id = this.ids.get(e.terminal);
    if (!id) return;
    this.sessions.get(id)?.endExecution(e.exitCode);
    this.reading.delete(id);
    this.unread.delete(id);
    this.reschedule();
  }

  /**
   * The folder an agent runs in links its session log to this terminal. The execution's cwd is where the
   * command line started (`cd app && claude` starts one folder up), so ask the agent process itself.
   */
  private async followAgentCwd(t: vscode.Terminal, session: TerminalSession): Promise<void> {
    if (process.platform !== 'linux') return;
    for (const ms of [1500, 4000, 10_000]) {
      await sleep(ms);
      if (!session.reading) return;
      try {
        const pid = await t.processId;
        const found = pid ? await agentUnder(pid) : undefined;
        const id = this.ids.get(t);
        if (found && id) this.agentPids.set(id, found.pid);
        if (found?.cwd) return session.setCwd(found.cwd);
      } catch {
        // The terminal or the process went away: nothing to follow.
      }
    }
  }

  private async sizeFromPty(t: vscode.Terminal, session: TerminalSession): Promise<void> {
    try {
      const pid = await t.processId;
      if (!pid) return;
      const size = await ttySize(pid);
      if (size) session.resize(size.cols, size.rows);
    } catch {
      // Keep the fallback size.
    }
  }

  /**
   * Terminals the process scan watches: those without shell integration (disabled, unsupported shell), those
   * running a command that is not read, and those that have not reported a command start since Agent Lens
   * began watching them (revived after a reload with an agent still running). A shell that reported a start
   * needs no scan while idle: its next command arrives as an event.
   */
  private needsScan(t: vscode.Terminal, id: string): boolean {
    return !this.reading.has(id) && (this.unread.has(id) || !t.shellIntegration || this.revivedUnstarted(id));
  }

  /** Revived after a reload and no command start reported since: what runs there started before. */
  private revivedUnstarted(id: string): boolean {
    return this.revivable.has(id) && !this.sawStart.has(id);
  }

  /** The pty-size poll and the process scan follow what the terminals need now. */
  private reschedule(): void {
    this.resizePoll();
    this.processScan.reschedule();
  }

  /** The terminals the process scan looks into. */
  private scanTargets(): ScanTarget[] {
    return [...this.ids]
      .filter(([t, id]) => this.needsScan(t, id))
      .map(([t, id]) => ({ id, shellPid: () => t.processId, wanted: () => this.needsScan(t, id) }));
  }

  /** What the scan found in a terminal goes to its session; what a revived one had before the reload goes in first. */
  private processFound(id: string, found: FoundAgent | undefined): void {
    const known = this.agentPids.get(id);
    if (found) this.agentPids.set(id, found.pid);
    else this.agentPids.delete(id);
    const revived = this.revivedUnstarted(id);
    if (found && known !== found.pid && revived) this.onAgentFound?.(id, { agent: found.agent, pid: found.pid });
    this.sessions.get(id)?.setProcessAgent(found ? { agent: found.agent, evidence: found.evidence, cwd: found.cwd, revived } : undefined);
  }

  /**
   * VS Code tells extensions nothing when a terminal is resized; while agents are read, their pty size is
   * re-read every 5 s so the emulator follows the panel.
   */
  private resizePoll(): void {
    if (this.reading.size === 0) {
      if (this.sizeTimer) clearInterval(this.sizeTimer);
      this.sizeTimer = undefined;
      return;
    }
    if (this.sizeTimer) return;
    this.sizeTimer = setInterval(() => {
      for (const id of this.reading) {
        const t = this.terminalOf(id);
        const s = this.sessions.get(id);
        if (t && s) void this.sizeFromPty(t, s);
      }
    }, 5000);
  }
}
