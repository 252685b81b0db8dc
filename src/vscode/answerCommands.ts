import * as vscode from 'vscode';
import { type Decision, decisionWord } from '../hooks/decision';
import {
  ALLOW_AFTER_MS,
  type AnswerOutcome,
  answerOffers,
  matchesScreen,
  type PendingAnswers,
  type PendingRequest,
} from '../answer/pending';
import type { KeyChoice } from '../answer/screenKeys';
import type { Wait } from '../store/waits';
import { whole } from '../views/untrusted';
import { KeyAnswers } from './keyAnswers';
import type { AgentStore } from '../store/store';
import {
  allowButton,
  allowQuestion,
  ambiguousNotice,
  chooseHint,
  denyPrompt,
  goneNotice,
  keyRefusedNotice,
  permissionDetail,
} from '../views/answerTexts';
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
  private readonly keys: KeyAnswers;

  constructor(
    private readonly pending: PendingAnswers,
    private readonly store: AgentStore,
    private readonly terminals: TerminalAdapter,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.keys = new KeyAnswers(store, terminals);
  }

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
    if (handle && this.keys.wait(handle)) return this.byKey(handle, 'allow');
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
    if (handle && this.keys.wait(handle)) return this.byKey(handle, 'deny');
    const r = this.request(handle);
    if (!r) return undefined;
    const message = await ui.input({ title: vscode.l10n.t('Deny'), prompt: denyPrompt(r.agent), ignoreFocusOut: true });
    if (message === undefined) return undefined;
    return this.send(r, message.trim() ? { behavior: 'deny', message: message.trim() } : { behavior: 'deny' });
  }

  /** Whether a wait's dialog is offered now: its handle (for a notification's buttons, kept in memory) and kind. */
  offered(waitId: string): { handle: string; question: boolean } | undefined {
    const r = this.pending.offered(waitId);
    if (r) return { handle: r.handle, question: r.questions !== undefined };
    const w = this.store.wait(waitId);
    const h = w && this.keys.offered(w);
    return h ? { handle: h, question: false } : undefined;
  }

  /** What the views offer, by wait id: a held request's handle, else a dialog answered by key (see KeyAnswers). */
  offers(waits: readonly Wait[], now: number): Map<string, { handle: string; allowReady: boolean }> {
    const out = answerOffers(
      this.pending,
      waits.map((w) => w.id),
      now,
    );
    // A held command the terminal does not show is a dialog that differs from the request: no buttons.
    for (const [id, o] of out) {
      const r = this.pending.get(o.handle);
      if (r && !matchesScreen(r, this.keys.screen(r.terminalId))) out.delete(id);
    }
    for (const w of waits) {
      const h = out.has(w.id) ? undefined : this.keys.offered(w);
      if (h) out.set(w.id, { handle: h, allowReady: now - w.openedAt >= ALLOW_AFTER_MS });
    }
    return out;
  }

  /** A dialog answered with its own key: Allow after the same modal; the key typed only as screenKeys allows. */
  private async byKey(handle: string, choice: KeyChoice): Promise<AnswerOutcome | undefined> {
    const w = this.keys.wait(handle)!;
    const name = this.nameOfTerminal(w.terminalId ?? '');
    if (choice === 'allow') {
      const showTerminal = vscode.l10n.t('Show Terminal');
      const detail = whole(w.detail ?? w.question ?? '');
      const picked = await ui.confirm(allowQuestion(w.agent, name), detail, showTerminal, allowButton());
      if (picked === showTerminal && w.terminalId) this.terminals.terminalOf(w.terminalId)?.show(false);
      if (picked !== allowButton()) return undefined;
    }
    const out = await this.keys.answer(handle, choice);
    if (out.ok && w.terminalId)
      this.pending.note({
        at: Date.now(),
        terminalId: w.terminalId,
        agent: w.agent,
        where: 'VS Code',
        option: `the key of “${out.option}”`,
      });
    this.log.info(
      `answered from VS Code by key: ${choice === 'allow' ? 'allow once' : 'deny'} for ${w.agent} in “${printable(name)}”: ${out.ok ? `“${printable(out.option)}”` : `nothing done: ${out.why}`}`,
    );
    if (!out.ok) void ui.warn(keyRefusedNotice(out.why, out.typed));
    return out.ok ? 'sent' : 'gone';
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
    return this.nameOfTerminal(r.terminalId);
  }

  private nameOfTerminal(id: string): string {
    const t = this.store.terminal(id);
    return t ? displayName(t, this.store.terminals()) : id;
  }
}

function handleOf(row: { answerHandle?: unknown } | undefined): string | undefined {
  return row && typeof row === 'object' && typeof row.answerHandle === 'string' ? row.answerHandle : undefined;
}
