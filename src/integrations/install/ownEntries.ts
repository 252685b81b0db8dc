import * as path from 'path';
import { shellWord } from '../../common/shellQuote';
import { OUR_HOOK_NAME } from '../../agents/hookRow';
import { OUR_PROGRAM_NAMES, OUR_SCRIPT_NAMES } from '../commands';
import { REPORTING_AGENTS } from '../../agents/hookEvents';
import type { HookShell } from '../hookShells';
import { parseWindowsHookLine } from '../windowsHookLines';

/**
 * Which hook handlers in an agent's settings file are Agent Lens's. Install replaces them and uninstall removes
 * them, so a false match deletes a user's hook: a handler is ours only when its command is, to the byte, a
 * command Agent Lens writes (hookCommand in ../commands.ts), not when it merely mentions the reporter.
 *
 * The command is one of two frames around `<reporter> <agent>`, anchored at both ends. `<reporter>` must be
 * written exactly as shellWord writes it (bare, or single-quoted with `'\''` for a quote), and must name
 * `agent-lens-report` (or `agent-lens-permission`, the answering hook) in the `bin` folder of an Agent Lens home. `<agent>` must be a reporting agent.
 * On Windows the frames are PowerShell's and cmd.exe's around `<node> <script> <agent>` (../windowsHookLines.ts
 * builds and reads them, to the byte), and `<script>` must name `report.cjs` or `permission.cjs` in such a `bin`
 * folder, a Windows path. A handler that parses either way is ours when its home is one of these:
 * - a home this install knows: the current `AGENT_LENS_HOME` (or `~/.agent-lens`);
 * - a folder named `.agent-lens`, the default home of any account. Settings files travel in dotfiles
 *   repositories between machines and user names;
 * - any home at all, if the handler also carries Agent Lens's hook name (Gemini CLI's `name`, written with
 *   every Gemini hook since the first version).
 * Commands Agent Lens wrote into this very file are also ours, whatever their shape (the install record keeps
 * them), and so are the ones being installed.
 *
 * Claude Code and Codex get no such marker: Claude Code validates its settings and skips a whole file over one
 * field it does not know, and Codex asks the user to trust every hook again when a hook changes.
 */

/**
 * The frames every version of hookCommand has written, plain and gated. When hookCommand changes, add its new
 * frame here and keep the old one, so an update still finds and replaces what the old version wrote.
 */
const FRAMES: readonly (readonly [head: string, tail: string])[] = [
  ['exec ', ''],
  ['if [ -e "${AGENT_LENS_HUB%/*}/waiting/$PPID" ]; then exec ', '; else cat >/dev/null; fi; exit 0'],
];

const DEFAULT_HOME_NAME = '.agent-lens';

export interface ParsedCommand {
  /** The sh wrapper (POSIX lines) or the script Node runs (Windows lines). */
  reporter: string;
  /** The Agent Lens home the reporter sits in (`<home>/bin/agent-lens-report`). */
  home: string;
  agent: string;
  gated: boolean;
  shell: HookShell;
  /** Windows lines: the Node they start. */
  node?: string;
}

/** What one install counts as its own, besides commands of the default home's shape. */
export interface OwnEntries {
  homes: ReadonlySet<string>;
  commands: ReadonlySet<string>;
}

export function ownEntries(homes: Iterable<string> = [], commands: Iterable<string> = []): OwnEntries {
  return { homes: new Set([...homes].filter(Boolean).map((h) => path.resolve(h))), commands: new Set(commands) };
}

/** `own` plus the exact `commands` (the entries an install writes are its own, whatever their reporter). */
export function withCommands(own: OwnEntries, commands: Iterable<string>): OwnEntries {
  return { homes: own.homes, commands: new Set([...own.commands, ...commands]) };
}

/**
 * `<home>` of `<home>/bin/<name>` for one of `names`, for an absolute path with no `.`, `..` or doubled separator.
 * POSIX lines name the wrappers (a Windows path too: shellWord quotes one), Windows lines the scripts.
 */
function reporterHome(
  reporter: string,
  names: readonly string[],
  p: path.PlatformPath = reporter.includes('\\') ? path.win32 : path.posix,
): string | undefined {
  if (!p.isAbsolute(reporter) || p.normalize(reporter) !== reporter) return undefined;
  const bin = p.dirname(reporter);
  if (!names.includes(p.basename(reporter)) || p.basename(bin) !== 'bin') return undefined;
  return p.dirname(bin);
}

/** The shell word back to the string it quotes; only shellWord's own spelling of that string is accepted. */
function unquote(word: string): string | undefined {
  const s = word.length >= 2 && word.startsWith("'") && word.endsWith("'") ? word.slice(1, -1).split(`'\\''`).join("'") : word;
  return s !== '' && shellWord(s) === word ? s : undefined;
}

/** The parts of a command Agent Lens writes; undefined for anything else, however much it resembles one. */
export function parseOurCommand(command: string): ParsedCommand | undefined {
  for (const [i, [head, tail]] of FRAMES.entries()) {
    if (command.length < head.length + tail.length || !command.startsWith(head) || !command.endsWith(tail)) continue;
    const middle = command.slice(head.length, command.length - tail.length);
    const cut = middle.lastIndexOf(' ');
    const agent = middle.slice(cut + 1);
    if (cut < 0 || !isReportingAgent(agent)) continue;
    const reporter = unquote(middle.slice(0, cut));
    const home = reporter === undefined ? undefined : reporterHome(reporter, OUR_PROGRAM_NAMES);
    if (reporter !== undefined && home !== undefined) return { reporter, home, agent, gated: i === 1, shell: 'posix' };
  }
  return parseWindowsCommand(command);
}

const isReportingAgent = (a: string): boolean => (REPORTING_AGENTS as readonly string[]).includes(a);

function parseWindowsCommand(command: string): ParsedCommand | undefined {
  const w = parseWindowsHookLine(command);
  if (!w || !isReportingAgent(w.agent)) return undefined;
  const home = reporterHome(w.launch.script, OUR_SCRIPT_NAMES, path.win32);
  if (home === undefined) return undefined;
  return { reporter: w.launch.script, home, agent: w.agent, gated: w.gated, shell: w.shell, node: w.launch.node };
}

/** Whether a handler (a parsed JSON value from the `hooks` list of a group) is Agent Lens's. */
export function isOurHandler(handler: unknown, own: OwnEntries): boolean {
  if (!handler || typeof handler !== 'object' || Array.isArray(handler)) return false;
  const { type, command, name } = handler as Record<string, unknown>;
  if (type !== 'command' || typeof command !== 'string') return false;
  if (own.commands.has(command)) return true;
  const parsed = parseOurCommand(command);
  if (!parsed) return false;
  const p = parsed.home.includes('\\') ? path.win32 : path.posix;
  return own.homes.has(parsed.home) || p.basename(parsed.home) === DEFAULT_HOME_NAME || name === OUR_HOOK_NAME;
}
