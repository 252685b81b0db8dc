import type { ProcInfo, TtyJob } from './procTypes';
import { isShellName } from './shells';

/**
 * macOS's process tools read as text: the one `ps` table per scan, `lsof`'s working folders, `ps`'s start times
 * and `stty`'s size. Pure parsers only; the spawning is in table.ts, agentCwd.ts, startTicks.ts and
 * processTree.ts. Layouts are Apple's (adv_cmds ps/keyword.c and print.c, lsof misc.c, stty key.c); the
 * outputs they are tested on and where each comes from: test/fixtures/platform/darwin/SOURCES.md.
 */

/**
 * Every process, one line each (ps vis-encodes tabs and newlines inside arguments), as Apple's ps lays it out:
 * numbers right-aligned; `tty` left-aligned in 8 ("ttys000", "??" for none); `ucomm` — the kernel's name for the
 * executable (p_comm: at most MAXCOMLEN = 16 characters, spaces allowed) — left-aligned in exactly 16; `args`
 * last, so whole under -ww. Not `comm`: on macOS that is argv[0], cut to 16 characters wherever it is not the
 * last column ("/System/Applicat").
 */
export const PS_TABLE_ARGS: readonly string[] = ['-axww', '-o', 'pid=,ppid=,pgid=,tpgid=,tty=,ucomm=,args='];
/** The ucomm column's width on macOS (MAXCOMLEN). procps on Linux prints it in 15. */
export const UCOMM_WIDTH = 16;
const TTY_WIDTH = 8;
/** Bounds: rows kept from one table, arguments kept per process, and how far into args argv[0] is looked for. */
const MAX_ROWS = 65_536;
const MAX_ARGS = 256;
const ARGV0_SPAN = 4096;

/** A row of the table: the process, the executable the kernel names, and its job-control fields. */
export interface PsRow extends ProcInfo {
  /** ucomm: the executable's file name after symlinks (a native Claude Code is `2.1.x` here), at most 16 characters. */
  exe: string;
  job: TtyJob;
}

// Fields are separated by runs of spaces, so the split is unique: no two adjacent quantifiers match the same character.
const LEAD = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(-?\d+)\s+(\S+)/;

/** `ps -axww -o pid=,ppid=,pgid=,tpgid=,tty=,ucomm=,args=` (PS_TABLE_ARGS); a line that is not a row is skipped. */
export function parsePs(text: string, ucommWidth = UCOMM_WIDTH): PsRow[] {
  const out: PsRow[] = [];
  for (const line of text.split('\n')) {
    if (out.length >= MAX_ROWS) break;
    const row = psRow(line, ucommWidth);
    if (row) out.push(row);
  }
  return out;
}

function psRow(line: string, width: number): PsRow | undefined {
  const m = LEAD.exec(line);
  if (!m) return undefined;
  const tty = m[5];
  const { exe, argsText } = exeAndArgs(line, m[0].length, tty, width);
  const argv = splitArgs(argsText, exe, width);
  const pid = Number(m[1]);
  return {
    pid,
    ppid: Number(m[2]),
    // The executable decides for shells (`exec -a claude bash` is still a shell); argv[0] for the rest, as Linux's
    // comm does: it is the name the program was started by, and what a program's own process.title rewrites.
    name: isShellName(exe) ? exe : baseName(argv[0] ?? '') || exe,
    args: argv,
    exe,
    job: { pid, pgid: Number(m[3]), tpgid: Number(m[4]), tty: tty === '??' || tty === '?' ? '' : tty },
  };
}

/** The ucomm column, read by its fixed width; a line laid out otherwise is split at its first space instead. */
function exeAndArgs(line: string, ttyEnd: number, tty: string, width: number): { exe: string; argsText: string } {
  const at = ttyEnd - tty.length + Math.max(TTY_WIDTH, tty.length) + 1;
  if (line[at - 1] === ' ' && (line.length <= at + width || line[at + width] === ' ')) {
    return { exe: line.slice(at, at + width).trim(), argsText: line.slice(at + width + 1).trim() };
  }
  const rest = line.slice(ttyEnd).trim();
  const sp = rest.indexOf(' ');
  return sp < 0 ? { exe: rest, argsText: '' } : { exe: rest.slice(0, sp), argsText: rest.slice(sp + 1).trim() };
}

/**
 * args is argv joined by spaces. argv[0] may itself hold spaces (an app bundle's helper); it runs to the path
 * component named like the executable. Arguments after it cannot be told apart from spaces inside them.
 * ps prints "(name)" for a process whose arguments it may not read (another user's), "<defunct>" for a zombie.
 */
function splitArgs(argsText: string, exe: string, width: number): string[] {
  if (!argsText || argsText === '<defunct>' || argsText === `(${exe})`) return exe ? [exe] : [];
  const argv0 = argv0Of(argsText, exe, width);
  const rest = argsText.slice(argv0.length).trim();
  return rest ? [argv0, ...rest.split(/\s+/, MAX_ARGS - 1)] : [argv0];
}

