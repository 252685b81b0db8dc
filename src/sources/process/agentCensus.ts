import { hostPlatform } from '../../common/platform';
import * as fs from 'fs';
import { agentFromProcess } from '../../detect/commandLine';
import { agentCwds } from './agentCwd';
import { parseProcStat } from './processTree';
import { windowsCensusCount } from './windows';
import { processTable, type TableSnapshot } from './table';
import type { AgentKind } from '../../common/agents';

/** Helper processes an agent starts that are not a session of their own (Codex's background app-server). */
const HELPERS: Partial<Record<AgentKind, RegExp>> = { codex: /(?:^|\s)app-server(?:\s|$)/ };

/** A census is this fresh at most: binding asks for it per unlinked log line. */
const CACHE_MS = 2000;

interface Proc {
  pid: number;
  ppid: number;
  /** Undefined for every other process: kept for their parent links. */
  agent?: AgentKind;
  cwd?: string;
}

/** Where the census reads from off Linux: the platform's whole-table call, and the agents' folders. */
export interface CensusSources {
  table(maxAgeMs: number): Promise<TableSnapshot>;
  cwds(pids: readonly number[]): Promise<ReadonlyMap<number, string>>;
}

/**
 * How many sessions of an agent run in a folder on this machine, from the process table. A launcher and the
 * program it starts (npx → node → claude) count once. Undefined where the table cannot be read: the binder then
 * does not link on this ground.
 *
 * Linux reads /proc synchronously (a few ms). Where the table is one `ps` call and the folders one `lsof` (macOS;
 * Windows once it has a table), the census is read in the background and count() answers from it while it is
 * fresh — never from an older one: until the next read lands it answers undefined, and the binder waits for the
 * log's next line. The extension host is never blocked on a child process.
 */
export class AgentCensus {
  private cache: { at: number; procs: Proc[] } | undefined;
  private refreshing: Promise<void> | undefined;
  /** When a read last failed: the next waits a census's life, not the next log line. */
  private failedAt = -Infinity;
  private readonly sources: CensusSources | undefined;

  constructor(
    private readonly procRoot = '/proc',
    private readonly platform: NodeJS.Platform = hostPlatform(),
    sources?: CensusSources,
    private readonly now: () => number = Date.now,
  ) {
    const table = platform === 'linux' ? undefined : processTable(platform);
    this.sources = sources ?? (table && { table: (age) => table.snapshot(age), cwds: (pids) => agentCwds(pids, platform) });
  }

  count(agent: AgentKind, cwd: string): number | undefined {
    // Windows: CIM exposes no process's working folder, so only what the whole machine's count allows (windows.ts).
    if (this.platform === 'win32') return windowsCensusCount(agent, HELPERS);
    const procs = this.platform === 'linux' ? this.scanProc() : this.fresh();
    if (!procs) return undefined;
    const byPid = new Map(procs.map((p) => [p.pid, p]));
    return procs.filter((p) => p.agent === agent && p.cwd === cwd && !hasAgentAncestor(p, byPid)).length;
  }

  /** Reads the census in the background (one at a time); count() calls it when what it has is stale. */
  refresh(): Promise<void> {
    if (!this.sources || this.platform === 'linux') return Promise.resolve();
    this.refreshing ??= this.readTable(this.sources).finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private fresh(): Proc[] | undefined {
    const now = this.now();
    if (this.cache && now - this.cache.at < CACHE_MS) return this.cache.procs;
    if (now - this.failedAt >= CACHE_MS) void this.refresh();
    return undefined;
  }

  private async readTable(sources: CensusSources): Promise<void> {
    try {
      // A table read by this scan's other readers serves while it is no older than half the census's life.
      const table = await sources.table(CACHE_MS / 2);
      const procs = table.rows.map((r) => classify(r.pid, r.ppid, r.name, r.args));
      const cwds = await sources.cwds(procs.flatMap((p) => (p.agent ? [p.pid] : [])));
      for (const p of procs) if (p.agent) p.cwd = cwds.get(p.pid);
      this.cache = { at: table.at, procs };
    } catch {
      // ps could not be read: the census cannot tell, and says so by answering undefined.
      this.failedAt = this.now();
    }
  }

  private scanProc(): Proc[] | undefined {
    const now = this.now();
    if (this.cache && now - this.cache.at < CACHE_MS) return this.cache.procs;
    let entries: string[];
    try {
      entries = fs.readdirSync(this.procRoot);
    } catch {
      return undefined;
    }
    const procs: Proc[] = [];
    for (const e of entries) {
      if (!/^\d+$/.test(e)) continue;
      const p = this.read(Number(e));
      if (p) procs.push(p);
    }
    this.cache = { at: now, procs };
    return procs;
  }

  private read(pid: number): Proc | undefined {
    try {
      const stat = parseProcStat(fs.readFileSync(`${this.procRoot}/${pid}/stat`, 'utf8'));
      if (!stat) return undefined;
      const args = fs.readFileSync(`${this.procRoot}/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const p = classify(pid, stat.ppid, stat.comm, args);
      if (!p.agent) return p;
      try {
        p.cwd = fs.readlinkSync(`${this.procRoot}/${pid}/cwd`);
      } catch {
        p.cwd = undefined; // another user's process
      }
      return p;
    } catch {
      return undefined; // it ended while we looked
    }
  }
}

/** A process, and the agent it is a session of (none for a helper such as Codex's app-server). */
function classify(pid: number, ppid: number, name: string, args: readonly string[]): Proc {
  const m = agentFromProcess(name, args.slice(1));
  return !m || HELPERS[m.agent]?.test(args.join(' ')) ? { pid, ppid } : { pid, ppid, agent: m.agent };
}

function hasAgentAncestor(p: Proc, byPid: Map<number, Proc>): boolean {
  let cur = byPid.get(p.ppid);
  for (let depth = 0; cur && depth < 16; depth++) {
    if (cur.agent === p.agent) return true;
    cur = byPid.get(cur.ppid);
  }
  return false;
}
