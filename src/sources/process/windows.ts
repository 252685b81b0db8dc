import { execFile } from 'child_process';
import * as path from 'path';
import type { TableRow } from './procTypes';
import { splitWindowsCommandLine } from './windowsArgv';

/**
 * The Windows process table: every process's id, parent, image name, command line and start (TableRow's `started`,
 * no `job`), from ONE PowerShell CIM query (`Win32_Process`,
 * https://learn.microsoft.com/windows/win32/cimwin32prov/win32-process) — Windows' reader of the one shared table
 * (table.ts, TABLE_READERS.win32). Never `wmic`: current Windows no longer ships it.
 *
 * What Windows does not expose here, and so nothing is guessed for it: another process's working folder (no
 * Win32_Process property holds it; reading it means opening the process and its memory, which needs native code),
 * and which process holds a console's input (consoles have no process groups: foregroundOf says 'unknown').
 */

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
export function parseCimProcesses(text: string): TableRow[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF+/, '').trim() || '[]');
  } catch {
    return [];
  }
  const list: unknown[] = Array.isArray(raw) ? raw : [raw];
  const out: TableRow[] = [];
  for (const r of list.slice(0, MAX_ROWS)) {
    const row = cimRow(r);
    if (row) out.push(row);
  }
  return out;
}

function cimRow(r: unknown): TableRow | undefined {
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
export function linkParents(rows: readonly TableRow[]): TableRow[] {
  const byPid = new Map(rows.map((p) => [p.pid, p]));
  return rows.map((p) => {
    const parent = byPid.get(p.ppid);
    const stale = parent?.started !== undefined && p.started !== undefined && parent.started > p.started;
    return stale ? { ...p, ppid: -1 } : p;
  });
}

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
 * The table's reader on Windows (TABLE_READERS.win32): the query, parsed, its stale parent links dropped. A failed
 * query rejects, and the table keeps no failed read: the next reader asks again.
 */
export function readCimTable(run: () => Promise<string> = runCim): () => Promise<TableRow[]> {
  return async () => linkParents(parseCimProcesses(await run()));
}

// ---- the agent census without the agents' folders --------------------------------------------------------------

/** Interpreters an agent may run under: with its command line hidden, such a process may be an agent. */
const MAYBE_AGENT = new Set(['node', 'bun', 'deno', 'python', 'python3']);

/**
 * Whether a process that is no known agent may still be one: an interpreter whose command line Windows hid (an
 * elevated `node.exe` seen from a normal process).
 */
export function mayBeHiddenAgent(name: string, args: readonly string[]): boolean {
  return !args.length && MAYBE_AGENT.has(imageBase(name));
}

function imageBase(name: string): string {
  return path.win32
    .basename(name)
    .replace(/\.exe$/i, '')
    .toLowerCase();
}
