import * as l10n from '@vscode/l10n';
import { platformPath } from '../common/paths';
import {
  findAgents,
  type Foreground,
  foregroundOf,
  isInteractiveShell,
  isShellName,
  type ProcInfo,
  runsAgentCommand,
} from '../sources/process/processTree';
import { quoted } from '../common/printable';
import type { TeamAgent } from './team/schema';
import { type AgentId, isAgent } from '../common/agents';
import type { AgentState } from '../common/states';

/** How far below a terminal's shell the agent process may sit: wrappers and package runners put up to four parents between them. */
export const MAX_DEPTH = 4;

/**
 * Whether a process is the registry's `process`: its name, or the program or script it runs (`node …/claude`,
 * `bash agent.sh`), or — when `process` is an agent's command — that agent run by its interpreter under another
 * script name (npm's Windows shims run `node.exe …\@anthropic-ai\claude-code\cli.js`). Names are read with the
 * process table's platform's separators (a Windows table holds `C:\…\claude.exe`).
 */
export function isProcess(p: ProcInfo, name: string): boolean {
  const want = name.toLowerCase().replace(/\.exe$/, '');
  const base = (s: string | undefined) =>
    s
      ? platformPath()
          .basename(s)
          .toLowerCase()
          .replace(/\.(exe|cmd|js|mjs|cjs|sh|py)$/, '')
      : '';
  if (base(p.name) === want || base(p.args[0]) === want || (p.args.length > 1 && !p.args[1].startsWith('-') && base(p.args[1]) === want))
    return true;
  return runsAgentCommand(p, want);
}

/**
 * Every process named `name` at most MAX_DEPTH levels below `root` (nearest first); `root` itself counts when
 * it is in the list (a tmux pane whose program is the agent). A shell that merely calls itself `name`
 * (`exec -a claude bash`) is left out: it is still a shell reading what is typed.
 */
export function findProcesses(procs: readonly ProcInfo[], root: number, name: string): ProcInfo[] {
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const depth = (p: ProcInfo): number => {
    if (p.pid === root) return 0;
    let d = 1;
    for (let cur = p; cur.ppid !== root; d++) {
      const up = byPid.get(cur.ppid);
      if (!up || d > MAX_DEPTH) return Infinity;
      cur = up;
    }
    return d;
  };
  return procs
    .filter((p) => isProcess(p, name) && !isInteractiveShell(p))
    .map((p) => ({ p, d: depth(p) }))
    .filter((x) => x.d <= MAX_DEPTH)
    .sort((a, b) => a.d - b.d)
    .map((x) => x.p);
}

/** The first process named `name` at most MAX_DEPTH levels below `root` (nearest first), among `root`'s descendants. */
export function findProcess(procs: readonly ProcInfo[], root: number, name: string): ProcInfo | undefined {
  return findProcesses(procs, root, name)[0];
}

/** A terminal name matches a `window_hint` when it contains it, ignoring case (titles get suffixes like "claude | task"). */
export function matchesHint(title: string, hint: string | undefined): boolean {
  return !!hint && title.toLowerCase().includes(hint.toLowerCase());
}

// ---- which terminal may be typed into ------------------------------------------------------------------------

/** The agent process found in a terminal, and whether it holds the terminal's foreground. */
export interface SeenProcess {
  pid: number;
  fg: Foreground;
}

/** What was read about one terminal or pane, right now. */
export interface TtyFacts {
  /** The registry's `process` (or, without one, a known agent CLI) below the terminal's root: one in the foreground if any. */
  agent?: SeenProcess;
  /** The leader of the terminal's foreground process group, when it could be read (not on Windows). */
  holder?: ProcInfo;
}

export interface TerminalFacts extends TtyFacts {
  open: boolean;
  /** What Agent Lens shows in the terminal: its agent (none: the plain shell) and state. */
  seen?: { agent: AgentId; state: AgentState };
}

export interface PaneFacts extends TtyFacts {
  /** tmux's `#{pane_current_command}`: the foreground program as tmux reads it from the pane's tty. */
  command: string;
}

export type Verdict = { ok: true; pid?: number } | { ok: false; why: string };

