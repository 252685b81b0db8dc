import * as vscode from 'vscode';
import type { Decision } from '../hooks/decision';
import { type AnswerOutcome, type PendingAnswers, type PendingRequest } from '../answer/pending';
import { decisionWord } from '../answer/holdRoute';
import type { AgentStore } from '../store/store';
import { allowButton, allowQuestion, ambiguousNotice, chooseHint, denyPrompt, goneNotice, permissionDetail } from '../views/answerTexts';
import { displayName } from '../views/names';
import type { Handlers } from './commandTable';
import type { TerminalAdapter } from './terminals';
import * as ui from './ui';
import { printable } from '../common/printable';

/**
 * *Allow Once* and *Deny…* on a Needs-you row (and on its notification), and *Choose…* for a question dialog: the
 * only way a decision is made. The
 * row hands its command the pending request's handle (in memory; a command run from elsewhere has none and does
 * nothing); Allow asks first in a modal that shows the whole command, whose default button shows the terminal
 * instead. The decision goes to the hook that asked, once (src/answer/pending.ts).
 */
export class Answering {
  constructor(
    private readonly pending: PendingAnswers,
    private readonly store: AgentStore,
    private readonly terminals: TerminalAdapter,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  handlers(): Handlers {
    return {
      allowOnce: (row?: { answerHandle?: unknown }) => this.allow(handleOf(row)),
      denyPermission: (row?: { answerHandle?: unknown }) => this.deny(handleOf(row)),
      chooseAnswer: (row?: { answerHandle?: unknown }) => this.choose(handleOf(row)),
    };
  }

  /** A question dialog: one of its own options per question, picked in the agent's order; Escape answers nothing. */
  async choose(handle: string | undefined): Promise<AnswerOutcome | undefined> {
    const r = this.request(handle);
    if (!r?.questions) return undefined;
    const answers: Record<string, string> = {};
    for (const [i, q] of r.questions.entries()) {
      const items = q.options.map((label, n) => ({ label: `${n + 1}. ${label}`, option: label }));
      const title = r.questions.length > 1 ? `${q.question} (${i + 1}/${r.questions.length})` : q.question;
      const picked = await ui.pick(items, { title, placeHolder: chooseHint(r.agent), ignoreFocusOut: true });
      if (!picked) return undefined;
      answers[q.question] = picked.option;
    }
    return this.send(r, { behavior: 'answer', answers });
  }

  /** Allow, once the user has seen the whole command and chosen Allow in the modal. */
  async allow(handle: string | undefined): Promise<AnswerOutcome | undefined> {
    const r = this.request(handle);
    if (!r) return undefined;
    const showTerminal = vscode.l10n.t('Show Terminal');
    const choice = await ui.confirm(allowQuestion(r.agent, this.nameOf(r)), permissionDetail(r.tool, r.input), showTerminal, allowButton());
    if (choice === showTerminal) this.terminals.terminalOf(r.terminalId)?.show(false);
    if (choice !== allowButton()) return undefined;
    return this.send(r, { behavior: 'allow' });
  }

  /** Deny, with what the model should do instead if the user writes it; Escape leaves the dialog open. */
  async deny(handle: string | undefined): Promise<AnswerOutcome | undefined> {
    const r = this.request(handle);
    if (!r) return undefined;
    const message = await ui.input({ title: vscode.l10n.t('Deny'), prompt: denyPrompt(r.agent), ignoreFocusOut: true });
    if (message === undefined) return undefined;
    return this.send(r, message.trim() ? { behavior: 'deny', message: message.trim() } : { behavior: 'deny' });
  }

  /** Whether a wait's dialog is offered now: its handle (for a notification's buttons, kept in memory) and kind. */
  offered(waitId: string): { handle: string; question: boolean } | undefined {
    const r = this.pending.offered(waitId);
    return r && { handle: r.handle, question: r.questions !== undefined };
  }

  private request(handle: string | undefined): PendingRequest | undefined {
    const r = handle ? this.pending.get(handle) : undefined;
    if (!r) void (handle && this.pending.holds(handle) ? ui.warn(ambiguousNotice()) : ui.info(goneNotice()));
    return r;
  }

  private send(r: PendingRequest, d: Decision): AnswerOutcome {
    const outcome = this.pending.answer(r.handle, d);
    // The command itself is not logged: it can hold a secret. Who, where and which option are.
    this.log.info(`answered from VS Code: ${decisionWord(d)} for ${r.agent} (${r.tool}) in “${printable(this.nameOf(r))}”: ${outcome}`);
    if (outcome === 'gone') void ui.info(goneNotice());
    if (outcome === 'ambiguous') void ui.warn(ambiguousNotice());
    return outcome;
  }

  private nameOf(r: PendingRequest): string {
    const t = this.store.terminal(r.terminalId);
    return t ? displayName(t, this.store.terminals()) : r.terminalId;
  }
}

function handleOf(row: { answerHandle?: unknown } | undefined): string | undefined {
  return row && typeof row === 'object' && typeof row.answerHandle === 'string' ? row.answerHandle : undefined;
}
