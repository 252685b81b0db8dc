import { randomBytes } from 'crypto';
import type { AgentKind } from '../common/agents';
import { Emitter, type Event } from '../common/emitter';
import { type AskedQuestion, type Decision, decisionWord, type HeldAnswer } from '../hooks/decision';
import { screenShows } from './screenKeys';

/**
 * One dialog an agent's hook holds open for an answer from VS Code. Its own record, made from the held
 * request alone: no other report merges into it, closes it or re-labels it.
 */
export interface PendingRequest {
  /** Unguessable and single-use; lives only in this process (never in a log, tooltip, API result or message). */
  readonly handle: string;
  readonly agent: AgentKind;
  readonly terminalId: string;
  /** The Needs-you wait this dialog is. */
  readonly waitId: string;
  readonly tool: string;
  /** The tool's whole input, as the hook received it: the confirmation shows it in full. */
  readonly input: Readonly<Record<string, unknown>>;
  /** A question dialog: its questions and their options, in the agent's order (answered by choosing). */
  readonly questions?: readonly AskedQuestion[];
  /** Epoch ms when the request came in: Allow is offered only a moment later. */
  readonly since: number;
}

/** Who answered a dialog, where, and which option: for the state history (never the command or the answer's text). */
export interface AnswerRecord {
  at: number;
  terminalId: string;
  agent: AgentKind;
  where: 'VS Code' | 'terminal';
  option: string;
}

/** Answers kept for the state history. */
const ANSWERS_KEPT = 50;

/** What became of an answer given in VS Code. */
export type AnswerOutcome = 'sent' | 'gone' | 'ambiguous';

/** How long a request must have been offered before its Allow button works: a click meant for another row lands nowhere. */
export const ALLOW_AFTER_MS = 1000;

interface Entry {
  request: PendingRequest;
  settle: (a: HeldAnswer) => void;
}

/**
 * The requests held open right now. A request is offered (buttons on its row) only while it is the one request
 * on its terminal and its wait is the terminal's open wait; two at once on a terminal is ambiguity, and then
 * neither is offered. Answering uses the handle once: the decision goes back only to the hook that asked.
 */
export class PendingAnswers {
  private readonly byHandle = new Map<string, Entry>();
  /** The latest answers, oldest first (the state history's "answered" lines). */
  readonly answered: AnswerRecord[] = [];
  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;

  /** Records a held request; `settle` answers its hook (once). */
  add(r: Omit<PendingRequest, 'handle'>, settle: (a: HeldAnswer) => void): PendingRequest {
    const request: PendingRequest = { ...r, handle: randomBytes(16).toString('hex') };
    this.byHandle.set(request.handle, { request, settle });
    this.changed.fire();
    return request;
  }

  /** Ends a request without a decision: its hook exits with nothing and the dialog stays in the terminal. */
  drop(handle: string): void {
    const e = this.byHandle.get(handle);
    if (!e) return;
    this.byHandle.delete(handle);
    e.settle({});
    this.changed.fire();
  }

  /** The request whose buttons a wait's row shows: the single one on its terminal, for this very wait. */
  offered(waitId: string): PendingRequest | undefined {
    const hit = [...this.byHandle.values()].find((e) => e.request.waitId === waitId)?.request;
    return hit && this.onTerminal(hit.terminalId).length === 1 ? hit : undefined;
  }

  /** Whether Allow may be pressed yet (see ALLOW_AFTER_MS). */
  static allowReady(r: PendingRequest, now: number): boolean {
    return now - r.since >= ALLOW_AFTER_MS;
  }

  /** Whether a handle's request is still held (answerable or not). */
  holds(handle: string): boolean {
    return this.byHandle.has(handle);
  }

  /** Whether any request of this terminal is held: then only a held request may be answered there, never keys. */
  heldOn(terminalId: string): boolean {
    return this.onTerminal(terminalId).length > 0;
  }

  /** The request behind a handle, while it is still held and unambiguous. */
  get(handle: string): PendingRequest | undefined {
    const e = this.byHandle.get(handle);
    return e && this.onTerminal(e.request.terminalId).length === 1 ? e.request : undefined;
  }

  /** Sends the user's decision to the hook that asked, once. */
  answer(handle: string, decision: Decision): AnswerOutcome {
    const e = this.byHandle.get(handle);
    if (!e) return 'gone';
    if (this.onTerminal(e.request.terminalId).length !== 1) return 'ambiguous';
    this.byHandle.delete(handle);
    e.settle({ decision });
    const r = e.request;
    this.note({ at: Date.now(), terminalId: r.terminalId, agent: r.agent, where: 'VS Code', option: decisionWord(decision) });
    this.changed.fire();
    return 'sent';
  }

  /** Records who answered a dialog and where (the state history). */
  note(a: AnswerRecord): void {
    this.answered.push(a);
    if (this.answered.length > ANSWERS_KEPT) this.answered.shift();
  }

  /** Requests held for a wait: all of them are dropped when it closes. */
  forWait(waitId: string): PendingRequest[] {
    return [...this.byHandle.values()].filter((e) => e.request.waitId === waitId).map((e) => e.request);
  }

  get size(): number {
    return this.byHandle.size;
  }

  /** Every hook gets its answer (nothing) when the window goes. */
  dispose(): void {
    for (const h of [...this.byHandle.keys()]) this.drop(h);
    this.changed.dispose();
  }

  private onTerminal(terminalId: string): Entry[] {
    return [...this.byHandle.values()].filter((e) => e.request.terminalId === terminalId);
  }
}

/** A held request as the views offer it: its handle, whether Allow is ready, whether it asks to choose. */
export interface HeldOffer {
  handle: string;
  allowReady: boolean;
  question: boolean;
  byKeys: false;
}

/** The waits answerable from here right now through their hook, for the views. */
export function answerOffers(pending: PendingAnswers, waitIds: Iterable<string>, now: number): Map<string, HeldOffer> {
  const out = new Map<string, HeldOffer>();
  for (const id of waitIds) {
    const r = pending.offered(id);
    if (r)
      out.set(id, { handle: r.handle, allowReady: PendingAnswers.allowReady(r, now), question: r.questions !== undefined, byKeys: false });
  }
  return out;
}

/**
 * Whether a held permission may be offered next to what its terminal shows: a request whose command the screen
 * does not show (another dialog drawn over it, a command changed since) gets no buttons. Requests without a
 * command (a question, a file edit) are not checked here.
 */
export function matchesScreen(r: Pick<PendingRequest, 'input' | 'questions'>, rows: readonly string[]): boolean {
  const command = r.input.command;
  return r.questions !== undefined || typeof command !== 'string' || screenShows(rows, command);
}
