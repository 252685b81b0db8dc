import { hostPlatform } from '../common/platform';
import { SIGNATURES } from './signatures';
import type { AgentKind } from '../common/agents';

/** Longest command line we look at: shell integration can report very long lines; agents sit near the start. */
const MAX_COMMAND_LINE = 4096;

/** Programs that run another program named by a later argument. */
const WRAPPERS = new Set([
  'env',
  'sudo',
  'doas',
  'nohup',
  'time',
  'exec',
  'command',
  'nice',
  'ionice',
  'stdbuf',
  'caffeinate',
  'builtin',
  'xargs',
  'unbuffer',
  'script',
  'dotenv',
  'op',
  'with-env',
]);
/** Package runners: the next non-option argument is a package name (possibly versioned). */
const RUNNERS = new Set(['npx', 'bunx', 'pnpx', 'uvx', 'pipx', 'dlx']);
/** `<tool> <subcommand> <package>` runners. */
const SUB_RUNNERS: Record<string, readonly string[]> = {
  pnpm: ['dlx', 'exec', 'x'],
  yarn: ['dlx', 'exec'],
  npm: ['exec', 'x'],
  bun: ['x', 'run'],
  pipx: ['run'],
  uv: ['run', 'tool'],
  deno: ['run'],
};
/** Interpreters: the script path names the agent (`node …/@openai/codex/bin/codex.js`). */
const INTERPRETERS = new Set(['node', 'nodejs', 'bun', 'deno', 'python', 'python3', 'tsx', 'ts-node']);

export interface CommandMatch {
  agent: AgentKind;
  /** The token that matched, for evidence. */
  token: string;
  /** Set when the arguments start a headless run (`codex exec`, `claude -p`): the argument that says so. */
  headless?: string;
}

/**
 * Splits on whitespace with shell quotes; good enough to find program names, not a full shell parser. A backslash
 * escapes as in a POSIX shell — inside double quotes only before `"`, `\`, `$` and a backquote, so
 * `"C:\Program Files\nodejs\node.exe"` keeps its backslashes — and never on Windows, whose shells
 * (PowerShell, cmd) take it for a path separator.
 */
export function tokenize(line: string, platform: NodeJS.Platform = hostPlatform()): string[] {
  const escapes = platform !== 'win32';
  const out: string[] = [];
  let cur = '';
  let quote: '"' | "'" | undefined;
  let has = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (escapes && c === '\\' && quote === '"' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) cur += line[++i];
      else cur += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      has = true;
    } else if (escapes && c === '\\' && i + 1 < line.length && ` "'\\;&|()`.includes(line[i + 1])) {
      // A POSIX escape; other backslashes are Windows path separators and stay.
      cur += line[++i];
      has = true;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (has) out.push(cur);
      cur = '';
      has = false;
    } else if (c === ';' || c === '|' || c === '&' || c === '(' || c === ')') {
      if (has) out.push(cur);
      cur = '';
      has = false;
      out.push('\u0000'); // segment separator
    } else {
      cur += c;
      has = true;
    }
  }
  if (has) out.push(cur);
  return out;
}

function basename(p: string): string {
  // Trailing slashes cut by a loop: /\/+$/ retries from every slash of a long run that does not end the name.
  let s = p.replace(/\\/g, '/');
  let end = s.length;
  while (end > 0 && s[end - 1] === '/') end--;
  s = s.slice(0, end);
  const b = s.slice(s.lastIndexOf('/') + 1);
  return b.replace(/\.(exe|cmd|bat|ps1|js|mjs|cjs|sh)$/i, '').toLowerCase();
}

/** Strips a version or tag from a package spec: `@openai/codex@0.169.0` → `@openai/codex`. */
function packageName(spec: string): string {
  const at = spec.lastIndexOf('@');
  return at > 0 ? spec.slice(0, at) : spec;
}

function byCommand(name: string): AgentKind | undefined {
  return SIGNATURES.find((s) => s.commands.includes(name))?.agent;
}
function bySharedName(name: string, next: string | undefined): AgentKind | undefined {
  const sig = SIGNATURES.find((s) => s.sharedCommands?.includes(name));
  if (!sig) return undefined;
  const ownNext = next === undefined || next.startsWith('-') || (sig.headless?.subcommands?.includes(next) ?? false);
  return ownNext ? sig.agent : undefined;
}

function byLauncher(name: string, next: string | undefined): AgentKind | undefined {
  if (next === undefined) return undefined;
  return SIGNATURES.find((s) => s.launchers?.some((l) => l.command === name && l.subcommand === next))?.agent;
}

function byPackage(spec: string): AgentKind | undefined {
  const name = packageName(spec).toLowerCase();
  return SIGNATURES.find((s) => s.packages.includes(name) || s.commands.includes(name))?.agent;
}
/** A script path that lives inside an agent's package: `…/node_modules/@openai/codex/bin/codex.js`. */
function byPath(path: string): AgentKind | undefined {
  // npm writes package folders in lower case; Windows paths may come in any (C:\Users\X\AppData\Roaming\npm\Node_Modules).
  const p = path.replace(/\\/g, '/').toLowerCase();
  for (const s of SIGNATURES) {
    if (s.packages.some((pkg) => p.includes(`/${pkg}/`))) return s.agent;
  }
  return byCommand(basename(p));
}

/** The argument that makes this run headless, if any: a subcommand as the first argument, or a flag anywhere. */
function headlessArg(agent: AgentKind, args: readonly string[]): string | undefined {
  const h = SIGNATURES.find((s) => s.agent === agent)?.headless;
  if (!h) return undefined;
  if (args[0] !== undefined && h.subcommands?.includes(args[0])) return args[0];
  return args.find((a) => h.flags?.some((f) => a === f || (f.startsWith('--') && a.startsWith(`${f}=`))));
}

