import { execFile } from 'child_process';
import { promises as fsp } from 'fs';
import { agentFromProcess } from '../detect/commandLine';
import type { AgentKind } from '../detect/types';

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
    out.push({ pid: Number(m[1]), ppid: Number(m[2]), name: comm.split('/').pop() ?? comm, args: rest ? rest.split(/\s+/) : [comm] });
  }
  return out;
}

/** `Get-CimInstance Win32_Process | Select ProcessId,ParentProcessId,Name,CommandLine | ConvertTo-Json`. */
export function parseWindowsJson(text: string): ProcInfo[] {
  const raw = JSON.parse(text || '[]') as unknown;
  const list = Array.isArray(raw) ? raw : [raw];
  const out: ProcInfo[] = [];
  for (const r of list) {
    const o = r as Record<string, unknown>;
    if (typeof o?.ProcessId !== 'number' || typeof o.ParentProcessId !== 'number') continue;
    const cmd = typeof o.CommandLine === 'string' ? o.CommandLine : '';
    const args = cmd.match(/"[^"]*"|\S+/g)?.map((a) => a.replace(/^"|"$/g, '')) ?? [];
    out.push({ pid: o.ProcessId, ppid: o.ParentProcessId, name: String(o.Name ?? ''), args });
  }
  return out;
}

/** /proc/<pid>/stat: the comm field is in parentheses and may itself contain spaces and parentheses. */
export function parseProcStat(stat: string): { ppid: number; comm: string } | undefined {
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const rest = stat.slice(close + 2).split(' ');
  const ppid = Number(rest[1]);
  return Number.isFinite(ppid) ? { ppid, comm: stat.slice(open + 1, close) } : undefined;
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

/** One process's own name and arguments (Linux; elsewhere undefined): a tmux pane's process may be the agent itself. */
export async function processInfo(pid: number): Promise<ProcInfo | undefined> {
  return process.platform === 'linux' ? linuxInfo(pid, 0) : undefined;
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
    execFile(cmd, args, { timeout: 5000, maxBuffer: 8 * 1024 * 1024, windowsHide: true }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
}

/** The processes below a terminal's shell, on Linux (/proc), macOS (ps) and Windows (CIM via PowerShell). */
export async function processesUnder(root: number, platform: NodeJS.Platform = process.platform, limit = 256): Promise<ProcInfo[]> {
  if (platform === 'linux') return linuxTree(root, limit);
  if (platform === 'win32') {
    const json = await run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', 'Get-CimInstance Win32_Process | Select-Object ProcessId,ParentProcessId,Name,CommandLine | ConvertTo-Json -Compress']);
    return descendants(parseWindowsJson(json), root, limit);
  }
  return descendants(parsePs(await run('ps', ['-axo', 'pid=,ppid=,comm=,args='])), root, limit);
}

/**
 * The size of the terminal a shell runs in, from its pty (`stty size` on the shell's tty). VS Code's
 * stable API does not expose terminal dimensions; the detector's emulator must not be narrower than the
 * real terminal, or full-screen TUIs wrap into garbage. Undefined when it cannot be read (Windows).
 */
export async function ttySize(shellPid: number, platform: NodeJS.Platform = process.platform): Promise<{ cols: number; rows: number } | undefined> {
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
