import * as l10n from '@vscode/l10n';
import type { Board } from '../handoff/board';
import type { DispatchResult } from '../handoff/dispatch';
import { printable } from '../common/printable';
import type { Wait } from '../store/waits';
import { boardLabel } from './handoffRows';
import { agentName, duration, stateLabel, waitLabel } from './labels';
import { LIMITS, plain } from './untrusted';

/**
 * The texts of notifications, messages and input boxes, built here so mocha can test them and the fuzzer can
 * feed them hostile values. Each comes back as `plain()` text (no link can form, nothing hidden, bounded);
 * `src/vscode/ui.ts` applies `plain()` once more before VS Code sees it.
 */

/** A notification's level and text. */
export interface Notice {
  level: 'info' | 'warning' | 'error';
  text: string;
}

/** A terminal name, an agent key, a task id: short, so the rest of the message stays readable. */
const short = (s: string): string => plain(s, LIMITS.name);
/** The whole message. */
const whole = (s: string): string => plain(s, LIMITS.message);

/** "Claude Code in “bash” is waiting for approval: Bash: npm test". */
export function waitNotice(w: Pick<Wait, 'agent' | 'kind' | 'question'>, terminal: string): string {
  const agent = agentName(w.agent);
  return whole(
    w.question
      ? l10n.t('{0} in “{1}” is {2}: {3}', agent, short(terminal), waitLabel(w), plain(w.question, LIMITS.part))
      : l10n.t('{0} in “{1}” is {2}.', agent, short(terminal), waitLabel(w)),
  );
}

/** "Claude Code in “bash” completed after 3m 12s of work." — a long turn's end, told while the user was away. */
export function turnNotice(
  e: { agent: Wait['agent']; state: 'completed' | 'failed'; reason?: string; startedAt: number; endedAt: number },
  terminal: string,
): string {
  const agent = agentName(e.agent);
  const state = stateLabel({ state: e.state, reason: e.reason ? plain(e.reason, LIMITS.part) : undefined });
  return whole(l10n.t('{0} in “{1}”: {2} after {3} of work.', agent, short(terminal), state, duration(e.endedAt - e.startedAt)));
}

/**
 * The log lines of a wait notification (not translated: they go into bug reports). The info line names the wait,
 * its kind, the agent and the terminal; the question, which for a permission dialog is the command being approved
 * and can hold a secret, goes only into the trace line.
 */
export function waitLogLines(w: Pick<Wait, 'id' | 'agent' | 'kind' | 'question'>, terminal: string): { info: string; trace?: string } {
  const info = `notified: wait ${printable(w.id)} (${printable(w.kind)}) of ${printable(w.agent)} in “${printable(terminal)}”`;
  return w.question ? { info, trace: `wait ${printable(w.id)} asks: ${printable(w.question)}` } : { info };
}

/** The Answer… input box: the question is its prompt, which VS Code renders with links. */
export function answerBox(w: Pick<Wait, 'agent' | 'question'>, terminal: string): { title: string; prompt: string; placeHolder: string } {
  return {
    title: plain(l10n.t('{0} in “{1}” asks', agentName(w.agent), short(terminal)), LIMITS.title),
    prompt: plain(w.question ?? l10n.t('Its reply ends with a question.'), LIMITS.prompt),
    placeHolder: plain(l10n.t('Your answer: typed into the terminal as one line, then Enter'), LIMITS.placeHolder),
  };
}

export function movedOnNotice(w: Pick<Wait, 'agent'>, terminal: string): string {
  return whole(
    l10n.t('Agent Lens: {0} in “{1}” moved on before the answer was sent; nothing was typed.', agentName(w.agent), short(terminal)),
  );
}

export function nothingTypedNotice(reason: string): string {
  return whole(l10n.t('Agent Lens: nothing typed: {0}.', reason));
}

/** "Agent Lens: <what failed>": a command's error, whose text may quote a file, a team.toml or an agent. */
export function failedNotice(message: string): string {
  return whole(l10n.t('Agent Lens: {0}', message));
}

/** A task that is done or blocked: its summary is whatever the agent (or a printed ```handoff block) said. */
export function boardNotice(b: Board): Notice {
  const task = short(`${b.agent}::${String(b.task_id)}`);
  const text = b.last_event
    ? l10n.t('{0} is {1}: {2}', task, boardLabel(b), plain(b.last_event.summary, LIMITS.part))
    : l10n.t('{0} is {1}', task, boardLabel(b));
  return { level: b.state === 'blocked' ? 'warning' : 'info', text: whole(text) };
}

