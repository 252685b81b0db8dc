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
import type { KeyChoice, KeyOutcome } from '../answer/screenKeys';
import type { Wait } from '../store/waits';
import type { AnswerOffer } from '../views/model';
import { whole } from '../views/untrusted';
import { KeyAnswers } from './keyAnswers';
import type { AgentStore } from '../store/store';
import {
  allowButton,
  allowQuestion,
  ambiguousNotice,
  chooseButton,
  chooseHint,
  chooseQuestion,
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
    /** `agentLens.answer.fromVSCode` as it is now: off, nothing is offered, by hook or by keys. */
    private readonly enabled: () => boolean,
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

  /** A row's or notification's handle while answering is on; turned off since, none (nothing is answered). */
  private live(handle: string | undefined): string | undefined {
    return this.enabled() ? handle : undefined;
  }

  /** A question dialog: one of its own options per question, picked in the agent's order; Escape answers nothing. */
  async choose(given: string | undefined): Promise<AnswerOutcome | undefined> {
    const handle = this.live(given);
    if (handle && this.keys.menu(handle)) return this.byMenu(handle);
    const r = this.request(handle);
    if (!r?.questions) return undefined;
    const answers: Record<string, string> = {};
    for (const [i, q] of r.questions.entries()) {
      const title = r.questions.length > 1 ? `${q.question} (${i + 1}/${r.questions.length})` : q.question;
      const picked = await pickOption(q.options, title, r.agent);
      if (picked === undefined) return undefined;
      answers[q.question] = picked;
    }
    return this.send(r, { behavior: 'answer', answers });
  }

  /** Allow, once the user has seen the whole command and chosen Allow in the modal. */
  async allow(given: string | undefined): Promise<AnswerOutcome | undefined> {
    const handle = this.live(given);
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
  async deny(given: string | undefined): Promise<AnswerOutcome | undefined> {
    const handle = this.live(given);
    if (handle && this.keys.wait(handle)) return this.byKey(handle, 'deny');
    const r = this.request(handle);
    if (!r) return undefined;
    const message = await ui.input({ title: vscode.l10n.t('Deny'), prompt: denyPrompt(r.agent), ignoreFocusOut: true });
    if (message === undefined) return undefined;
    return this.send(r, message.trim() ? { behavior: 'deny', message: message.trim() } : { behavior: 'deny' });
  }

  /** Whether a wait's dialog is offered now: its handle (for a notification's buttons, kept in memory) and kind. */
  offered(waitId: string): Offer | undefined {
    const w = this.store.wait(waitId);
    return w && this.offerOf(w, this.pending.offered(waitId)?.handle);
  }

  /** What the views offer, by wait id: a held request's handle, else a dialog answered by key (see KeyAnswers). */
  offers(waits: readonly Wait[], now: number): Map<string, AnswerOffer> {
    this.keys.prune();
    const held = answerOffers(
      this.pending,
      waits.map((w) => w.id),
      now,
    );
    const out = new Map<string, AnswerOffer>();
    for (const w of waits) {
      const o = this.offerOf(w, held.get(w.id)?.handle);
      if (o) out.set(w.id, { ...o, allowReady: held.get(w.id)?.allowReady ?? now - w.openedAt >= ALLOW_AFTER_MS });
    }
    return out;
  }

  /**
   * The one rule of what is offered: a held request whose command the terminal shows (one it does not show is a
   * dialog that differs from the request: nothing), else a dialog answered by key.
   */
  private offerOf(w: Wait, heldHandle: string | undefined): Offer | undefined {
    if (!this.enabled()) return undefined;
    const r = heldHandle ? this.pending.get(heldHandle) : undefined;
    if (r)
      return matchesScreen(r, this.keys.screen(r.terminalId))
        ? { handle: r.handle, question: r.questions !== undefined, byKeys: false }
        : undefined;
    // A dialog whose hook holds it (ambiguously, say) is answered through the hook or in the terminal, never by keys.
    if (w.terminalId && this.pending.heldOn(w.terminalId)) return undefined;
    const k = this.keys.offered(w);
    return k && { handle: k.handle, question: k.menu, byKeys: true };
  }

  /**
   * A selector dialog answered with the arrow keys and Enter: the option picked from the dialog as it was offered,
   * then confirmed in a modal that shows the dialog's whole text, whose default button shows the terminal.
   */
  private async byMenu(handle: string): Promise<AnswerOutcome | undefined> {
    const w = this.keys.wait(handle)!;
    const menu = this.keys.menu(handle)!;
    const name = this.nameOfTerminal(w.terminalId ?? '');
    const picked = await pickOption(menu.options, menu.title, w.agent);
    if (picked === undefined) return undefined;
    const showTerminal = vscode.l10n.t('Show Terminal');
    const yes = chooseButton(picked);
    const sure = await ui.confirm(chooseQuestion(w.agent, name, picked), whole(menu.title), showTerminal, yes);
    if (sure === showTerminal && w.terminalId) this.terminals.terminalOf(w.terminalId)?.show(false);
    if (sure !== yes) return undefined;
    return this.keyDone(w, 'choose', await this.keys.choose(handle, menu, picked));
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
    return this.keyDone(w, choice, await this.keys.answer(handle, choice));
  }

  /** After keys were typed (or refused): the answered log, the output channel, and a warning when nothing happened. */
  private keyDone(w: Wait, choice: KeyChoice | 'choose', out: KeyOutcome): AnswerOutcome {
    const name = this.nameOfTerminal(w.terminalId ?? '');
    if (out.ok && w.terminalId)
      this.pending.note({
        at: Date.now(),
        terminalId: w.terminalId,
        agent: w.agent,
        where: 'VS Code',
        option: `the key${choice === 'choose' ? 's' : ''} of “${out.option}”`,
      });
    const what = choice === 'allow' ? 'allow once' : choice;
    this.log.info(
      `answered from VS Code by key: ${what} for ${w.agent} in “${printable(name)}”: ${out.ok ? `“${printable(out.option)}”` : `nothing done: ${out.why}`}`,
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

/** A dialog offered for an answer from here: its handle, and whether it is a question and answered by keys. */
type Offer = Omit<AnswerOffer, 'allowReady'>;

/** One option of a dialog, in the agent's order, picked in a quick pick; undefined on Escape. */
async function pickOption(options: readonly string[], title: string, agent: Wait['agent']): Promise<string | undefined> {
  const items = options.map((label, n) => ({ label: `${n + 1}. ${label}`, option: label }));
  return (await ui.pick(items, { title, placeHolder: chooseHint(agent), ignoreFocusOut: true }))?.option;
}

function handleOf(row: { answerHandle?: unknown } | undefined): string | undefined {
  return row && typeof row === 'object' && typeof row.answerHandle === 'string' ? row.answerHandle : undefined;
}
