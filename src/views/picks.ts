import * as l10n from '@vscode/l10n';
import type { Board } from '../handoff/board';
import type { Route } from '../handoff/routes';
import { MODES, type Mode } from '../handoff/team/schema';
import { boardLabel, lastEventText } from './handoffRows';
import { hookStateText, hookTargetName } from './hookRows';
import type { HookStatus } from '../integrations/install/status';
import type { PickSpec } from './untrusted';
import type { AgentKind } from '../common/agents';

/**
 * Quick-pick items as data. Labels, descriptions and details hold names from outside (terminal names, team.toml,
 * boards); `src/vscode/ui.ts` shows each through `shownPick()`, which puts our icon in front and escapes the rest.
 */

/** The registered agents to choose from, with each board's state and task. */
export function agentPicks(agents: readonly { key: string; name: string; board: Board }[]): (PickSpec & { key: string })[] {
  return agents.map((a) => ({
    label: a.name,
    description: `${a.key} · ${boardLabel(a.board)}${a.board.task_id ? ` · ${a.board.task_id}` : ''}`,
    key: a.key,
  }));
}

/** Every board, for "Show Handoff Status": its error, else its last event. */
export function boardPicks(boards: readonly Board[]): (PickSpec & { agent: string })[] {
  return boards.map((b) => ({
    label: `${b.agent}: ${boardLabel(b)}`,
    description: b.task_id ?? '',
    detail: b.error_reason ?? (b.last_event ? lastEventText(b.last_event) : undefined),
    agent: b.agent,
  }));
}

export function routePicks(routes: readonly Route[]): (PickSpec & { id: string })[] {
  return routes.map((r) => ({ label: `${r.from} → ${r.to}`, id: r.id }));
}

/** Terminal names (programs can set them) to choose from; the pick gives the name back as it was. */
export function namePicks(names: readonly string[]): (PickSpec & { name: string })[] {
  return names.map((name) => ({ label: name, name }));
}

export function modePicks(): (PickSpec & { mode: Mode })[] {
  return MODES.map((m) => ({ label: m, description: modeDescription(m), mode: m }));
}

/** Where a brief comes from: the selection, the active editor (named by its workspace path), or a file. */
export function briefSourcePicks(
  hasSelection: boolean,
  editorPath: string | undefined,
): (PickSpec & { source: 'selection' | 'editor' | 'file' })[] {
  const out: (PickSpec & { source: 'selection' | 'editor' | 'file' })[] = [];
  if (editorPath !== undefined && hasSelection) out.push({ icon: 'selection', label: l10n.t('The selection'), source: 'selection' });
  if (editorPath !== undefined) out.push({ icon: 'file', label: l10n.t('The active editor ({0})', editorPath), source: 'editor' });
  out.push({ icon: 'folder-opened', label: l10n.t('A file…'), source: 'file' });
  return out;
}

/** One hook target in "Install / Uninstall Agent Hooks…": its state, whether the agent was found, and where. */
export interface HookChoice {
  agent: AgentKind;
  scope: 'user' | 'system';
  state: HookStatus['state'];
  found: { found: boolean; why?: string };
  path: string;
  note?: string;
  picked: boolean;
}

export function hookPicks(choices: readonly HookChoice[]): (PickSpec & { index: number })[] {
  return choices.map((c, index) => {
    // VS Code's PATH is the one it started with (a login shell's), not what a terminal's ~/.bashrc adds: an agent
    // a terminal runs may still be missing from it, so say exactly what was looked at.
    const where = c.found.found
      ? l10n.t('found: {0}', c.found.why ?? '')
      : l10n.t('not on VS Code’s PATH, no config folder: tick it if you run it anyway');
    return {
      label: hookTargetName(c.agent, c.scope),
      description: `${hookStateText(c.state)} · ${where}`,
      detail: c.note ? `${c.path} — ${c.note}` : c.path,
      picked: c.picked,
      index,
    };
  });
}

/** What each registry mode means to someone registering an agent (the two drivable ones differ in where the terminal is). */
function modeDescription(mode: (typeof MODES)[number]): string {
  switch (mode) {
    case 'embedded':
      return l10n.t('runs in a VS Code terminal you can see; briefs are typed there');
    case 'background':
      return l10n.t('runs in a terminal in the background (tmux, a hidden VS Code terminal); briefs are typed there');
    case 'standalone':
      return l10n.t('its own app or window outside VS Code: briefs are written, you hand them over');
    case 'web':
      return l10n.t('a web agent: briefs are written, you paste them in');
  }
}
