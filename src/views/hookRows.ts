import type { AgentKind } from '../detect/types';
import type { IconSpec } from './labels';
import { agentName } from './labels';
import type { TreeRow } from './model';

/** One agent's hook install state, as the installers read it from disk. */
export interface HookStatus {
  agent: AgentKind;
  /** Which settings (`user`, `system`): Codex has both. */
  scope: 'user' | 'system';
  state: 'installed' | 'outdated' | 'partial' | 'absent' | 'error';
  /** The file or folder the hooks live in. */
  path: string;
  /** What the user should know (Codex's review dialog, an unreadable file). */
  note?: string;
}

export const HOOKS_GROUP = 'Agent hooks';

const STATE_TEXT: Record<HookStatus['state'], { text: string; icon: IconSpec }> = {
  installed: { text: 'hooks installed', icon: { id: 'pass', color: 'charts.green' } },
  outdated: { text: 'hooks outdated: install again', icon: { id: 'warning', color: 'charts.yellow' } },
  partial: { text: 'some hooks missing: install again', icon: { id: 'warning', color: 'charts.yellow' } },
  absent: { text: 'no hooks (screen only)', icon: { id: 'circle-large-outline' } },
  error: { text: 'cannot read its settings', icon: { id: 'error', color: 'charts.red' } },
};

/** The "Agent hooks" group: one row per agent and scope, with install / uninstall in its menu. */
export function hookRows(hooks: readonly HookStatus[]): TreeRow {
  const installed = hooks.filter((h) => h.state === 'installed').length;
  return {
    key: 'group:hooks',
    label: HOOKS_GROUP,
    description: `${installed} of ${hooks.length} installed`,
    icon: { id: 'plug' },
    contextValue: 'group.hooks',
    collapsed: true,
    children: hooks.map((h) => {
      const look = STATE_TEXT[h.state];
      return {
        key: `hooks:${h.agent}:${h.scope}`,
        label: `${agentName(h.agent)}${h.scope === 'system' ? ' (system)' : ''}`,
        description: look.text,
        icon: look.icon,
        tooltip: `${agentName(h.agent)} ${h.scope}-level hooks: ${look.text}\n\n${h.path}${h.note ? `\n\n${h.note}` : ''}`,
        contextValue: `hooks.${h.state === 'installed' ? 'installed' : h.state === 'absent' ? 'absent' : 'stale'}`,
        group: HOOKS_GROUP,
        hook: { agent: h.agent, scope: h.scope },
      };
    }),
  };
}
