import { execFile } from 'child_process';
import * as path from 'path';
import type { AgentKind } from '../../common/agents';
import { agentFromProcess } from '../../detect/commandLine';
import { splitWindowsCommandLine } from './windowsArgv';

/**
 * The Windows process table: every process's id, parent, image name, command line and start, from ONE
 * PowerShell CIM query per scan (`Win32_Process`, https://learn.microsoft.com/windows/win32/cimwin32prov/win32-process),
 * shared by the readers of that scan. Never `wmic`: current Windows no longer ships it.
 *
 * What Windows does not expose here, and so nothing is guessed for it: another process's working folder (no
 * Win32_Process property holds it; reading it means opening the process and its memory, which needs native code),
 * and which process holds a console's input (consoles have no process groups: foregroundOf says 'unknown').
 */

/** One process: ProcInfo's fields (processTree.ts) and when it started. */
export interface WinProcess {
  pid: number;
  ppid: number;
  /** The image name, as Windows spells it (`node.exe`, `claude.EXE`). */
  name: string;
  /** The command line split as the program's C runtime splits it; empty when Windows hides it (see parseCimProcesses). */
  args: string[];
  /** Win32_Process.CreationDate in epoch ms (with a fraction from PowerShell 7's 100 ns ticks); undefined when not given. */
  started?: number;
}

/**
 * The query. UTF-8 without a byte-order mark, set first: Windows PowerShell 5.1 otherwise writes in the console's
 * code page, where a non-ASCII user name in a path (C:\Users\张三) arrives as `?`. Progress records are silenced so
 * nothing but the JSON is written.
 */
export const CIM_COMMAND = [
  "$ProgressPreference='SilentlyContinue'",
  '[Console]::OutputEncoding=New-Object System.Text.UTF8Encoding $false',
  'Get-CimInstance -ClassName Win32_Process | Select-Object ProcessId,ParentProcessId,Name,CommandLine,CreationDate | ConvertTo-Json -Compress',
].join(';');

/**
 * Windows PowerShell by its full path: a bare `powershell.exe` is looked for in the current folder before PATH
 * on Windows, and a workspace could put one there.
 */
export function powershellExe(env: NodeJS.ProcessEnv = process.env): string {
  return path.win32.join(env.SystemRoot || env.windir || 'C:\\Windows', 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe');
}

/** Bounds on what is kept: rows, and per row its name, command line and arguments. */
const MAX_ROWS = 65_536;
const MAX_NAME = 260;
const MAX_COMMAND_LINE = 32_768;
const MAX_ARGS = 256;

/**
 * `Get-CimInstance Win32_Process | Select-Object … | ConvertTo-Json -Compress`, in either PowerShell: an array,
 * or a single object when one process is listed; CommandLine null where Windows hides it (the System and
 * Idle processes, protected processes, other users' and elevated processes seen from a normal one);
 * CreationDate as `\/Date(ms)\/` (Windows PowerShell 5.1) or an ISO 8601 string (PowerShell 7). A byte-order
 * mark is skipped. Never throws: garbage is an empty table, and a row without numeric ids is left out.
 */
export function parseCimProcesses(text: string): WinProcess[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF+/, '').trim() || '[]');
  } catch {
    return [];
  }
  const list: unknown[] = Array.isArray(raw) ? raw : [raw];
  const out: WinProcess[] = [];
  for (const r of list.slice(0, MAX_ROWS)) {
    const row = cimRow(r);
    if (row) out.push(row);
  }
  return out;
}

function cimRow(r: unknown): WinProcess | undefined {
  if (!r || typeof r !== 'object') return undefined;
  const o = r as Record<string, unknown>;
  if (!isId(o.ProcessId) || !isId(o.ParentProcessId)) return undefined;
  const name = typeof o.Name === 'string' ? o.Name.slice(0, MAX_NAME) : '';
  const cmd = typeof o.CommandLine === 'string' ? o.CommandLine.slice(0, MAX_COMMAND_LINE) : '';
  const started = parseCimDate(o.CreationDate);
  return {
    pid: o.ProcessId,
    ppid: o.ParentProcessId,
    name,
    args: splitWindowsCommandLine(cmd, MAX_ARGS),
    ...(started === undefined ? {} : { started }),
  };
}

