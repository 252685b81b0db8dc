import * as vscode from 'vscode';
import { realScheduler } from '../common/scheduler';
import { typeAnswer } from '../sources/terminal/answer';
import { answerableInline } from '../store/policy';
import type { AgentStore } from '../store/store';
import { printable } from '../common/printable';
import { answerBox, movedOnNotice, nothingTypedNotice } from '../views/messages';
import { displayName } from '../views/names';
import { type RowOrId, terminalIdOf, waitIdOf } from './commandArgs';
import type { TerminalAdapter } from './terminals';
import * as ui from './ui';
import type { Handlers } from './commandTable';

/**
 * "Answer…" on a Needs-you item. A reply that asks gets an input box and the answer typed into its terminal;
 * a dialog is shown in its terminal instead (its keys are the TUI's, never guessed). The second argument
 * answers without the input box (scripts, tests).
 */
export function waitHandlers(store: AgentStore, terminals: TerminalAdapter, log: vscode.LogOutputChannel): Handlers {
  return {
    // A dialog's keys are the TUI's: show its terminal (from a Needs-you row's menu, or a terminal id).
    answerInTerminal: (arg?: RowOrId) => {
      const id = terminalIdOf(arg);
      const t = id ? terminals.terminalOf(id) : undefined;
      if (t) t.show(false);
      else void ui.warn(vscode.l10n.t('Agent Lens: that terminal is gone.'));
    },
    // From the row's click or inline button (the row), a script (a wait id and the answer), or the palette.
    answerWait: (arg?: RowOrId, given?: string) => answerWait(store, terminals, log, arg, given),
  };
}

async function answerWait(
  store: AgentStore,
  terminals: TerminalAdapter,
  log: vscode.LogOutputChannel,
  arg?: RowOrId,
  given?: string,
): Promise<string | undefined> {
  const waitId = waitIdOf(arg);
  const w = waitId ? store.wait(waitId) : store.waits().find(answerableInline);
  const t = w?.terminalId ? terminals.terminalOf(w.terminalId) : undefined;
  if (!w || w.closedAt !== undefined || !t) {
    void ui.info(vscode.l10n.t('Agent Lens: that question is no longer open (answered, or its terminal is gone).'));
    return undefined;
  }
  if (!answerableInline(w)) {
    t.show(false);
    return undefined;
  }
  const t0 = store.terminal(w.terminalId!);
  const name = t0 ? displayName(t0, store.terminals()) : (w.terminalId ?? '');
  // The question is the agent's: as the prompt, VS Code would render a link in it, so it is plain text.
  let answer = given;
  try {
    answer ??= await ui.input({
      ...answerBox(w, name),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Type an answer, or press Escape to leave it.')),
    });
  } catch (e) {
    // Typing goes only where the user typed it: without the box, nothing is sent to the terminal.
    void ui.warn(
      vscode.l10n.t(
        'Agent Lens: the answer box could not open ({0}); nothing was typed. Answer in the terminal instead.',
        (e as Error).message,
      ),
    );
    return undefined;
  }
  if (answer === undefined) return undefined;
  if (store.wait(w.id)?.closedAt !== undefined) {
    void ui.warn(movedOnNotice(w, name));
    return undefined;
  }
  try {
    const line = await typeAnswer((data) => t.sendText(data, false), answer, realScheduler);
    log.info(`answered ${printable(w.id)} in "${printable(name)}": typed ${line.length} characters, then Enter`);
    return line;
  } catch (e) {
    void ui.warn(nothingTypedNotice((e as Error).message));
    return undefined;
  }
}
