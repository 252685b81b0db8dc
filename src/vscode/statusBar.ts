import * as vscode from 'vscode';
import { statusBar, type StatusItem, type ViewInput } from '../views/model';
import { COMMAND_IDS } from '../views/commandIds';

/** Renders the view model's two status bar items: the summary and the active terminal's agent and state. */
export class StatusBar implements vscode.Disposable {
  private readonly summary: vscode.StatusBarItem;
  private readonly active: vscode.StatusBarItem;
  private readonly handoff: vscode.StatusBarItem;
  private last: { summary?: StatusItem; active?: StatusItem; handoff?: StatusItem } = {};

  constructor(private readonly input: () => ViewInput) {
    this.summary = vscode.window.createStatusBarItem('agentLens.summary', vscode.StatusBarAlignment.Left, 100);
    this.summary.name = 'Agent Lens';
    this.summary.command = COMMAND_IDS.focusTerminal;
    this.active = vscode.window.createStatusBarItem('agentLens.active', vscode.StatusBarAlignment.Left, 99);
    this.active.name = vscode.l10n.t('Agent Lens: Active Terminal');
    this.active.command = COMMAND_IDS.focusTerminal;
    this.handoff = vscode.window.createStatusBarItem('agentLens.handoff', vscode.StatusBarAlignment.Left, 98);
    this.handoff.name = vscode.l10n.t('Agent Lens: Tasks in Flight');
    this.handoff.command = COMMAND_IDS.showHandoffStatus;
    this.update();
  }

  update(): void {
    this.last = statusBar(this.input());
    render(this.summary, this.last.summary);
    render(this.active, this.last.active);
    render(this.handoff, this.last.handoff);
  }

  /** Visible texts, for the integration tests (through the extension's API). */
  snapshot(): { summary?: string; active?: string; handoff?: string; summaryWarning: boolean } {
    return {
      summary: this.last.summary?.text,
      active: this.last.active?.text,
      handoff: this.last.handoff?.text,
      summaryWarning: this.last.summary?.warning ?? false,
    };
  }

  dispose(): void {
    this.handoff.dispose();
    this.summary.dispose();
    this.active.dispose();
  }
}

function render(item: vscode.StatusBarItem, m: StatusItem | undefined): void {
  if (!m) {
    item.hide();
    return;
  }
  item.text = m.text;
  item.tooltip = m.tooltip;
  item.accessibilityInformation = { label: m.ariaLabel, role: 'button' };
  item.backgroundColor = m.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  item.show();
}
