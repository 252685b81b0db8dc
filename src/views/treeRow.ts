import type { AgentKind } from '../common/agents';
import type { IconSpec } from './labels';

/** One row of the side bar's tree, as the pure view model builds it and src/vscode/tree.ts renders it. */
export interface TreeRow {
  /** Stable across refreshes: `group:needs-you`, `wait:<id>`, `terminal:<id>`. */
  key: string;
  label: string;
  description: string;
  icon: IconSpec;
  tooltip?: string;
  /** For menus: `group`, `wait.<kind>`, `shell`, `agent.<state>`. */
  contextValue: string;
  terminalId?: string;
  waitId?: string;
  /** The group a row sits in (label), for tests and screen readers. */
  group?: string;
  children?: TreeRow[];
  /** Shown collapsed (its children on demand). */
  collapsed?: boolean;
  /** What a click runs. */
  command?: { id: string; args: unknown[] };
  /** An "Agent hooks" row: which installer its menu runs. */
  hook?: { agent: AgentKind; scope: 'user' | 'system' };
  /** A Handoff row: the agent its menu acts on. */
  handoffAgent?: string;
  /** A Routes row: the route its menu removes. */
  route?: string;
}
