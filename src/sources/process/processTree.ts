import { hostPlatform } from '../../common/platform';
import { execFile } from 'child_process';
import { promises as fsp } from 'fs';
import { agentFromCommandLine, agentFromProcess } from '../../detect/commandLine';
import { pidAlive } from '../../common/pidAlive';
import type { AgentKind } from '../../common/agents';
import { procStatFields } from '../../common/procStat';
import { windowsProcessTable } from './windows';

export interface ProcInfo {
  pid: number;
  ppid: number;
  /** Executable name (Linux comm, macOS/Windows image name). */
  name: string;
  args: string[];
}

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

/** Arguments kept per process from `ps`. */
const MAX_ARGS = 256;

/** `ps -axo pid=,ppid=,comm=,args=` (macOS, BSD). comm may hold a path; args repeats it with arguments. */
export function parsePs(text: string): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const line of text.split('\n')) {
    // The rest of the line is sliced off, not matched: `(\S+)\s*(.*)$` backtracks through a long comm when a
    // \r (which `.` does not match) follows it.
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+)/.exec(line);
    if (!m) continue;
    const comm = m[3];
    const rest = line.slice(m[0].length).trim();
    // The first MAX_ARGS arguments say what runs (a wrapper, an interpreter's script, a headless flag); splitting
    // all of a 2 MB argument list made a string per word for nothing.
    out.push({
      pid: Number(m[1]),
      ppid: Number(m[2]),
      name: comm.split('/').pop() ?? comm,
      args: rest ? rest.split(/\s+/, MAX_ARGS) : [comm],
    });
  }
  return out;
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
 * One process's own name and arguments (Linux /proc, `ps` on macOS and BSD, the CIM table on Windows; undefined
 * when it is gone): a tmux pane's process may be the agent itself, and a terminal's foreground may be its own shell.
 */
export async function processInfo(pid: number, platform: NodeJS.Platform = hostPlatform()): Promise<ProcInfo | undefined> {
  if (platform === 'linux') return linuxInfo(pid, 0);
  if (platform === 'win32') return (await windowsProcessTable.read()).find((p) => p.pid === pid);
  return parsePs(await runAnyway('ps', ['-o', 'pid=,ppid=,comm=,args=', '-p', String(pid)])).find((p) => p.pid === pid);
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

function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: 5000, maxBuffer: 8 * 1024 * 1024, windowsHide: true }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
  });
}

/** The processes below a terminal's shell, on Linux (/proc), macOS (ps) and Windows (CIM via PowerShell). */
export async function processesUnder(root: number, platform: NodeJS.Platform = hostPlatform(), limit = 256): Promise<ProcInfo[]> {
  if (platform === 'linux') return linuxTree(root, limit);
  // One CIM query serves every terminal of a scan (src/sources/process/windows.ts).
  if (platform === 'win32') return descendants(await windowsProcessTable.read(), root, limit);
  return descendants(parsePs(await run('ps', ['-axo', 'pid=,ppid=,comm=,args='])), root, limit);
}

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
    let tty: string | undefined;
    if (platform === 'linux') tty = await fsp.readlink(`/proc/${shellPid}/fd/0`);
    else if (platform === 'darwin') {
      const name = (await run('ps', ['-o', 'tty=', '-p', String(shellPid)])).trim();
      tty = name && name !== '??' ? `/dev/${name}` : undefined;
    }
    if (!tty || !/^\/dev\/(?:pts\/\d+|tty\w+)$/.test(tty)) return undefined;
    const out = await run('stty', [platform === 'darwin' ? '-f' : '-F', tty, 'size']);
    const m = /^(\d+)\s+(\d+)/.exec(out.trim());
    if (!m) return undefined;
    const rows = Number(m[1]);
    const cols = Number(m[2]);
    return rows > 0 && cols > 0 ? { cols, rows } : undefined;
  } catch {
    return undefined;
  }
}

// ---- who holds a terminal: the foreground process group of its tty ---------------------------------------------

/** A process's place in job control: its process group, its controlling tty and that tty's foreground group. */
export interface TtyJob {
  pid: number;
  pgid: number;
  /** The foreground process group of the process's controlling terminal; -1 or 0 when it has none. */
  tpgid: number;
  /** The controlling terminal: Linux's tty_nr as a number string, ps's tty name elsewhere; '' when there is none. */
  tty: string;
}

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

/** `ps -o pid=,pgid=,tpgid=,tty= -p A,B` (macOS, BSD, and procps on Linux): one process a line. */
export function parsePsJobs(text: string): TtyJob[] {
  const out: TtyJob[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(\d+)\s+(-?\d+)\s+(-?\d+)\s+(\S+)/.exec(line);
    if (!m) continue;
    const tty = m[4] === '??' || m[4] === '?' ? '' : m[4];
    out.push({ pid: Number(m[1]), pgid: Number(m[2]), tpgid: Number(m[3]), tty });
  }
  return out;
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

function runAnyway(cmd: string, args: string[]): Promise<string> {
  // ps exits 1 when a listed pid is gone; what it printed about the others still counts.
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: 5000, maxBuffer: 1024 * 1024 }, (err, stdout) =>
      err && !stdout && (err as NodeJS.ErrnoException).code === 'ENOENT' ? reject(err) : resolve(stdout ?? ''),
    );
  });
}

/**
 * The job fields of some processes: /proc on Linux, one `ps` elsewhere; a process that is gone is left out.
 * Undefined on Windows, whose consoles have no process groups to read.
 */
export async function readJobs(pids: readonly number[], platform: NodeJS.Platform = hostPlatform()): Promise<TtyJob[] | undefined> {
  if (platform === 'win32') return undefined;
  if (platform === 'linux') {
    const jobs = await Promise.all(pids.map((p) => fsp.readFile(`/proc/${p}/stat`, 'utf8').then(parseProcJob, () => undefined)));
    return jobs.filter((j): j is TtyJob => !!j);
  }
  return parsePsJobs(await runAnyway('ps', ['-o', 'pid=,pgid=,tpgid=,tty=', '-p', pids.join(',')]));
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

/** Shells that keep a prompt in a terminal. pwsh is not here: it starts programs in its own process group. */
const SHELLS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'fish',
  'ksh',
  'ksh93',
  'mksh',
  'pdksh',
  'oksh',
  'tcsh',
  'csh',
  'ash',
  'yash',
  'busybox',
  'nu',
  'elvish',
  'xonsh',
]);
/** Shell options whose next argument is a value, not a script to run (VS Code starts bash with --init-file). */
const VALUE_OPTIONS = new Set(['--init-file', '--rcfile', '-o', '+o', '-O', '+O', '-C', '--init-command', '--emulate']);

/** Whether a program name is a shell's (tmux's `pane_current_command`, a login shell's "-bash", Git for Windows' `bash.exe`). */
export function isShellName(name: string): boolean {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  return SHELLS.has(
    base
      .replace(/^-/, '')
      .replace(/\.exe$/i, '')
      .toLowerCase(),
  );
}

/**
 * A shell reading its own input: named like a shell (by its executable, so `exec -a claude bash` is still bash)
 * and running neither a command string (`-c`) nor a script. A shell running a script is that script's program.
 */
export function isInteractiveShell(p: ProcInfo): boolean {
  if (!isShellName(p.name)) return false;
  const args = p.args.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return i + 1 >= args.length;
    if (VALUE_OPTIONS.has(a)) i++;
    else if (a === '--command' || /^-[A-Za-z]*c[A-Za-z]*$/.test(a)) return false;
    else if (!a.startsWith('-') && !a.startsWith('+')) return false;
  }
  return true;
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
