import * as vscode from 'vscode';
import type { StateStore, TerminalState } from '../state/store';
import { agentName, stateCodicon, stateLabel } from './presentation';

export const FOCUS_COMMAND = 'agentLens.focusTerminal';

/**
 * Two items: a summary (working and waiting counts, warning background while anything waits; click
 * opens the "who needs me" quick pick) and the active terminal's agent and state.
 */
export class StatusBar implements vscode.Disposable {
  private readonly summary: vscode.StatusBarItem;
  private readonly active: vscode.StatusBarItem;
  private readonly subs: { dispose(): void }[] = [];

  constructor(
    private readonly store: StateStore,
    private readonly activeId: () => string | undefined,
  ) {
    this.summary = vscode.window.createStatusBarItem('agentLens.summary', vscode.StatusBarAlignment.Left, 100);
    this.summary.name = 'Agent Lens';
    this.summary.command = FOCUS_COMMAND;
    this.active = vscode.window.createStatusBarItem('agentLens.active', vscode.StatusBarAlignment.Left, 99);
    this.active.name = 'Agent Lens: Active Terminal';
    this.active.command = FOCUS_COMMAND;
    this.subs.push(store.onDidChange(() => this.update()), vscode.window.onDidChangeActiveTerminal(() => this.update()));
    this.update();
  }

  update(): void {
    const agents = this.store.all().filter((s) => s.agent !== 'shell');
    const working = agents.filter((s) => s.state === 'working').length;
    const waiting = agents.filter((s) => s.state === 'waiting').length;
    if (agents.length === 0) {
      this.summary.hide();
    } else {
      this.summary.text = `$(sync${working ? '~spin' : ''}) ${working}  $(bell${waiting ? '-dot' : ''}) ${waiting}`;
      this.summary.backgroundColor = waiting ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
      const label = `Agent Lens: ${working} working, ${waiting} waiting, ${agents.length} agent terminal${agents.length === 1 ? '' : 's'}`;
      this.summary.tooltip = `${label}. Click to pick a terminal, most urgent first.`;
      this.summary.accessibilityInformation = { label, role: 'button' };
      this.summary.show();
    }
    const id = this.activeId();
    const s: TerminalState | undefined = id ? this.store.get(id) : undefined;
    if (!s || s.agent === 'shell') {
      this.active.hide();
    } else {
      this.active.text = `$(${stateCodicon(s)}) ${agentName(s.agent)}: ${stateLabel(s)}`;
      const label = `Active terminal ${s.name}: ${agentName(s.agent)} is ${stateLabel(s)}`;
      this.active.tooltip = `${label}\nEvidence: ${s.evidence}`;
      this.active.accessibilityInformation = { label, role: 'button' };
      this.active.backgroundColor = s.state === 'waiting' && s.waitKind !== 'reply-question' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
      this.active.show();
    }
  }

  /** Visible texts, for the integration tests (through the extension's API). */
  snapshot(): { summary?: string; active?: string; summaryWarning: boolean } {
    const anyAgent = this.store.all().some((s) => s.agent !== 'shell');
    const id = this.activeId();
    const s = id ? this.store.get(id) : undefined;
    return {
      summary: anyAgent ? this.summary.text : undefined,
      active: s && s.agent !== 'shell' ? this.active.text : undefined,
      summaryWarning: anyAgent && this.summary.backgroundColor !== undefined,
    };
  }

  dispose(): void {
    this.subs.forEach((s) => s.dispose());
    this.summary.dispose();
    this.active.dispose();
  }
}
