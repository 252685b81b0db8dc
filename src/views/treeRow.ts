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
  /**
   * A permission answerable from here: the pending request's single-use handle. Only in this object, which VS Code
   * hands back to the inline buttons' commands; never in a label, tooltip, context value or snapshot.
   */
  answerHandle?: string;
  /** What a click runs. */
  command?: { id: string; args: unknown[] };
  /** An "Agent hooks" row: which installer its menu runs. */
  hook?: { agent: AgentKind; scope: 'user' | 'system' };
  /** A Handoff row: the agent its menu acts on. */
  handoffAgent?: string;
  /** A Routes row: the route its menu removes. */
  route?: string;
}

/**
 * The row a click on `picked` means in the tree as it is now: the row with its key, else — the row was redrawn
 * under a new key, as when a terminal's dialog closed and its next one opened at the same place (`wait:<old>` →
 * `wait:<new>`), which VS Code keeps selected without telling the extension — the row of the same kind for the
 * same terminal. Undefined when neither is there.
 */
export function currentRow(rows: readonly TreeRow[], picked: Pick<TreeRow, 'key' | 'terminalId'>): TreeRow | undefined {
  const kind = picked.key.split(':')[0];
  let sameTerminal: TreeRow | undefined;
  const find = (list: readonly TreeRow[]): TreeRow | undefined => {
    for (const r of list) {
      if (r.key === picked.key) return r;
      if (!sameTerminal && picked.terminalId !== undefined && r.terminalId === picked.terminalId && r.key.split(':')[0] === kind)
        sameTerminal = r;
      const hit = r.children && find(r.children);
      if (hit) return hit;
    }
    return undefined;
  };
  return find(rows) ?? sameTerminal;
}
