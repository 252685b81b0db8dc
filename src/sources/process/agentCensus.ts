import { hostPlatform } from '../../common/platform';
import * as fs from 'fs';
import { agentFromProcess } from '../../detect/commandLine';
import { parseProcStat } from './processTree';
import { windowsCensusCount } from './windows';
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

/**
 * How many sessions of an agent run in a folder on this machine, from the process table (Linux /proc).
 * A launcher and the program it starts (npx → node → claude) count once. Undefined where the table cannot
 * be read: the binder then does not link on this ground.
 */
export class AgentCensus {
  private cache: { at: number; procs: Proc[] } | undefined;

  constructor(
    private readonly procRoot = '/proc',
    private readonly platform: NodeJS.Platform = hostPlatform(),
  ) {}

  count(agent: AgentKind, cwd: string): number | undefined {
    // Windows: CIM exposes no process's working folder, so only what the whole machine's count allows (windows.ts).
    if (this.platform === 'win32') return windowsCensusCount(agent, HELPERS);
    const procs = this.scan();
    if (!procs) return undefined;
    const byPid = new Map(procs.map((p) => [p.pid, p]));
    return procs.filter((p) => p.agent === agent && p.cwd === cwd && !hasAgentAncestor(p, byPid)).length;
  }

  private scan(): Proc[] | undefined {
    if (this.platform !== 'linux') return undefined;
    const now = Date.now();
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
      const m = agentFromProcess(stat.comm, args.slice(1));
      if (!m || HELPERS[m.agent]?.test(args.join(' '))) return { pid, ppid: stat.ppid };
      let cwd: string | undefined;
      try {
        cwd = fs.readlinkSync(`${this.procRoot}/${pid}/cwd`);
      } catch {
        cwd = undefined; // another user's process
      }
      return { pid, ppid: stat.ppid, agent: m.agent, cwd };
    } catch {
      return undefined; // it ended while we looked
    }
  }
}

function hasAgentAncestor(p: Proc, byPid: Map<number, Proc>): boolean {
  let cur = byPid.get(p.ppid);
  for (let depth = 0; cur && depth < 16; depth++) {
    if (cur.agent === p.agent) return true;
    cur = byPid.get(cur.ppid);
  }
  return false;
}