function argv0Of(argsText: string, exe: string, width: number): string {
  const sp = argsText.indexOf(' ');
  const first = sp < 0 ? argsText : argsText.slice(0, sp);
  if (sp < 0 || !exe || !first.startsWith('/') || baseName(first) === exe) return first;
  const head = argsText.slice(0, ARGV0_SPAN);
  const needle = `/${exe}`;
  for (let i = head.indexOf(needle); i >= 0; i = head.indexOf(needle, i + 1)) {
    let end = i + needle.length;
    // The kernel cuts the name at MAXCOMLEN: the component may go on past it, up to the next space.
    if (exe.length >= width) {
      const next = head.indexOf(' ', end);
      const tail = head.slice(end, next < 0 ? head.length : next);
      if (tail.includes('/')) continue;
      end += tail.length;
    }
    if (end === argsText.length || argsText[end] === ' ') return argsText.slice(0, end);
  }
  return first;
}

function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
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

// ---- working folders: lsof ---------------------------------------------------------------------------------------

/**
 * The working folder of each of `pids`, in one call: -a ANDs the selections (without it lsof lists every
 * process's cwd too), -Ffn asks for the descriptor field by name (lsof 4.99 prints no `f` line for a bare -Fn;
 * the macOS lsof does).
 */
export function lsofCwdArgs(pids: readonly number[]): string[] {
  return ['-a', '-d', 'cwd', '-Ffn', '-p', pids.join(',')];
}

/** Folders kept from one answer, and the longest name read (PATH_MAX is 1024 on macOS; escapes take 4 a byte). */
const MAX_CWDS = 4096;
const MAX_NAME = 16 * 1024;

/** lsof -F output: `p<pid>` opens a process, `f<fd>` a file, `n<name>` names it. The first cwd of each process counts. */
export function parseLsofCwds(text: string): Map<number, string> {
  const out = new Map<number, string>();
  let pid: number | undefined;
  let fd: string | undefined;
  for (const line of text.split('\n')) {
    if (out.size >= MAX_CWDS) break;
    const value = line.slice(1);
    if (line[0] === 'p') {
      pid = /^\d{1,10}$/.test(value) ? Number(value) : undefined;
      fd = undefined;
    } else if (line[0] === 'f') fd = value;
    else if (line[0] === 'n' && pid !== undefined && (fd === undefined || fd === 'cwd') && !out.has(pid) && value.length <= MAX_NAME) {
      const name = unescapeLsof(value);
      if (name.startsWith('/')) out.set(pid, name);
    }
  }
  return out;
}

const C_ESCAPES: Record<string, number> = { b: 0x08, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, '\\': 0x5c };

/**
 * A name as lsof printed it, back to its bytes (lsof misc.c safepup): `\\` for a backslash, `\b \f \n \r \t`,
 * `\xNN` for any other byte it cannot print — under LC_ALL=C, every byte of a UTF-8 name that is not ASCII.
 * The `^X` form of other control bytes is left as it is: lsof does not escape a printable `^`, so `^B` in its
 * output is as likely two characters of a real name; a folder read wrong only means no link.
 */
export function unescapeLsof(s: string): string {
  const src = Buffer.from(s, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === 0x5c && i + 1 < src.length) {
      const next = String.fromCharCode(src[i + 1]);
      const hex = next === 'x' ? src.subarray(i + 2, i + 4).toString('latin1') : '';
      if (C_ESCAPES[next] !== undefined) {
        out.push(C_ESCAPES[next]);
        i++;
        continue;
      }
      if (/^[0-9a-fA-F]{2}$/.test(hex)) {
        out.push(parseInt(hex, 16));
        i += 3;
        continue;
      }
    }
    out.push(c);
  }
  return Buffer.from(out).toString('utf8');
}

// ---- start times: ps -o lstart ------------------------------------------------------------------------------------

/**
 * When each process started, to the second: `ps -o pid=,lstart= -p A,B` prints strftime's "%c", which in the C
 * locale is "Sat Dec  6 10:17:58 2026". Run under TZ=UTC0 so that a clock change between two starts (the hour
 * that repeats in autumn) cannot reorder them.
 */
export const LSTART_COLUMNS = 'pid=,lstart=';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LSTART = /^\s*(\d+)\s+[A-Z][a-z]{2} ([A-Z][a-z]{2}) {1,2}(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})\s*$/;

/** pid → start, in seconds since the epoch read as UTC. */
export function parseLstart(text: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const line of text.split('\n')) {
    const m = LSTART.exec(line);
    const month = m ? MONTHS.indexOf(m[2]) : -1;
    if (!m || month < 0) continue;
    const [day, h, min, s, y] = [m[3], m[4], m[5], m[6], m[7]].map(Number);
    out.set(Number(m[1]), Date.UTC(y, month, day, h, min, s) / 1000);
  }
  return out;
}

// ---- a terminal's size: stty --------------------------------------------------------------------------------------

/** `stty -f /dev/ttysNNN size` (macOS; `-F` on Linux): rows, then columns (stty(1): "first rows, then columns"). */
export function parseSttySize(text: string): { cols: number; rows: number } | undefined {
  const m = /^(\d{1,5}) +(\d{1,5})$/.exec(text.trim());
  if (!m) return undefined;
  const rows = Number(m[1]);
  const cols = Number(m[2]);
  return rows > 0 && cols > 0 ? { cols, rows } : undefined;
}
