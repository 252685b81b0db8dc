import * as vscode from 'vscode';
import type { ViewInput } from '../views/model';
import { currentRow, type TreeRow } from '../views/treeRow';
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

  constructor(
    private readonly input: () => ViewInput,
    /** Which rows this tree shows: the agents (default), or another view's (Session Details). */
    private readonly rows: (v: ViewInput) => TreeRow[] = treeRows,
    /** The internal command a click runs (see rowClick): one per view, since each has its own selection. */
    private readonly openCommand: string = COMMAND_IDS.openRow,
  ) {
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
    return row ? (row.children ?? []) : this.rows(this.input());
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
    if (row.command) item.command = { command: this.openCommand, title: label };
    item.accessibilityInformation = { label: description ? `${label}: ${description}` : label };
    return item;
  }

  /** The row a click on `picked` means in the tree as it is now (see currentRow). */
  row(picked: Pick<TreeRow, 'key' | 'terminalId'>): TreeRow | undefined {
    return currentRow(this.rows(this.input()), picked);
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
    walk(this.rows(this.input()));
    return out;
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.changed.dispose();
  }
}

/** How long a click's command waits for the click's own selection when none came just before it. */
const SELECTION_WAIT_MS = 400;

/**
 * Runs what a clicked row stands for. A click (or Enter on a focused row) selects the row and runs the item's
 * command, which carries no arguments (see getTreeItem): the selection says which row. The selection usually
 * reaches the extension host first; on a busy host it may come just after the command, when `view.selection`
 * still holds the row clicked before (a wait since closed, whose command would show its terminal instead). So
 * unless the selection changed just now, the command waits briefly for the click's own; the row is then looked
 * up again by its key in the tree as it is now, so its command and arguments are current.
 */
export function rowClick(view: vscode.TreeView<TreeRow>, tree: AgentTreeProvider): Handler & vscode.Disposable {
  let changedAt = 0;
  const sub = view.onDidChangeSelection(() => (changedAt = Date.now()));
  const handler = async (arg?: TreeRow) => {
    let row = arg?.command ? arg : undefined;
    if (!row) {
      if (Date.now() - changedAt > SELECTION_WAIT_MS) await nextSelection(view, SELECTION_WAIT_MS);
      const picked = view.selection[0];
      row = picked && (tree.row(picked) ?? picked);
    }
    if (row?.command) return vscode.commands.executeCommand(row.command.id, ...row.command.args);
    return undefined;
  };
  return Object.assign(handler, { dispose: () => sub.dispose() });
}

/** Resolves at the next selection change, or after `ms` (clicking the row already selected changes nothing). */
function nextSelection(view: vscode.TreeView<TreeRow>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    };
    const sub = view.onDidChangeSelection(done);
    const timer = setTimeout(done, ms);
  });
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
