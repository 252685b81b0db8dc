import { CONTROL, cmdQuote, PS_QUOTE_CHARS, psQuote } from '../common/windowsQuote';

/**
 * Hook lines for the Windows shells (./hookShells.ts): Node started directly on the reporter script, no sh wrapper.
 * Each line is one of two frames around `<node> <script> <agent>`, built here and read back here, so the installers
 * know exactly what Agent Lens wrote (./install/ownEntries.ts). Only single-quoted PowerShell strings and
 * double-quoted cmd.exe words appear: no `"` ever reaches PowerShell, whose argument passing (Rust's and libuv's
 * `\"`) and Windows PowerShell 5.1's re-parsing would otherwise change it.
 *
 * The gate (gated rows: events that only ever close a wait) is "the `waiting` folder beside the discovery file has
 * an entry". POSIX lines name the agent process in the marker (`waiting/$PPID`); the Windows shells cannot: cmd.exe
 * has no parent pid, PowerShell 5.1 none without a CIM query that costs more than Node itself. The folder check is
 * sound because it errs only one way: a marker exists from the report that opens a wait until the one that closes
 * it (./reporter/reportParts.ts names it by session there), so while any wait of this window is open every gated
 * hook reports, and a report that finds no wait of its own session closes nothing. What it costs is speed: while
 * one agent waits, the gated hooks of the others start Node too.
 */

// The quoting lives in src/common (briefs quote the CLI with it too); named here as well, where the lines are built.
export { cmdQuote, psQuote };

export interface NodeLaunch {
  /** Node, or Electron run as Node (`electron`), by absolute path (or `node`, found on PATH). */
  node: string;
  electron: boolean;
  /** The reporter script: `<home>\bin\report.cjs` or `permission.cjs`. */
  script: string;
}

export type WindowsShell = 'powershell' | 'cmd';

/** A Windows path holds no `"` and no control character; a word that does is not one. */
function checked(s: string): string {
  if (!s || CONTROL.test(s) || s.includes('"'))
    throw new Error(`cannot write ${JSON.stringify(s)} into a hook line: it is empty or holds " or a control character`);
  return s;
}

const PS_ELECTRON = "$env:ELECTRON_RUN_AS_NODE='1'; ";
const PS_DRAIN = '$null = [Console]::In.ReadToEnd()';
const CMD_ELECTRON = 'set "ELECTRON_RUN_AS_NODE=1" & ';
const CMD_DRAIN = 'more >nul 2>nul';

/**
 * The frames, plain and gated: `[head, tail]` around the run. The plain one runs the reporter only under VS Code
 * (AGENT_LENS_HUB set), so outside it no Node starts and a stale Node path stays silent; both drain stdin when they
 * do not run it (the agent must never meet a closed pipe) and exit 0. When a frame changes, keep the old one here.
 */
export const WINDOWS_FRAMES: Readonly<Record<WindowsShell, readonly (readonly [head: string, tail: string, gated: boolean])[]>> = {
  powershell: [
    ['if ($env:AGENT_LENS_HUB) { ', ` } else { ${PS_DRAIN} }; exit 0`, false],
    [
      "$h = $env:AGENT_LENS_HUB; $w = if ($h) { [IO.Path]::Combine([IO.Path]::GetDirectoryName($h), 'waiting') }; " +
        'if ($w -and [IO.Directory]::Exists($w) -and ([IO.Directory]::EnumerateFileSystemEntries($w) | Select-Object -First 1)) { ',
      ` } else { ${PS_DRAIN} }; exit 0`,
      true,
    ],
  ],
  cmd: [
    ['(if defined AGENT_LENS_HUB (', `) else (${CMD_DRAIN})) & exit 0`, false],
    ['(if exist "%AGENT_LENS_HUB%\\..\\waiting\\*" (', `) else (${CMD_DRAIN})) & exit 0`, true],
  ],
};

/** The run inside a frame: `& '<node>' '<script>' <agent>` (PowerShell) or `"<node>" "<script>" <agent>` (cmd). */
function run(shell: WindowsShell, l: NodeLaunch, agent: string): string {
  if (shell === 'powershell') return `${l.electron ? PS_ELECTRON : ''}& ${psQuote(checked(l.node))} ${psQuote(checked(l.script))} ${agent}`;
  return `${l.electron ? CMD_ELECTRON : ''}${cmdQuote(checked(l.node))} ${cmdQuote(checked(l.script))} ${agent}`;
}

export function windowsHookLine(shell: WindowsShell, launch: NodeLaunch, agent: string, gated: boolean): string {
  const frame = WINDOWS_FRAMES[shell].find((f) => f[2] === gated)!;
  return `${frame[0]}${run(shell, launch, agent)}${frame[1]}`;
}

/** One quoted word at the start of `s`, as psQuote or cmdQuote spell it: its value and the rest of `s`. */
function readWord(shell: WindowsShell, s: string): { value: string; rest: string } | undefined {
  const open = shell === 'powershell' ? "'" : '"';
  if (!s.startsWith(open)) return undefined;
  let value = '';
  for (let i = 1; i < s.length; i++) {
    const c = s[i];
    const closes = shell === 'powershell' ? PS_QUOTE_CHARS.includes(c) : c === '"';
    if (!closes) {
      value += c;
      continue;
    }
    // PowerShell: a quote character followed by itself is one of it (psQuote doubles each with itself).
    if (shell === 'powershell' && s[i + 1] === c) {
      value += c;
      i++;
      continue;
    }
    return { value, rest: s.slice(i + 1) };
  }
  return undefined;
}

export interface ParsedWindowsLine {
  shell: WindowsShell;
  launch: NodeLaunch;
  agent: string;
  gated: boolean;
}

/** The parts of a Windows line windowsHookLine writes, to the byte; undefined for anything else. */
export function parseWindowsHookLine(line: string): ParsedWindowsLine | undefined {
  for (const shell of ['powershell', 'cmd'] as const) {
    for (const [head, tail, gated] of WINDOWS_FRAMES[shell]) {
      if (line.length < head.length + tail.length || !line.startsWith(head) || !line.endsWith(tail)) continue;
      const parsed = parseRun(shell, line.slice(head.length, line.length - tail.length));
      if (parsed) return { shell, ...parsed, gated };
    }
  }
  return undefined;
}

function parseRun(shell: WindowsShell, body: string): Omit<ParsedWindowsLine, 'shell' | 'gated'> | undefined {
  const prefix = shell === 'powershell' ? PS_ELECTRON : CMD_ELECTRON;
  const electron = body.startsWith(prefix);
  let rest = electron ? body.slice(prefix.length) : body;
  if (shell === 'powershell') {
    if (!rest.startsWith('& ')) return undefined;
    rest = rest.slice(2);
  }
  const node = readWord(shell, rest);
  if (!node || !node.rest.startsWith(' ')) return undefined;
  const script = readWord(shell, node.rest.slice(1));
  if (!script || !script.rest.startsWith(' ')) return undefined;
  const agent = script.rest.slice(1);
  if (!/^[a-z][a-z-]{0,31}$/.test(agent)) return undefined;
  const launch = { node: node.value, electron, script: script.value };
  // Only the spelling windowsHookLine writes: anything else, however close, is someone else's.
  try {
    return run(shell, launch, agent) === body ? { launch, agent } : undefined;
  } catch {
    return undefined;
  }
}
