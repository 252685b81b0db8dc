import { hostPlatform } from '../../common/platform';
import { promises as fsp } from 'fs';
import { agentFromCommandLine, agentFromProcess } from '../../detect/commandLine';
import { pidAlive } from '../../common/pidAlive';
import type { AgentKind } from '../../common/agents';
import { procStatFields } from '../../common/procStat';
import { parseSttySize } from './darwin';
import type { ProcInfo, TtyJob } from './procTypes';
import { runTool } from './runTool';
import { FOREGROUND_AGE_MS, processTable, SCAN_AGE_MS } from './table';

// What callers have always imported from here; the macOS parsers live in darwin.ts, the shell names in shells.ts.
export type { ProcInfo, TtyJob } from './procTypes';
export { parsePs, parsePsJobs } from './darwin';
export { isInteractiveShell, isShellName } from './shells';

/** Every process below `root` (not `root` itself), breadth first, bounded. */
export function descendants(all: readonly ProcInfo[], root: number, limit = 512): ProcInfo[] {
  const children = new Map<number, ProcInfo[]>();
  for (const p of all) {
    const list = children.get(p.ppid);
    if (list) list.push(p);
    else children.set(p.ppid, [p]);
  }
  const out: ProcInfo[] = [];
  const queue = [root];
  const seen = new Set<number>([root]);
  while (queue.length && out.length < limit) {
    const pid = queue.shift()!;
    for (const c of children.get(pid) ?? []) {
      if (seen.has(c.pid)) continue;
      seen.add(c.pid);
      out.push(c);
      queue.push(c.pid);
    }
  }
  return out;
}

/** The first agent among a terminal's processes, nearest the shell first. */
export function findAgent(procs: readonly ProcInfo[]): { agent: AgentKind; evidence: string; pid: number } | undefined {
  for (const p of procs) {
    const m = agentFromProcess(p.name, p.args.slice(1));
    if (m) return { agent: m.agent, evidence: `process ${p.name} (pid ${p.pid})`, pid: p.pid };
  }
  return undefined;
}

/** /proc/<pid>/stat: the comm field is in parentheses and may itself contain spaces and parentheses. */
export function parseProcStat(stat: string): { ppid: number; comm: string } | undefined {
  const f = procStatFields(stat);
  const ppid = f?.field(4) ?? NaN;
  return f && Number.isFinite(ppid) ? { ppid, comm: f.comm } : undefined;
}

async function linuxChildren(pid: number): Promise<number[] | undefined> {
  try {
    const tasks = await fsp.readdir(`/proc/${pid}/task`);
    const kids: number[] = [];
    for (const t of tasks) {
      const text = await fsp.readFile(`/proc/${pid}/task/${t}/children`, 'utf8');
      for (const k of text.split(' ')) if (k.trim()) kids.push(Number(k));
    }
    return kids;
  } catch {
    return undefined;
  }
}

async function linuxInfo(pid: number, ppid: number): Promise<ProcInfo | undefined> {
  try {
    const [stat, cmdline] = await Promise.all([fsp.readFile(`/proc/${pid}/stat`, 'utf8'), fsp.readFile(`/proc/${pid}/cmdline`, 'utf8')]);
    const s = parseProcStat(stat);
    if (!s) return undefined;
    return { pid, ppid: s.ppid || ppid, name: s.comm, args: cmdline.split('\0').filter(Boolean) };
  } catch {
    return undefined; // the process ended while we looked
  }
}

/**
 * One process's own name and arguments (Linux /proc, the scan's process table elsewhere: ps on macOS and BSD, CIM
 * on Windows; undefined when it is gone): a tmux pane's process may be the agent itself, and a terminal's
 * foreground may be its own shell.
 */
