import type { AgentKind } from '../../common/agents';
import type { Logger } from '../../common/log';
import { printable } from '../../common/printable';
import { agentCwds } from './agentCwd';
import { findAgent, processesUnder } from './processTree';

/** A terminal the scan looks into: its id and its shell's process. */
export interface ScanTarget {
  id: string;
  shellPid(): PromiseLike<number | undefined>;
  /** Still worth a look when its turn comes (a command may have started meanwhile). */
  wanted(): boolean;
}

/** The agent a scan found in a terminal's process tree, and the folder it works in (Linux, macOS). */
export interface FoundAgent {
  agent: AgentKind;
  pid: number;
  evidence: string;
  cwd?: string;
}

export interface ProcessScanOptions {
  intervalSeconds(): number;
  /** The terminals that need a look now: no shell integration, a command that is not read, revived by a reload. */
  targets(): ScanTarget[];
  /** What a look found in one terminal (undefined: no agent runs there). */
  found(id: string, agent: FoundAgent | undefined): void;
  log: Logger;
}

/** A look at once, 200 ms after it was asked for: a terminal's shell process id comes a moment after the terminal. */
const SOON_MS = 200;

/**
 * The process source: every N seconds, and only while some terminal needs it, the agent running in each such
 * terminal's process tree. The terminals it looks at and what becomes of a finding are the caller's.
 */
export class ProcessScan {
  private timer: NodeJS.Timeout | undefined;
  private soonTimer: NodeJS.Timeout | undefined;
  private scanning = false;

  constructor(private readonly o: ProcessScanOptions) {}

  /** Looks again after the interval, or stops when nothing needs it (settings changed, terminals came or went). */
  reschedule(): void {
    const interval = this.o.intervalSeconds();
    if (interval <= 0 || !this.o.targets().length) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.scan().finally(() => this.reschedule());
    }, interval * 1000);
  }

  /** Looks at once (an agent may already run in a terminal that just appeared). */
  soon(): void {
    if (this.soonTimer) return;
    this.soonTimer = setTimeout(() => {
      this.soonTimer = undefined;
      void this.scan().finally(() => this.reschedule());
    }, SOON_MS);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.soonTimer) clearTimeout(this.soonTimer);
  }

  private async scan(): Promise<void> {
    if (this.scanning) return;
    this.scanning = true;
    try {
      const looked: { id: string; found?: FoundAgent }[] = [];
      for (const t of this.o.targets()) {
        if (!t.wanted()) continue;
        const pid = await t.shellPid();
        if (pid) looked.push({ id: t.id, found: findAgent(await processesUnder(pid)) });
      }
      // The agents' folders in one go: on macOS that is one lsof for the whole scan, not one per terminal.
      const cwds = await agentCwds(looked.flatMap((l) => (l.found ? [l.found.pid] : [])));
      for (const l of looked) this.o.found(l.id, l.found && withCwd(l.found, cwds));
    } catch (err) {
      this.o.log.debug(`process scan failed: ${printable((err as Error).message)}`);
    } finally {
      this.scanning = false;
    }
  }
}

/** The agent running below a shell, and the folder it works in (where it can be read: else the shell's is used). */
export async function agentUnder(shellPid: number): Promise<FoundAgent | undefined> {
  const found = findAgent(await processesUnder(shellPid));
  return found && withCwd(found, await agentCwds([found.pid]));
}

function withCwd(found: Omit<FoundAgent, 'cwd'>, cwds: ReadonlyMap<number, string>): FoundAgent {
  const cwd = cwds.get(found.pid);
  return { ...found, ...(cwd ? { cwd } : {}) };
}
