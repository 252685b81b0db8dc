import * as vscode from 'vscode';
import type { AgentKind } from '../common/agents';
import { printable } from '../common/printable';
import { realScheduler } from '../common/scheduler';
import { type FoundAgent, ProcessScan, type ScanTarget } from '../sources/process/processScan';
import { processStartedBefore } from '../sources/process/startTicks';
import { type DetectionStats, TerminalSession } from '../sources/terminal/session';
import type { AgentStore } from '../store/store';
import type { AgentLensConfig } from './config';
import { ExecutionReader } from './executionReader';
import { PtySizes } from './ptySizes';
import { TerminalRegistry } from './terminalRegistry';

/**
 * The emulator must be at least as large as the real terminal (a narrower one wraps full-screen TUIs
 * into garbage; a larger one changes nothing). Where the pty's size cannot be read, this one is used.
 */
const FALLBACK_SIZE = { cols: 240, rows: 80 };

/** What Agent Lens follows of one terminal. */
interface Watched {
  terminal: vscode.Terminal;
  session: TerminalSession;
  /** Its current command's output is read. */
  reading: boolean;
  /** It runs a command whose output is not read: the process scan watches it. */
  unread: boolean;
  /**
   * Its shell reported a command start since Agent Lens began watching. A terminal revived after a reload
   * (persistent sessions) has shell integration again but saw no start: whatever runs in it started before,
   * so only its process tree tells.
   */
  sawStart: boolean;
  /**
   * Its shell is older than this extension host: revived after a reload, so something may run in it that
   * started before. A terminal opened later only runs what its shell reports (or has no shell integration), so
   * a command whose start event is late is not taken for one that ran before the reload.
   */
  revivable: boolean;
}

/**
 * The only code that reads terminals: VS Code's terminal events in, each terminal's session fed; terminals
 * whose output is not read are handed to the process scan. Names and ids: TerminalRegistry; one execution:
 * ExecutionReader; the pty size: PtySizes.
 */
export class TerminalAdapter implements vscode.Disposable {
  private readonly registry: TerminalRegistry;
  private readonly watched = new Map<string, Watched>();
  private readonly reader = new ExecutionReader();
  private readonly sizes = new PtySizes(() => [...this.watched.values()].filter((w) => w.reading));
  private readonly processScan: ProcessScan;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly found = new vscode.EventEmitter<{ terminalId: string; agent: AgentKind; pid: number }>();
  private readonly output = new vscode.EventEmitter<{ terminalId: string; chunk: string }>();
  private readonly closedTerminal = new vscode.EventEmitter<string>();
  /** A scan found an agent in a terminal that saw no command start (revived after a reload). */
  readonly onDidFindAgent = this.found.event;
  /** Every chunk read from a terminal, after the detector has it (the handoff fallback reads ```handoff blocks). */
  readonly onDidOutput = this.output.event;
  readonly onDidClose = this.closedTerminal.event;
  readonly stats: DetectionStats = { ms: 0, chunks: 0, chars: 0 };

