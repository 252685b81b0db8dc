import * as vscode from 'vscode';
import type { ViewInput } from '../views/model';
import type { TreeRow } from '../views/treeRow';
import { ticksEverySecond, treeRows } from '../views/model';
import { LIMITS, plain } from '../views/untrusted';
import { toThemeIcon } from './icons';
import { COMMAND_IDS } from '../views/commandIds';
import type { Handler } from './commandTable';

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

  private lastTick = 0;

  constructor(private readonly input: () => ViewInput) {
    // Time in state moves on: every second while an age is shown to the second, else every half minute.
    this.timer = setInterval(() => {
      const v = input();
      const due = ticksEverySecond(v) ? 1000 : 30_000;
      if (v.now - this.lastTick < due - 50) return;
      this.lastTick = v.now;
      this.refresh();
    }, 1000);
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  getChildren(row?: TreeRow): TreeRow[] {
    return row ? (row.children ?? []) : treeRows(this.input());
  }

  getTreeItem(row: TreeRow): vscode.TreeItem {
    // The view model already made them plain; again here (it is idempotent), since this is where VS Code gets them.
    const label = plain(row.label, LIMITS.label);
    const description = plain(row.description, LIMITS.description);
    const item = new vscode.TreeItem(
      label,
      !row.children
        ? vscode.TreeItemCollapsibleState.None
        : row.collapsed
          ? vscode.TreeItemCollapsibleState.Collapsed
          : vscode.TreeItemCollapsibleState.Expanded,
    );
    item.id = row.key;
    item.description = description;
    item.iconPath = toThemeIcon(row.icon);
    item.contextValue = row.contextValue;
    if (row.tooltip) item.tooltip = tooltip(row.tooltip);
    // No arguments on the item's own command: VS Code keeps a command with arguments only until the next
    // refresh of the tree, and a click that lands in between fails ("Actual command not found"). The click
    // selects the row first; COMMAND_IDS.openRow runs the row's command for the selection (see rowClick).
    if (row.command) item.command = { command: COMMAND_IDS.openRow, title: label };
    item.accessibilityInformation = { label: description ? `${label}: ${description}` : label };
    return item;
  }

  /** The tree as data, top to bottom. */
  snapshot(): TreeSnapshotItem[] {
    const out: TreeSnapshotItem[] = [];
    const walk = (rows: TreeRow[]) => {
      for (const r of rows) {
        out.push({
          label: r.label.replace(/ \(\d+\)$/, ''),
          description: r.description,
          icon: r.icon.id,
          color: r.icon.color,
          group: r.group,
          id: r.terminalId,
          waitId: r.waitId,
          tooltip: r.tooltip,
          contextValue: r.contextValue,
          command: r.command?.id,
          args: r.command?.args,
        });
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

/**
 * Runs what a clicked row stands for. A click (or Enter on a focused row) selects the row before VS Code runs the
 * item's command, and both reach the extension host in that order, so the selection is the row clicked.
 */
export function rowClick(view: vscode.TreeView<TreeRow>): Handler {
  return (arg?: TreeRow) => {
    const row = arg?.command ? arg : view.selection[0];
    if (row?.command) return vscode.commands.executeCommand(row.command.id, ...row.command.args);
    return undefined;
  };
}

/**
 * A row's tooltip: Markdown whose outside parts src/views escaped. Untrusted (no command links), no HTML, and no
 * theme icons (none of our tooltips uses one, so `$(…)` in a name stays text).
 */
function tooltip(markdown: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(markdown, false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}
