import { hostPlatform } from '../../common/platform';
import * as fs from 'fs';
import { agentFromProcess } from '../../detect/commandLine';
import { agentCwdReadable, agentCwds } from './agentCwd';
import { parseProcStat } from './processTree';
import { mayBeHiddenAgent } from './windows';
import { processTable, type TableSnapshot } from './table';
import type { AgentKind } from '../../common/agents';
import type { ProcInfo } from './procTypes';

/** Helper processes an agent starts that are not a session of their own (Codex's background app-server). */
const HELPERS: Partial<Record<AgentKind, RegExp>> = { codex: /(?:^|\s)app-server(?:\s|$)/ };

/** A census is this fresh at most: binding asks for it per unlinked log line. */
const CACHE_MS = 2000;

/** A process as the census sees it. */
export interface CensusProc {
  pid: number;
  ppid: number;
  /** Undefined for every other process: kept for their parent links. */
  agent?: AgentKind;
  cwd?: string;
  /** No known agent, but may be one whose command line the system hid (mayBeHiddenAgent). */
  hidden?: boolean;
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
 * Linux reads /proc synchronously (a few ms). Where the table is one call (table.ts: ps on macOS, PowerShell's CIM
 * query on Windows) and the folders one `lsof` (macOS), the census is read in the background and count() answers
 * from it while it is fresh — never from an older one: until the next read lands it answers undefined, and the
 * binder waits for the log's next line. The extension host is never blocked on a child process. Where the agents'
 * folders cannot be read (Windows), it answers what the whole machine's count allows (countWithoutFolders).
 */
export class AgentCensus {
  private cache: { at: number; procs: CensusProc[] } | undefined;
  private refreshing: Promise<void> | undefined;
  /** When a read last failed: the next waits a census's life, not the next log line. */
  private failedAt = -Infinity;
  private readonly sources: CensusSources | undefined;
  private readonly folders: boolean;

  constructor(
    private readonly procRoot = '/proc',
    private readonly platform: NodeJS.Platform = hostPlatform(),
    sources?: CensusSources,
    private readonly now: () => number = Date.now,
  ) {
    const table = platform === 'linux' ? undefined : processTable(platform);
    this.sources = sources ?? (table && { table: (age) => table.snapshot(age), cwds: (pids) => agentCwds(pids, platform) });
    this.folders = agentCwdReadable(platform);
  }

  count(agent: AgentKind, cwd: string): number | undefined {
    const procs = this.platform === 'linux' ? this.scanProc() : this.fresh();
    if (!procs) return undefined;
    const agents = sessionsIn(procs);
    if (this.folders) return agents.filter((p) => p.agent === agent && p.cwd === cwd).length;
    return countWithoutFolders({ agents, hidden: procs.filter((p) => p.hidden).length }, agent);
  }

  /** Reads the census in the background (one at a time); count() calls it when what it has is stale. */
  refresh(): Promise<void> {
    if (!this.sources || this.platform === 'linux') return Promise.resolve();
    this.refreshing ??= this.readTable(this.sources).finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private fresh(): CensusProc[] | undefined {
    const now = this.now();
    if (this.cache && now - this.cache.at < CACHE_MS) return this.cache.procs;
    if (now - this.failedAt >= CACHE_MS) void this.refresh();
    return undefined;
  }

  private async readTable(sources: CensusSources): Promise<void> {
    try {
      // A table read by this scan's other readers serves while it is no older than half the census's life.
      const table = await sources.table(CACHE_MS / 2);
      const procs = censusOf(table.rows);
      const cwds = await sources.cwds(procs.flatMap((p) => (p.agent ? [p.pid] : [])));
      for (const p of procs) if (p.agent) p.cwd = cwds.get(p.pid);
      this.cache = { at: table.at, procs };
    } catch {
      // The table could not be read: the census cannot tell, and says so by answering undefined.
      this.failedAt = this.now();
    }
  }

  private scanProc(): CensusProc[] | undefined {
    const now = this.now();
    if (this.cache && now - this.cache.at < CACHE_MS) return this.cache.procs;
    let entries: string[];
    try {
      entries = fs.readdirSync(this.procRoot);
    } catch {
      return undefined;
    }
    const procs: CensusProc[] = [];
    for (const e of entries) {
      if (!/^\d+$/.test(e)) continue;
      const p = this.read(Number(e));
      if (p) procs.push(p);
    }
    this.cache = { at: now, procs };
    return procs;
  }

  private read(pid: number): CensusProc | undefined {
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
function classify(pid: number, ppid: number, name: string, args: readonly string[]): CensusProc {
  const m = agentFromProcess(name, args.slice(1));
  if (!m) return mayBeHiddenAgent(name, args) ? { pid, ppid, hidden: true } : { pid, ppid };
  return HELPERS[m.agent]?.test(args.join(' ')) ? { pid, ppid } : { pid, ppid, agent: m.agent };
}

/** A table's processes as the census sees them (each with its agent, if it is a session of one). */
export function censusOf(rows: readonly ProcInfo[]): CensusProc[] {
  return rows.map((r) => classify(r.pid, r.ppid, r.name, r.args));
}

/** The agent sessions among them: an agent whose own agent is not also an ancestor's (a launcher and its program count once). */
export function sessionsIn(procs: readonly CensusProc[]): CensusProc[] {
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  return procs.filter((p) => p.agent && !hasAgentAncestor(p, byPid));
}

function hasAgentAncestor(p: CensusProc, byPid: Map<number, CensusProc>): boolean {
  let cur = byPid.get(p.ppid);
  for (let depth = 0; cur && depth < 16; depth++) {
    if (cur.agent === p.agent) return true;
    cur = byPid.get(cur.ppid);
  }
  return false;
}

/**
 * How many sessions of `agent` run in one folder, as far as a platform can tell without the processes' working
 * folders (Windows; any platform where agentCwdReadable is false): a folder holds at most what the machine holds,
 * so none on the machine is none there, and exactly one (with no hidden process that might be another) is at most
 * one there — the one a terminal of that folder says it runs, which is all the binder asks. More than one: cannot tell (undefined), and
 * the binder does not link on this ground. `agents`: the machine's sessions (a launcher and its program once);
 * `hidden`: the processes that may be agents (mayBeHiddenAgent).
 */
export function countWithoutFolders(
  census: { agents: readonly { agent?: AgentKind }[]; hidden: number },
  agent: AgentKind,
): number | undefined {
  const n = census.agents.filter((a) => a.agent === agent).length;
  if (n === 0) return census.hidden ? undefined : 0;
  return n === 1 && census.hidden === 0 ? 1 : undefined;
}
