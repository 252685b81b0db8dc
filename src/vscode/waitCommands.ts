import * as vscode from 'vscode';
import { realScheduler } from '../scheduler';
import { typeAnswer } from '../sources/terminal/answer';
import { answerableInline } from '../store/policy';
import type { AgentStore } from '../store/store';
import { agentName } from '../views/labels';
import { COMMANDS } from '../views/model';
import type { TerminalAdapter } from './terminals';

/**
 * "Answer…" on a Needs-you item. A reply that asks gets an input box and the answer typed into its terminal;
 * a dialog is shown in its terminal instead (its keys are the TUI's, never guessed). The second argument
 * answers without the input box (scripts, tests).
 */
export function registerWaitCommands(store: AgentStore, terminals: TerminalAdapter, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    // A dialog's keys are the TUI's: show its terminal (from a Needs-you row's menu, or a terminal id).
    vscode.commands.registerCommand('agentLens.answerInTerminal', (row?: { terminalId?: string } | string) => {
      const id = typeof row === 'string' ? row : row?.terminalId;
      const t = id ? terminals.terminalOf(id) : undefined;
      if (t) t.show(false);
      else void vscode.window.showWarningMessage(vscode.l10n.t('Agent Lens: that terminal is gone.'));
    }),
    vscode.commands.registerCommand(COMMANDS.answer, async (waitId?: string, given?: string) => {
      const w = waitId ? store.wait(waitId) : store.waits().find(answerableInline);
      const t = w?.terminalId ? terminals.terminalOf(w.terminalId) : undefined;
      if (!w || w.closedAt !== undefined || !t) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Agent Lens: that question is no longer open (answered, or its terminal is gone).'));
        return undefined;
      }
      if (!answerableInline(w)) {
        t.show(false);
        return undefined;
      }
      const name = store.terminal(w.terminalId!)?.name ?? w.terminalId ?? '';
      const answer =
        given ??
        (await vscode.window.showInputBox({
          title: vscode.l10n.t('{0} in “{1}” asks', agentName(w.agent), name),
          prompt: w.question ?? vscode.l10n.t('Its reply ends with a question.'),
          placeHolder: vscode.l10n.t('Your answer: typed into the terminal as one line, then Enter'),
          ignoreFocusOut: true,
          validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Type an answer, or press Escape to leave it.')),
        }));
      if (answer === undefined) return undefined;
      if (store.wait(w.id)?.closedAt !== undefined) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Agent Lens: {0} in “{1}” moved on before the answer was sent; nothing was typed.', agentName(w.agent), name));
        return undefined;
      }
      try {
        const line = await typeAnswer((data) => t.sendText(data, false), answer, realScheduler);
        log.info(`answered ${w.id} in "${name}": typed ${line.length} characters, then Enter`);
        return line;
      } catch (e) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Agent Lens: nothing typed: {0}.', (e as Error).message));
        return undefined;
      }
    }),
  ];
}