const no = (why: string): Verdict => ({ ok: false, why });
const live = (seen: TerminalFacts['seen']): boolean => !!seen && isAgent(seen) && seen.state !== 'exited';

/**
 * Among a registry entry's candidates: the first of `found` in the foreground of the terminal `root` runs on,
 * else the nearest (so the refusal can say it runs in the background), else undefined.
 */
export async function seenAmong(
  root: number,
  found: readonly ProcInfo[],
  fgOf: (root: number, pid: number) => Promise<Foreground> = foregroundOf,
): Promise<SeenProcess | undefined> {
  let first: SeenProcess | undefined;
  for (const p of found.slice(0, 8)) {
    const s = { pid: p.pid, fg: await fgOf(root, p.pid) };
    if (s.fg === 'foreground') return s;
    first ??= s;
  }
  return first;
}

/** The agent a terminal may hold for this registry entry: its `process`, else any agent CLI Agent Lens knows. */
export function candidates(agent: TeamAgent, procs: readonly ProcInfo[], root: number): ProcInfo[] {
  if (agent.process) return findProcesses(procs, root, agent.process);
  const known = new Set(findAgents(procs).map((a) => a.pid));
  return procs.filter((p) => known.has(p.pid) && !isInteractiveShell(p));
}

/**
 * The terminal's foreground led by a shell reading its own input: the agent may share its group (a shell
 * without job control), but the shell reads what is typed, and runs it.
 */
function shellHolds(f: TtyFacts): Verdict | undefined {
  if (f.holder && isInteractiveShell(f.holder))
    return no(l10n.t('its shell ({0}) holds the terminal, at its prompt or without job control', quoted(f.holder.name)));
  return undefined;
}

function processVerdict(agent: TeamAgent, s: SeenProcess | undefined, whatIfUnknown: () => Verdict): Verdict {
  const name = agent.process ?? l10n.t('a known agent CLI');
  if (!s)
    return no(
      agent.process
        ? l10n.t('no process {0} runs in it', quoted(agent.process))
        : l10n.t('no known agent CLI (claude, codex, opencode, gemini, pi, …) runs in it'),
    );
  if (s.fg === 'foreground') return { ok: true, pid: s.pid };
  if (s.fg === 'gone') return no(l10n.t('{0} (pid {1}) has exited', name, s.pid));
  if (s.fg === 'background')
    return no(l10n.t('{0} (pid {1}) runs there, but not in the foreground: another program or the shell gets what is typed', name, s.pid));
  return whatIfUnknown();
}

/**
 * Whether a VS Code terminal may receive a dispatch for `agent` now. With `process`: that process runs below
 * the terminal's shell in the foreground process group of its tty. Where the foreground cannot be read
 * (Windows), the process must run below the shell and Agent Lens must show a running agent (not a shell, not
 * exited) in that terminal. Without `process`: Agent Lens shows a running agent there and, where readable, the
 * shell does not hold the terminal. A name alone never qualifies a terminal.
 */
export function terminalVerdict(agent: TeamAgent, f: TerminalFacts): Verdict {
  if (!f.open) return no(l10n.t('it was closed'));
  const seenLive = (): Verdict =>
    live(f.seen)
      ? { ok: true, pid: f.agent?.pid }
      : no(l10n.t('Agent Lens cannot read which program holds this terminal here, and shows no running agent in it'));
  let v: Verdict;
  if (agent.process) v = processVerdict(agent, f.agent, seenLive);
  else if (!f.seen || !isAgent(f.seen)) v = no(l10n.t('Agent Lens shows no agent running in it'));
  else if (f.seen.state === 'exited') v = no(l10n.t('its agent ({0}) has exited', f.seen.agent));
  else v = { ok: true, pid: f.agent?.pid };
  return v.ok ? (shellHolds(f) ?? v) : v;
}

/**
 * Whether a tmux pane may receive a dispatch for `agent` now: the registry's `process` — without one, a known
 * agent CLI — must be in the foreground process group of the pane's tty, and neither /proc (or ps) nor tmux
 * may show a shell reading the pane's input (a shell running a script or a command string is that program). A
 * pane title or window name never qualifies a pane.
 */
