import * as l10n from '@vscode/l10n';
import type { AgentKind } from '../common/agents';
import { agentName } from './labels';
import { whole } from './untrusted';

/**
 * The words of answering a dialog from VS Code: the confirmation that shows what would run, in full, and what
 * the user is told afterwards. Pure (src/vscode/answerCommands.ts shows them).
 */

/** The tool's input as the confirmation shows it: a shell command as `$ command` under its description, else every field. */
export function permissionDetail(tool: string, input: Readonly<Record<string, unknown>>): string {
  const { command, description } = input;
  const shell = typeof command === 'string';
  const lines: string[] = [];
  if (shell && typeof description === 'string' && description) lines.push(description);
  if (shell) lines.push(`$ ${command}`);
  for (const [k, v] of Object.entries(input)) {
    if (shell && (k === 'command' || (k === 'description' && typeof v === 'string'))) continue;
    lines.push(`${k}: ${typeof v === 'string' ? v : JSON.stringify(v, null, 2)}`);
  }
  return whole(`${tool}\n${lines.join('\n')}`);
}

export function allowQuestion(agent: AgentKind, terminal: string): string {
  return l10n.t('Allow {0} in “{1}” to do this once?', agentName(agent), terminal);
}

export function denyPrompt(agent: AgentKind): string {
  return l10n.t('Deny: what should {0} do instead? (optional; Enter sends the denial, Escape leaves the dialog open)', agentName(agent));
}

/** The button of the confirmation that allows; the agent's own word for it follows. */
export function allowButton(): string {
  return l10n.t('Allow Once (Yes)');
}

export function goneNotice(): string {
  return l10n.t(
    'Agent Lens: that dialog is no longer waiting for an answer from here (answered in its terminal, or gone); nothing was sent.',
  );
}

export function ambiguousNotice(): string {
  return l10n.t(
    'Agent Lens: two dialogs are open in that terminal at once, so neither is answered from here; answer them in the terminal.',
  );
}

export function chooseHint(agent: AgentKind): string {
  return l10n.t('The option {0} gets, as if chosen in its terminal (Escape answers nothing)', agentName(agent));
}

export function chooseQuestion(agent: AgentKind, terminal: string, option: string): string {
  return l10n.t('Choose “{0}” in the dialog of {1} in “{2}”?', option, agentName(agent), terminal);
}

/** The button of the confirmation that picks an option of a selector dialog: the option's own words. */
export function chooseButton(option: string): string {
  return l10n.t('Choose “{0}”', option);
}

/** A dialog answered by key that was not: why, and whether a key was typed. */
export function keyRefusedNotice(why: string, typed: boolean): string {
  return typed
    ? l10n.t('Agent Lens typed the dialog’s key, but {0}: look at the terminal.', why)
    : l10n.t('Agent Lens typed nothing: {0}. Answer in the terminal.', why);
}