function matchSegment(tokens: string[]): CommandMatch | undefined {
  const m = matchProgram(tokens);
  if (!m) return undefined;
  const headless = headlessArg(m.agent, tokens.slice(m.at + 1));
  return { agent: m.agent, token: m.token, ...(headless ? { headless } : {}) };
}

/** A package runner at `tokens[i]` (`npx`, `pnpm dlx`, `bunx`): the package it runs, by name or by option. */
function matchRunner(tokens: string[], runnerAt: number, name: string): (CommandMatch & { at: number }) | undefined {
  const subs = SUB_RUNNERS[name];
  let i = runnerAt + 1;
  if (subs) {
    if (i < tokens.length && subs.includes(tokens[i])) i++;
    else if (!RUNNERS.has(name)) return undefined;
  }
  // `npx -y -p pkg cmd`, `npx --package=pkg cmd`: any package option names the agent too.
  while (i < tokens.length && tokens[i].startsWith('-')) {
    const opt = tokens[i];
    const eq = /^--package=(.+)$/.exec(opt);
    if (eq && byPackage(eq[1])) return { agent: byPackage(eq[1])!, token: opt, at: i };
    if ((opt === '-p' || opt === '--package') && i + 1 < tokens.length) {
      const pkg = byPackage(tokens[i + 1]);
      if (pkg) return { agent: pkg, token: tokens[i + 1], at: i + 1 };
      i += 2;
      continue;
    }
    i++;
    if (opt === '--') break;
  }
  const pkg = i < tokens.length ? byPackage(tokens[i]) : undefined;
  return pkg ? { agent: pkg, token: tokens[i], at: i } : undefined;
}

function matchProgram(tokens: string[]): (CommandMatch & { at: number }) | undefined {
  let i = 0;
  const skipAssignments = () => {
    while (i < tokens.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(tokens[i])) i++;
  };
  skipAssignments();
  for (let guard = 0; i < tokens.length && guard < 16; guard++) {
    const tok = tokens[i];
    const name = basename(tok);
    const direct = byCommand(name);
    if (direct) return { agent: direct, token: tok, at: i };
    const shared = bySharedName(name, tokens[i + 1]);
    if (shared) return { agent: shared, token: tok, at: i };
    const launched = byLauncher(name, tokens[i + 1]);
    if (launched) return { agent: launched, token: `${tok} ${tokens[i + 1]}`, at: i + 1 };
    if (WRAPPERS.has(name)) {
      i++;
      // Options of the wrapper (`sudo -u x`, `nice -n 5`, `env -i`): skip flags and their obvious values.
      while (i < tokens.length && tokens[i].startsWith('-')) i += /^-(?:u|n|g|c|C|p)$/.test(tokens[i]) ? 2 : 1;
      skipAssignments();
      continue;
    }
    if (RUNNERS.has(name) || SUB_RUNNERS[name]) return matchRunner(tokens, i, name);
    if (INTERPRETERS.has(name)) {
      i++;
      while (i < tokens.length && tokens[i].startsWith('-')) i++;
      if (i < tokens.length) {
        const a = byPath(tokens[i]);
        if (a) return { agent: a, token: tokens[i], at: i };
      }
      return undefined;
    }
    return undefined;
  }
  return undefined;
}

/**
 * Which agent a shell command line starts, if any. Looks at every segment of `a && b; c | d`, through
 * environment assignments, wrappers (`env`, `sudo`, `time`, `nohup`), package runners
 * (`npx @openai/codex`, `pnpm dlx`, `bunx`) and interpreters (`node …/claude-code/cli.js`).
 */
export function agentFromCommandLine(line: string | undefined): CommandMatch | undefined {
  if (!line) return undefined;
  const tokens = tokenize(line.length > MAX_COMMAND_LINE ? line.slice(0, MAX_COMMAND_LINE) : line);
  let seg: string[] = [];
  for (const t of [...tokens, '\u0000']) {
    if (t === '\u0000') {
      if (seg.length) {
        const m = matchSegment(seg);
        if (m) return m;
      }
      seg = [];
    } else seg.push(t);
  }
  return undefined;
}

/** Arguments of a process looked at: the program, its wrapper's or interpreter's options, and a headless flag come early. */
const MAX_PROCESS_ARGS = 256;

/**
 * Which agent a process is, from its executable name and arguments (process-tree scans). The name is matched
 * without its folder, case or Windows suffix (`C:\Users\x\.local\bin\claude.EXE` is claude); the arguments
 * are an argv already split (by the kernel, or by the C runtime's rules on Windows: windowsArgv.ts), so they
 * are matched as they are, never joined and split again as a shell line (a Windows path's backslashes are no
 * escapes, and an argument's `&` or `;` is no command separator).
 */
export function agentFromProcess(name: string, args: readonly string[] = []): CommandMatch | undefined {
  const base = basename(name);
  const sig = SIGNATURES.find((s) => s.processNames.includes(base) || s.commands.includes(base));
  if (sig) return { agent: sig.agent, token: name };
  return matchSegment([name, ...args.slice(0, MAX_PROCESS_ARGS)]);
}

/** Exit codes a POSIX shell gives a command it could not start, as the evidence says it: no agent ever ran. */
export const SHELL_FAILURES: Readonly<Record<number, string>> = { 126: 'command not executable', 127: 'command not found' };