export function paneVerdict(agent: TeamAgent, f: PaneFacts): Verdict {
  const v = processVerdict(agent, f.agent, () => no(l10n.t('which program holds the pane could not be read')));
  if (!v.ok) return v;
  const shell = shellHolds(f);
  if (shell) return shell;
  // tmux reads the foreground from its side of the pty: when it names a shell, the leader read here must be that
  // shell running a script or command string (shellHolds refused one reading its input); anything else disagrees.
  if (isShellName(f.command) && !(f.holder && isShellName(f.holder.name)))
    return no(l10n.t('tmux shows the shell {0} in its foreground', quoted(f.command)));
  return v;
}

/** Why a qualifying target was passed over: without `process`, only the hint or the tmux pane ties it to this agent. */
export function notChosen(agent: TeamAgent): string {
  return agent.window_hint
    ? l10n.t('an agent runs there, but its name does not contain window_hint {0}', quoted(agent.window_hint))
    : l10n.t('an agent runs there, but team.toml gives no process or window_hint that says it is {0}', agent.key);
}

/** A target that qualified, with the names `window_hint` may match and its tmux pane id. */
export interface Qualified<T> {
  item: T;
  names: string[];
  paneId?: string;
}

/**
 * Narrows a choice among qualifying targets: the pane `tmux` names, else one whose name contains
 * `window_hint`, else — only when `process` identifies the agent — the first. Without `process` a running agent
 * could be anyone's, so it is taken only when the hint or the pane names it.
 */
export function narrow<T>(ok: readonly Qualified<T>[], agent: TeamAgent, paneId?: string): T | undefined {
  const byPane = paneId ? ok.find((q) => q.paneId === paneId) : undefined;
  if (byPane) return byPane.item;
  const byHint = agent.window_hint ? ok.find((q) => q.names.some((n) => matchesHint(n, agent.window_hint))) : undefined;
  if (byHint) return byHint.item;
  return agent.process ? ok[0]?.item : undefined;
}

/** One place looked at and why it was not typed into, for the refusal. */
export interface Looked {
  name: string;
  why: string;
}

/**
 * The no_terminal reason: what was looked for, where, why none qualified, and how to fix it. Places whose
 * name matches the hint come first (those are the ones a user expects), at most four.
 */
export function refusal(agent: TeamAgent, where: 'terminal' | 'tmux', looked: readonly Looked[]): string {
  const hinted = (l: Looked) => matchesHint(l.name, agent.window_hint);
  const shown = [...looked.filter(hinted), ...looked.filter((l) => !hinted(l))].slice(0, 4).map((l) => `${quoted(l.name)}: ${l.why}`);
  const more = looked.length > shown.length ? l10n.t(' (and {0} more)', looked.length - shown.length) : '';
  const what = agent.process ? l10n.t('process {0}', quoted(agent.process)) : l10n.t('a known agent CLI');
  const hint = agent.window_hint ? l10n.t(', window_hint {0}', quoted(agent.window_hint)) : '';
  const pane = agent.tmux ? l10n.t(', tmux {0}', quoted(agent.tmux)) : '';
  const seen = shown.length
    ? `${shown.join('; ')}${more}`
    : where === 'tmux'
      ? l10n.t('no tmux pane is open')
      : l10n.t('no terminal is open');
  const fix =
    !agent.process && !agent.window_hint && !agent.tmux
      ? l10n.t(
          'team.toml gives {0} no process, window_hint or tmux pane, so no open terminal can be told to be its: add process = "…" (its program\'s name), or launch = "…"',
          agent.key,
        )
      : l10n.t('start {0} in a terminal and leave it in the foreground, or add launch = "…" to its section of team.toml', agent.key);
  return where === 'tmux'
    ? l10n.t(
        'no tmux pane runs {0} in its foreground (looked for {1}{2}{3}): {4}. Nothing was typed: {5}',
        agent.key,
        what,
        hint,
        pane,
        seen,
        fix,
      )
    : l10n.t('no terminal runs {0} in its foreground (looked for {1}{2}): {3}. Nothing was typed: {4}', agent.key, what, hint, seen, fix);
}