/** Win32_Process ids are uint32. */
function isId(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
}

/**
 * ConvertTo-Json's DateTime: `/Date(1733480000000)/` from Windows PowerShell 5.1 (JavaScriptSerializer's form,
 * after JSON.parse has undone the `\/`; an offset may follow the milliseconds, which are UTC either way), the
 * same inside `{"value": …}` when the DateTime carries extended properties, or an ISO 8601 string from
 * PowerShell 7 (`2024-12-06T10:13:20.1234567+01:00`; without an offset it is local time). Epoch ms.
 */
export function parseCimDate(v: unknown): number | undefined {
  const s = v && typeof v === 'object' ? (v as { value?: unknown }).value : v;
  if (typeof s !== 'string' || s.length > 64) return undefined;
  const ms = /^\/Date\((-?\d{1,15})(?:[+-]\d{4})?\)\/$/.exec(s);
  if (ms) return Number(ms[1]);
  const iso = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})?$/.exec(s);
  if (!iso) return undefined;
  const base = Date.parse(iso[1] + (iso[3] ?? ''));
  if (!Number.isFinite(base)) return undefined;
  return base + (iso[2] ? Number(`0.${iso[2]}`) * 1000 : 0);
}

/**
 * Parent links that can be trusted: Windows reuses process ids and keeps a child's ParentProcessId after its
 * parent exits, so a "parent" that started after its child is another process that took the id. Such a row's
 * ppid becomes -1 (no parent): otherwise a terminal's shell could adopt an agent it never started.
 */
export function linkParents(rows: readonly WinProcess[]): WinProcess[] {
  const byPid = new Map(rows.map((p) => [p.pid, p]));
  return rows.map((p) => {
    const parent = byPid.get(p.ppid);
    const stale = parent?.started !== undefined && p.started !== undefined && parent.started > p.started;
    return stale ? { ...p, ppid: -1 } : p;
  });
}

/** How long one table serves every reader: a scan's terminals, the census, the dispatch checks. */
const FRESH_MS = 2000;

function runCim(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      powershellExe(),
      ['-NoProfile', '-NonInteractive', '-Command', CIM_COMMAND],
      { timeout: 15_000, maxBuffer: 32 * 1024 * 1024, windowsHide: true },
      (err, stdout) =>
        err
          ? reject(new Error(`the Windows process table (PowerShell's Win32_Process query) could not be read: ${err.message}`))
          : resolve(stdout),
    );
  });
}

/**
 * The table, read at most once per FRESH_MS after a read ends: readers that ask while a query runs share it
 * (PowerShell takes a second or more to start and answer). A failed query is not kept: the next reader tries again.
 */
export class WindowsProcessTable {
  private entry: { table: Promise<WinProcess[]>; doneAt?: number } | undefined;
  private last: { at: number; rows: WinProcess[] } | undefined;

  constructor(
    private readonly run: () => Promise<string> = runCim,
    private readonly now: () => number = Date.now,
    private readonly freshMs = FRESH_MS,
  ) {}

  read(): Promise<WinProcess[]> {
    const e = this.entry;
    if (e && (e.doneAt === undefined || this.now() - e.doneAt < this.freshMs)) return e.table;
    const entry: { table: Promise<WinProcess[]>; doneAt?: number } = { table: Promise.resolve([]) };
    entry.table = this.run().then(
      (text) => {
        const rows = linkParents(parseCimProcesses(text));
        entry.doneAt = this.now();
        this.last = { at: entry.doneAt, rows };
        return rows;
      },
      (err: unknown) => {
        if (this.entry === entry) this.entry = undefined;
        throw err;
      },
    );
    this.entry = entry;
    return entry.table;
  }

  /**
   * The last table read, when it is at most `maxAgeMs` old. Otherwise undefined, and a read starts so the next
   * ask has one: for readers that cannot wait (the census answers the binder synchronously).
   */
  latest(maxAgeMs: number): WinProcess[] | undefined {
    if (this.last && this.now() - this.last.at <= maxAgeMs) return this.last.rows;
    // Not awaited on purpose: this ask is answered "cannot tell"; a failure only means the next ask is too.
    void this.read().catch(() => undefined);
    return undefined;
  }
}

