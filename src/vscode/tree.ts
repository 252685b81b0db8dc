import * as vscode from 'vscode';
import type { TreeRow, ViewInput } from '../views/model';
import { treeRows } from '../views/model';
import { toThemeIcon } from './icons';

import { COMMANDS } from '../views/model';

export const SHOW_TERMINAL_COMMAND = COMMANDS.showTerminal;

/** What the tree shows, in plain data: the integration tests read it through the extension's API. */
export interface TreeSnapshotItem {
  label: string;
  description: string;
  icon: string;
  color?: string;
  group?: string;
  id?: string;
  waitId?: string;
  tooltip?: string;
  contextValue: string;
  /** The command a click runs, and its arguments. */
  command?: string;
  args?: unknown[];
}

/** Renders the view model's rows; nothing here decides what is shown. */
export class AgentTreeProvider implements vscode.TreeDataProvider<TreeRow>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeRow | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly input: () => ViewInput) {
    // Time in state moves on; a coarse refresh keeps descriptions honest without churning.
    this.timer = setInterval(() => {
      if (input().terminals.some((s) => s.agent !== 'shell')) this.refresh();
    }, 5000);
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  getChildren(row?: TreeRow): TreeRow[] {
    return row ? row.children ?? [] : treeRows(this.input());
  }

  getTreeItem(row: TreeRow): vscode.TreeItem {
    const item = new vscode.TreeItem(row.label, !row.children ? vscode.TreeItemCollapsibleState.None : row.collapsed ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded);
    item.id = row.key;
    item.description = row.description;
    item.iconPath = toThemeIcon(row.icon);
    item.contextValue = row.contextValue;
    if (row.tooltip) item.tooltip = new vscode.MarkdownString(row.tooltip, true);
    if (row.command) item.command = { command: row.command.id, title: row.label, arguments: row.command.args };
    item.accessibilityInformation = { label: row.description ? `${row.label}: ${row.description}` : row.label };
    return item;
  }

  /** The tree as data, top to bottom. */
  snapshot(): TreeSnapshotItem[] {
    const out: TreeSnapshotItem[] = [];
    const walk = (rows: TreeRow[]) => {
      for (const r of rows) {
        out.push({ label: r.label.replace(/ \(\d+\)$/, ''), description: r.description, icon: r.icon.id, color: r.icon.color, group: r.group, id: r.terminalId, waitId: r.waitId, tooltip: r.tooltip, contextValue: r.contextValue, command: r.command?.id, args: r.command?.args });
        if (r.children) walk(r.children);
      }
    };
    walk(treeRows(this.input()));
    return out;
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.changed.dispose();
  }
}