/** "Brief claude::1204-01": what a dispatch was, for its outcome. */
export function briefWhat(agent: string, taskId: string): string {
  return l10n.t('Brief {0}', short(`${agent}::${taskId}`));
}

export function handshakeWhat(agent: string): string {
  return l10n.t('The handshake with {0}', short(agent));
}

/** A dispatch's outcome: refused by the in-flight gate, failed (the error may quote team.toml's `launch`), or delivered. */
export function dispatchNotice(r: DispatchResult, what: string): Notice {
  const to = short(String(r.board?.delivered_to));
  if (r.refused) return { level: 'warning', text: whole(l10n.t('Agent Lens: {0}', r.refused)) };
  if (r.error)
    return {
      level: 'error',
      text: whole(
        r.submitted
          ? l10n.t('Agent Lens: {0} is on the board but was not delivered: {1}', what, r.error)
          : l10n.t('Agent Lens: {0} failed: {1}', what, r.error),
      ),
    };
  return {
    level: 'info',
    text: whole(
      r.note
        ? l10n.t('Agent Lens: {0} delivered to “{1}”. Note: {2}', what, to, r.note)
        : l10n.t('Agent Lens: {0} delivered to “{1}”.', what, to),
    ),
  };
}

export function readyNotice(agent: string, summary: string): string {
  return whole(l10n.t('Agent Lens: {0} is ready: {1}', short(agent), plain(summary, LIMITS.part)));
}

export function handshakeProgress(agent: string): string {
  return plain(l10n.t('Waiting for {0} to ring the doorbell…', short(agent)), LIMITS.title);
}

export function taskIdPrompt(agent: string): string {
  return plain(l10n.t('Task id for {0}', short(agent)), LIMITS.prompt);
}

export function cancelPrompt(agent: string, taskId: string): string {
  return plain(l10n.t('Why cancel {0}?', short(`${agent}::${taskId}`)), LIMITS.prompt);
}

export function noAgentNotice(teamFile: string): string {
  return whole(l10n.t('No agent to choose: register one in {0}.', teamFile));
}

export function initNotice(dir: string): string {
  return whole(l10n.t('Agent Lens: {0} is ready (read.md, memory.md, briefs/, reports/).', dir));
}

export function registeredNotice(key: string, teamFile: string): string {
  return whole(l10n.t('Agent Lens: {0} is registered in {1}.', short(key), teamFile));
}

/** Install / uninstall of one agent's hooks: done (with the installer's note) or failed (with why). */
export function hookNotice(
  action: 'install' | 'uninstall',
  who: string,
  path: string,
  outcome: { note?: string } | { error: string },
): Notice {
  if ('error' in outcome)
    return {
      level: 'error',
      text: whole(
        action === 'install'
          ? l10n.t('Agent Lens: could not install {0} hooks: {1}', who, outcome.error)
          : l10n.t('Agent Lens: could not uninstall {0} hooks: {1}', who, outcome.error),
      ),
    };
  const done =
    action === 'install'
      ? l10n.t('Agent Lens: {0} hooks installed in {1}.', who, path)
      : l10n.t('Agent Lens: {0} hooks removed from {1}.', who, path);
  return { level: 'info', text: whole(action === 'install' && outcome.note ? `${done} ${outcome.note}` : done) };
}

/** A terminal's stream saved as .cast (the file name is the user's, or a script's argument). */
export function savedNotice(file: string, truncated: boolean): string {
  return whole(
    truncated
      ? l10n.t(
          'Agent Lens: saved {0} (older output dropped: the recording keeps the last 512 KB). Replay it with “agent-lens replay”.',
          file,
        )
      : l10n.t('Agent Lens: saved {0}. Replay it with “agent-lens replay”.', file),
  );
}

export function writeFailedNotice(file: string, reason: string): string {
  return whole(l10n.t('Agent Lens: could not write {0}: {1}. Choose a folder you can write to.', file, reason));
}

/** A recording that cannot be replayed: the reason can quote the file's own content. */
export function replayFailedNotice(reason: string): string {
  return whole(l10n.t('Agent Lens: cannot replay: {0}', reason));
}
