import * as l10n from '@vscode/l10n';
import type { IconSpec } from './labels';
import { agentName } from './labels';
import type { TreeRow } from './treeRow';
import { markdown } from './untrusted';
import type { AgentKind } from '../common/agents';
import type { HookStatus } from '../integrations/install/status';

/** The group's name (translated when called, so after the adapter has loaded the bundle). */
export const hooksGroup = (): string => l10n.t('Agent hooks');

const STATE_TEXT: Record<HookStatus['state'], { text: () => string; icon: IconSpec }> = {
  installed: { text: () => l10n.t('hooks installed'), icon: { id: 'pass', color: 'charts.green' } },
  outdated: { text: () => l10n.t('hooks outdated: install again'), icon: { id: 'warning', color: 'charts.yellow' } },
  partial: { text: () => l10n.t('some hooks missing: install again'), icon: { id: 'warning', color: 'charts.yellow' } },
  absent: { text: () => l10n.t('no hooks (screen only)'), icon: { id: 'circle-large-outline' } },
  error: { text: () => l10n.t('cannot read its settings'), icon: { id: 'error', color: 'charts.red' } },
};

/** "hooks installed", "no hooks (screen only)", …: an install state in words. */
export function hookStateText(state: HookStatus['state']): string {
  return STATE_TEXT[state].text();
}

/** "Codex", "Codex (system)": an agent's hooks of one scope. */
export function hookTargetName(agent: AgentKind, scope: 'user' | 'system'): string {
  return scope === 'system' ? l10n.t('{0} (system)', agentName(agent)) : agentName(agent);
}

/** The "Agent hooks" group: one row per agent and scope, with install / uninstall in its menu. */
export function hookRows(hooks: readonly HookStatus[]): TreeRow {
  const installed = hooks.filter((h) => h.state === 'installed').length;
  const group = hooksGroup();
  return {
    key: 'group:hooks',
    label: group,
    description: l10n.t('{0} of {1} installed', installed, hooks.length),
    icon: { id: 'plug' },
    contextValue: 'group.hooks',
    collapsed: true,
    children: hooks.map((h) => {
      const text = STATE_TEXT[h.state].text();
      const title =
        h.scope === 'system'
          ? l10n.t('{0} system-level hooks: {1}', agentName(h.agent), text)
          : l10n.t('{0} user-level hooks: {1}', agentName(h.agent), text);
      return {
        key: `hooks:${h.agent}:${h.scope}`,
        label: hookTargetName(h.agent, h.scope),
        description: text,
        icon: STATE_TEXT[h.state].icon,
        // The path comes from the environment or a setting, the note may quote a file: Markdown-escaped.
        tooltip: `${title}\n\n${markdown(h.path)}${h.note ? `\n\n${markdown(h.note, 2000)}` : ''}`,
        contextValue: `hooks.${h.state === 'installed' ? 'installed' : h.state === 'absent' ? 'absent' : 'stale'}`,
        group,
        hook: { agent: h.agent, scope: h.scope },
      };
    }),
  };
}
