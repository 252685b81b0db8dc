import { isAgent } from '../common/agents';
import type { TerminalState } from './types';
import type { Wait } from './waits';

/**
 * One definition of each idea the views, the badge, the status bar and the notifier share. Change a rule
 * here and every surface follows.
 */

/** An open wait: the agent asked for something and nobody has answered. Every kind counts, a reply that ends with a question too. */
export function needsYou(w: Wait): boolean {
  return w.closedAt === undefined && w.terminalId !== undefined;
}

/**
 * A wait Agent Lens may answer by typing into the terminal: only a reply that ends with a question, where
 * the agent reads a line of text. A dialog expects keys the TUI chooses; those are never guessed.
 */
export function answerableInline(w: Pick<Wait, 'kind'>): boolean {
  return w.kind === 'reply-question';
}

/**
 * A wait worth a notification: a dialog (not a reply that merely ends with a question, unless `replies` — a
 * channel that asked for them) that has been open `delayMs` since it appeared, in a terminal the user is not
 * looking at.
 */
export function worthNotifying(
  w: Wait,
  now: number,
  delayMs: number,
  focused: boolean,
  o: { anywhere?: boolean; replies?: boolean } = {},
): boolean {
  const open = o.anywhere ? w.closedAt === undefined : needsYou(w);
  return open && (o.replies || w.kind !== 'reply-question') && now - w.openedAt >= delayMs && !focused;
}

/**
 * A turn the user ended themselves: the screen's "stopped", or an outcome a log or hook words as the user's own
 * act (Esc: "interrupted"; a denied dialog: "permission rejected"). No news to them, so never told as a failure.
 */
export function stoppedByUser(o: { state: string; reason?: string }): boolean {
  return o.state === 'stopped' || (o.state === 'failed' && (o.reason === 'interrupted' || o.reason === 'permission rejected'));
}

/** When a wait becomes worth notifying, focus aside (epoch ms). */
export function notifyDue(w: Wait, delayMs: number): number {
  return w.openedAt + delayMs;
}

/** Most urgent first: who needs you, then failures, then work in progress, then the rest. */
export function urgency(t: Pick<TerminalState, 'agent' | 'state' | 'waitKind'>): number {
  if (!isAgent(t)) return 9;
  switch (t.state) {
    case 'waiting':
      return t.waitKind === 'reply-question' ? 1 : 0;
    case 'failed':
      return 2;
    case 'stopped':
      return 3;
    case 'completed':
      return 4;
    case 'working':
      return 5;
    case 'idle':
      return 6;
    case 'exited':
      return 7;
  }
}

export function byUrgency(a: TerminalState, b: TerminalState): number {
  return urgency(a) - urgency(b) || a.since - b.since;
}
