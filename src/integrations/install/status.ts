import type { AgentKind } from '../../common/agents';

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