  constructor(
    private readonly store: AgentStore,
    private readonly config: () => AgentLensConfig,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.registry = new TerminalRegistry(store);
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
      this.registry,
      this.sizes,
      this.found,
      this.output,
      this.closedTerminal,
    );
    for (const t of w.terminals) this.track(t, true);
    this.reschedule();
  }

  idOf(t: vscode.Terminal): string | undefined {
    return this.registry.idOf(t);
  }

  terminalOf(id: string): vscode.Terminal | undefined {
    return this.registry.terminalOf(id);
  }

  /** The terminal whose shell is one of these processes (a reporter's ancestry), if any. */
  terminalForPids(pids: readonly number[]): string | undefined {
    return this.registry.terminalForPids(pids);
  }

  session(id: string): TerminalSession | undefined {
    return this.watched.get(id)?.session;
  }

  shellPidOf(id: string): number | undefined {
    return this.registry.shellPidOf(id);
  }

  agentPidOf(id: string): number | undefined {
    return this.registry.agentPidOf(id);
  }

  /** Settings changed: restart the scan loop with the new interval. */
  reconfigure(): void {
    this.reschedule();
  }

  dispose(): void {
    this.processScan.dispose();
    for (const w of this.watched.values()) w.session.dispose();
    this.disposables.forEach((d) => d.dispose());
  }

  private track(t: vscode.Terminal, atActivation = false): Watched {
    const { id, added } = this.registry.add(t);
    if (!added) return this.watched.get(id)!;
    const session = new TerminalSession(id, (o) => this.store.observe(o), realScheduler, {
      ...FALLBACK_SIZE,
      stats: this.stats,
      // The evidence is screen text: escaped like the name, so a line on screen cannot forge a log line.
      onWord: (tid, o) =>
        this.log.info(printable(`[${this.store.terminal(tid)?.name ?? tid}] ${o.agent} → ${o.state} (${o.source}) ${o.evidence}`)),
    });
    const w: Watched = { terminal: t, session, reading: false, unread: false, sawStart: false, revivable: false };
    this.watched.set(id, w);
    void t.processId.then(async (pid) => {
      if (pid && this.registry.idOf(t) === id) {
        this.registry.setShellPid(id, pid);
        // Where the start order cannot be read (the same second on macOS, a table Windows did not give), a terminal
        // there at activation counts as revived.
        if ((await processStartedBefore(pid, process.pid)) ?? atActivation) w.revivable = true;
      }
      // An agent may already run in it (a terminal revived after a reload): look at once, not at the next tick.
      this.processScan.soon();
    });
    void this.sizes.readNow(t, session);
    this.reschedule();
    return w;
  }

  private closed(t: vscode.Terminal): void {
    const id = this.registry.idOf(t);
    const w = id ? this.watched.get(id) : undefined;
    if (!id || !w) return;
    w.session.close(t.exitStatus?.code);
    this.watched.delete(id);
    this.registry.remove(t);
    this.closedTerminal.fire(id);
    this.reschedule();
  }

  private started(e: vscode.TerminalShellExecutionStartEvent): void {
    const w = this.track(e.terminal);
    const id = this.registry.idOf(e.terminal)!;
    w.sawStart = true;
    w.reading = this.reader.start(e, w.session, {
      log: this.log,
      output: (chunk) => this.output.fire({ terminalId: id, chunk }),
      agentPid: (pid) => {
        if (this.registry.idOf(e.terminal) === id) this.registry.setAgentPid(id, pid);
      },
    });
    w.unread = !w.reading;
    if (w.reading) void this.sizes.readNow(e.terminal, w.session);
    this.reschedule();
  }

  private ended(e: vscode.TerminalShellExecutionEndEvent): void {
    const id = this.registry.idOf(e.terminal);
    const w = id ? this.watched.get(id) : undefined;
    if (!w) return;
    w.session.endExecution(e.exitCode);
    w.reading = false;
    w.unread = false;
    this.reschedule();
  }

  /**
   * Terminals the process scan watches: those without shell integration (disabled, unsupported shell), those
   * running a command that is not read, and those that have not reported a command start since Agent Lens
   * began watching them (revived after a reload with an agent still running). A shell that reported a start
   * needs no scan while idle: its next command arrives as an event.
   */
  private needsScan(w: Watched): boolean {
    return !w.reading && (w.unread || !w.terminal.shellIntegration || revivedUnstarted(w));
  }

  /** The pty-size poll and the process scan follow what the terminals need now. */
  private reschedule(): void {
    this.sizes.update([...this.watched.values()].some((w) => w.reading));
    this.processScan.reschedule();
  }

  /** The terminals the process scan looks into. */
  private scanTargets(): ScanTarget[] {
    return [...this.watched]
      .filter(([, w]) => this.needsScan(w))
      .map(([id, w]) => ({ id, shellPid: () => w.terminal.processId, wanted: () => this.watched.get(id) === w && this.needsScan(w) }));
  }

  /** What the scan found in a terminal goes to its session; what a revived one had before the reload goes in first. */
  private processFound(id: string, found: FoundAgent | undefined): void {
    const w = this.watched.get(id);
    const known = this.registry.agentPidOf(id);
    this.registry.setAgentPid(id, found?.pid);
    if (!w) return;
    const revived = revivedUnstarted(w);
    if (found && known !== found.pid && revived) this.found.fire({ terminalId: id, agent: found.agent, pid: found.pid });
    w.session.setProcessAgent(found ? { agent: found.agent, evidence: found.evidence, cwd: found.cwd, revived } : undefined);
  }
}

/** Revived after a reload and no command start reported since: what runs there started before. */
function revivedUnstarted(w: Watched): boolean {
  return w.revivable && !w.sawStart;
}