export async function processInfo(pid: number, platform: NodeJS.Platform = hostPlatform()): Promise<ProcInfo | undefined> {
  if (platform === 'linux') return linuxInfo(pid, 0);
  const row = (await processTable(platform)?.rowsFor([pid], SCAN_AGE_MS))?.find((p) => p.pid === pid);
  return row && pidAlive(pid) ? row : undefined;
}

/** Linux: walk down from the shell through each task's children list in /proc (no full /proc scan). */
async function linuxTree(root: number, limit: number): Promise<ProcInfo[]> {
  const out: ProcInfo[] = [];
  const queue = [root];
  while (queue.length && out.length < limit) {
    const pid = queue.shift()!;
    const kids = await linuxChildren(pid);
    if (kids === undefined) return linuxFullScan(root, limit);
    for (const k of kids) {
      const info = await linuxInfo(k, pid);
      if (info) {
        out.push(info);
        queue.push(k);
      }
    }
  }
  return out;
}

async function linuxFullScan(root: number, limit: number): Promise<ProcInfo[]> {
  const all: ProcInfo[] = [];
  for (const e of await fsp.readdir('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    const info = await linuxInfo(Number(e), 0);
    if (info) all.push(info);
  }
  return descendants(all, root, limit);
}

/** The processes below a terminal's shell: Linux walks /proc, the others take the scan's table (table.ts). */
export async function processesUnder(root: number, platform: NodeJS.Platform = hostPlatform(), limit = 256): Promise<ProcInfo[]> {
  if (platform === 'linux') return linuxTree(root, limit);
  const table = processTable(platform);
  // The table may be up to SCAN_AGE_MS old (its platform's minAgeMs on Windows): a process that has ended since is
  // not reported as running.
  return table ? descendants(await table.rowsFor([root], SCAN_AGE_MS), root, limit).filter((p) => pidAlive(p.pid)) : [];
}

/** A pty's device: Linux's /dev/pts/N, macOS's /dev/ttysNNN. */
const TTY_PATH = /^\/dev\/(?:pts\/\d+|tty\w+)$/;

/**
 * The size of the terminal a shell runs in, from its pty (`stty size` on the shell's tty). VS Code's
 * stable API does not expose terminal dimensions; the detector's emulator must not be narrower than the
 * real terminal, or full-screen TUIs wrap into garbage. Undefined when it cannot be read (Windows).
 */
export async function ttySize(
  shellPid: number,
  platform: NodeJS.Platform = hostPlatform(),
): Promise<{ cols: number; rows: number } | undefined> {
  try {
    if (platform === 'linux') {
      const tty = await fsp.readlink(`/proc/${shellPid}/fd/0`);
      return TTY_PATH.test(tty) ? parseSttySize(await runTool('stty', ['-F', tty, 'size'])) : undefined;
    }
    // macOS: the shell's controlling tty from the scan's table ("ttys003"), its size through BSD stty's -f; none
    // where the table has no ttys (Windows).
    const table = processTable(platform);
    if (!table?.jobs) return undefined;
    const name = (await table.rowsFor([shellPid], SCAN_AGE_MS)).find((p) => p.pid === shellPid)?.job?.tty;
    const tty = name ? `/dev/${name}` : '';
    return TTY_PATH.test(tty) ? parseSttySize(await runTool('stty', ['-f', tty, 'size'])) : undefined;
  } catch {
    return undefined;
  }
}

// ---- who holds a terminal: the foreground process group of its tty ---------------------------------------------

/**
 * /proc/<pid>/stat's job fields: 5 pgrp, 7 tty_nr, 8 tpgid (1-based, counting comm as field 2). Fields are
 * counted after the last ')' because comm may itself hold spaces and parentheses.
 */
export function parseProcJob(stat: string): TtyJob | undefined {
  const f = procStatFields(stat);
  const pid = Number(stat.slice(0, stat.indexOf(' ')));
  if (!f || !Number.isInteger(pid)) return undefined;
  const [pgid, ttyNr, tpgid] = [f.field(5), f.field(7), f.field(8)];
  if (![pgid, ttyNr, tpgid].every(Number.isInteger)) return undefined;
  return { pid, pgid, tpgid, tty: ttyNr ? String(ttyNr) : '' };
}

/** Whether a process holds its terminal: what can be read about it, or 'unknown' where nothing can (Windows). */
export type Foreground = 'foreground' | 'background' | 'gone' | 'unknown';

/**
 * Where `agent` stands on the terminal `root` (a terminal's shell, a tmux pane's process) runs on: in the
 * foreground process group of root's tty — the group the tty hands typed input to — or not. A process on
 * another tty, or on none, is never in this terminal's foreground.
 */
export function foregroundFrom(root: TtyJob | undefined, agent: TtyJob | undefined): Foreground {
  if (!root || !agent) return 'gone';
  if (!root.tty || agent.tty !== root.tty || root.tpgid <= 0) return 'background';
  return agent.pgid === root.tpgid ? 'foreground' : 'background';
}

/**
 * The job fields of some processes: /proc on Linux, the ps table elsewhere (read again unless it was read just
 * now: a check before typing must see the terminal as it is now); a process that is gone is left out.
 * Undefined where the table has no job control (Windows, whose consoles have no process groups to read).
 */
export async function readJobs(pids: readonly number[], platform: NodeJS.Platform = hostPlatform()): Promise<TtyJob[] | undefined> {
  if (platform === 'linux') {
    const jobs = await Promise.all(pids.map((p) => fsp.readFile(`/proc/${p}/stat`, 'utf8').then(parseProcJob, () => undefined)));
    return jobs.filter((j): j is TtyJob => !!j);
  }
  const table = processTable(platform);
  if (!table?.jobs) return undefined;
  const wanted = new Set(pids);
  return (await table.rowsFor(pids, FOREGROUND_AGE_MS)).flatMap((r) => (r.job && wanted.has(r.pid) ? [r.job] : []));
}

/** Whether `agent` is in the foreground of `root`'s terminal (see foregroundFrom); 'unknown' on Windows while it runs. */
export async function foregroundOf(root: number, agent: number, platform: NodeJS.Platform = hostPlatform()): Promise<Foreground> {
  const jobs = await readJobs([root, agent], platform);
  if (!jobs) return pidAlive(root) && pidAlive(agent) ? 'unknown' : 'gone';
  return foregroundFrom(
    jobs.find((j) => j.pid === root),
    jobs.find((j) => j.pid === agent),
  );
}

/**
 * The process leading the foreground group of `root`'s terminal: the program the terminal's typed input goes
 * to (with its job, when it is a pipeline). `leader` is missing when the group's leader is gone or unreadable;
 * the whole answer is undefined on Windows.
 */
export async function ttyHolder(
  root: number,
  platform: NodeJS.Platform = hostPlatform(),
): Promise<{ tpgid: number; leader?: ProcInfo } | undefined> {
  const jobs = await readJobs([root], platform);
  if (!jobs) return undefined;
  const tpgid = jobs[0]?.tpgid ?? -1;
  return { tpgid, leader: tpgid > 0 ? await processInfo(tpgid, platform) : undefined };
}

/** Every known agent among a terminal's processes, nearest the shell first (findAgent gives the first). */
export function findAgents(procs: readonly ProcInfo[]): { agent: AgentKind; pid: number }[] {
  const out: { agent: AgentKind; pid: number }[] = [];
  for (const p of procs) {
    const m = agentFromProcess(p.name, p.args.slice(1));
    if (m) out.push({ agent: m.agent, pid: p.pid });
  }
  return out;
}

/** Whether `command` is an agent's command (`claude`) and the process runs that agent, under whatever script name. */
export function runsAgentCommand(p: ProcInfo, command: string): boolean {
  const agent = agentFromCommandLine(command)?.agent;
  return agent !== undefined && agentFromProcess(p.name, p.args.slice(1))?.agent === agent;
}
