import * as vscode from 'vscode';
import { byUrgency, StateStore, TerminalState } from '../state/store';
import { describe, stateIcon, tooltip } from './presentation';

export const SHOW_TERMINAL_COMMAND = 'agentLens.showTerminal';

type Node = { kind: 'group'; label: string; members: TerminalState[] } | { kind: 'terminal'; state: TerminalState };

/** What the tree shows, in plain data: the integration tests read it through the extension's API. */
export interface TreeSnapshotItem {
  label: string;
  description: string;
  icon: string;
  color?: string;
  group?: string;
  id?: string;
}

/**
 * One item per terminal; a "Needs you" group on top whenever something waits (most urgent first).
 * Labels are terminal names, descriptions "agent · state · time in state".
 */
export class AgentTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly sub: { dispose(): void };
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly store: StateStore) {
    this.sub = store.onDidChange(() => this.changed.fire(undefined));
    // Time in state moves on; a coarse refresh keeps descriptions honest without churning.
    this.timer = setInterval(() => {
      if (store.all().some((s) => s.agent !== 'shell')) this.changed.fire(undefined);
    }, 5000);
  }

  getChildren(node?: Node): Node[] {
    if (node?.kind === 'group') return node.members.map((state) => ({ kind: 'terminal', state }));
    if (node) return [];
    const all = this.store.all();
    const waiting = all.filter((s) => s.state === 'waiting' && s.agent !== 'shell').sort(byUrgency);
    const rest = all.filter((s) => !waiting.includes(s));
    const nodes: Node[] = [];
    if (waiting.length) nodes.push({ kind: 'group', label: 'Needs you', members: waiting });
    for (const state of rest) nodes.push({ kind: 'terminal', state });
    return nodes;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'group') {
      const item = new vscode.TreeItem(`${node.label} (${node.members.length})`, vscode.TreeItemCollapsibleState.Expanded);
      item.id = 'group:needs-you';
      item.iconPath = new vscode.ThemeIcon('bell-dot', new vscode.ThemeColor('charts.orange'));
      item.contextValue = 'group';
      return item;
    }
    const s = node.state;
    const now = Date.now();
    const item = new vscode.TreeItem(s.name, vscode.TreeItemCollapsibleState.None);
    item.id = `terminal:${s.id}`;
    item.description = describe(s, now);
    item.iconPath = stateIcon(s);
    item.tooltip = tooltip(s, now);
    item.contextValue = s.agent === 'shell' ? 'shell' : `agent.${s.state}`;
    item.command = { command: SHOW_TERMINAL_COMMAND, title: 'Show Terminal', arguments: [s.id] };
    item.accessibilityInformation = { label: `${s.name}: ${describe(s, now)}` };
    return item;
  }

  /** The tree as data, top to bottom. */
  snapshot(): TreeSnapshotItem[] {
    const out: TreeSnapshotItem[] = [];
    const walk = (nodes: Node[], group?: string) => {
      for (const n of nodes) {
        const item = this.getTreeItem(n);
        const icon = item.iconPath as vscode.ThemeIcon;
        const label = typeof item.label === 'string' ? item.label : item.label?.label ?? '';
        out.push({ label, description: String(item.description ?? ''), icon: icon.id, color: (icon.color as unknown as { id?: string } | undefined)?.id, group, id: n.kind === 'terminal' ? n.state.id : undefined });
        if (n.kind === 'group') walk(this.getChildren(n), n.label);
      }
    };
    walk(this.getChildren());
    return out;
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.sub.dispose();
    this.changed.dispose();
  }
}