/** The table every reader of this extension host shares. */
export const windowsProcessTable = new WindowsProcessTable();

/** Whether `pid` started before `than`, from CreationDate; undefined when either is missing or they started in the same tick. */
export function windowsStartedBefore(table: readonly WinProcess[], pid: number, than: number): boolean | undefined {
  const a = table.find((p) => p.pid === pid)?.started;
  const b = table.find((p) => p.pid === than)?.started;
  return a === undefined || b === undefined || a === b ? undefined : a < b;
}

// ---- the agent census on Windows -------------------------------------------------------------------------------

/** An agent process in the table: one whose own agent is not also its parent's or grandparent's (a launcher and the program it starts count once). */
export interface AgentProcess {
  pid: number;
  ppid: number;
  agent: AgentKind;
}

/** Interpreters an agent may run under: with its command line hidden, such a process may be an agent. */
const MAYBE_AGENT = new Set(['node', 'bun', 'deno', 'python', 'python3']);

/**
 * The agent sessions in a Windows table, by image name and command line (agentFromProcess). `isHelper` leaves
 * out processes an agent starts that are no session of their own (Codex's app-server). Also counts the
 * processes that may be agents but whose command line Windows hid (an elevated `node.exe`).
 */
export function windowsAgents(
  table: readonly WinProcess[],
  isHelper: (agent: AgentKind, args: readonly string[]) => boolean = () => false,
): { agents: AgentProcess[]; hidden: number } {
  const all: (AgentProcess | { pid: number; ppid: number; agent?: undefined })[] = [];
  let hidden = 0;
  for (const p of table) {
    const m = agentFromProcess(p.name, p.args.slice(1));
    if (m && !isHelper(m.agent, p.args)) all.push({ pid: p.pid, ppid: p.ppid, agent: m.agent });
    else {
      all.push({ pid: p.pid, ppid: p.ppid });
      if (!m && !p.args.length && MAYBE_AGENT.has(imageBase(p.name))) hidden++;
    }
  }
  const byPid = new Map(all.map((p) => [p.pid, p]));
  const agents = all.filter((p): p is AgentProcess => !!p.agent && !hasAgentAncestor(p as AgentProcess, byPid));
  return { agents, hidden };
}

function imageBase(name: string): string {
  return path.win32
    .basename(name)
    .replace(/\.exe$/i, '')
    .toLowerCase();
}

function hasAgentAncestor(p: AgentProcess, byPid: Map<number, { ppid: number; agent?: AgentKind }>): boolean {
  let cur = byPid.get(p.ppid);
  for (let depth = 0; cur && depth < 16; depth++) {
    if (cur.agent === p.agent) return true;
    cur = byPid.get(cur.ppid);
  }
  return false;
}

/**
 * How many sessions of `agent` run in one folder, as far as Windows can tell without the processes' working
 * folders: a folder holds at most what the machine holds, so none on the machine is none there, and exactly one
 * (with no hidden process that might be another) is at most one there — the one a terminal of that folder says it
 * runs, which is all the binder asks. More than one: cannot tell (undefined), and the binder does not link on
 * this ground.
 */
export function windowsFolderCount(census: { agents: readonly AgentProcess[]; hidden: number }, agent: AgentKind): number | undefined {
  const n = census.agents.filter((a) => a.agent === agent).length;
  if (n === 0) return census.hidden ? undefined : 0;
  return n === 1 && census.hidden === 0 ? 1 : undefined;
}

/**
 * What AgentCensus.count answers on Windows (windowsFolderCount), from the shared table when it is fresh;
 * undefined while it is not (a read starts for the next ask). `helpers`: the census's own list of helper processes.
 */
export function windowsCensusCount(
  agent: AgentKind,
  helpers: Partial<Record<AgentKind, RegExp>> = {},
  table: WindowsProcessTable = windowsProcessTable,
  maxAgeMs = FRESH_MS,
): number | undefined {
  const rows = table.latest(maxAgeMs);
  return (
    rows &&
    windowsFolderCount(
      windowsAgents(rows, (a, args) => helpers[a]?.test(args.join(' ')) ?? false),
      agent,
    )
  );
}
