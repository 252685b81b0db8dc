import type { Observation, Provenance } from './observation';
import type { WaitKind } from '../common/states';

/**
 * Who may change a wait, apart from the code that applies it (src/store/session.ts, src/store/waits.ts).
 *
 * Any process in any terminal can send a hook report, and a report names its own terminal and session. A report
 * whose sender the kernel could not place (`unverified`) may still say that its agent asks for something, but it
 * may not end or re-word a wait that the terminal's own sources (screen, process scan), a verified report or
 * another agent session spoke for: a forged "the tool ran" would hide a dialog still on screen, and a forged
 * request would put another command's text on it.
 */

/** `own`: a word of Agent Lens's own sources (screen, process scan, logs) or of an in-process replay. */
export type Trust = Provenance | 'own';

export interface TrustRule {
  /** The word is kept at all. */
  recorded: boolean;
  /** Open waits it may end or replace by another kind: any; only one its own agent session opened and no trusted word has seen; none. */
  ends: 'any' | 'own-session' | 'none';
  /** It may change the text of an open permission wait it may end (the text is what the user would approve). */
  rewordsPermission: boolean;
  /** A wait it opens or sees is then out of reach of words that may end only their own session's waits. */
  holds: boolean;
}

export const TRUST_RULES: Record<Trust, TrustRule> = {
  own: { recorded: true, ends: 'any', rewordsPermission: true, holds: true },
  verified: { recorded: true, ends: 'any', rewordsPermission: true, holds: true },
  unverified: { recorded: true, ends: 'own-session', rewordsPermission: false, holds: false },
  disproven: { recorded: false, ends: 'none', rewordsPermission: false, holds: false },
};

export function trustOf(o: Observation): Trust {
  return o.provenance ?? 'own';
}

/** Who has spoken for an open wait: set when it opens, raised when a trusted word sees it, never lowered. */
export interface WaitHold {
  /** A trusted word opened or saw it. */
  held: boolean;
  /** The agent session of the untrusted word that opened it. */
  sessionId?: string;
  /** Its text, and its choices, came from a trusted word. */
  textHeld: boolean;
  optionsHeld: boolean;
}

export function holdFor(opener: Observation): WaitHold {
  const trusted = TRUST_RULES[trustOf(opener)].holds;
  return { held: trusted, textHeld: false, optionsHeld: false, ...(trusted ? {} : { sessionId: opener.locator.sessionId }) };
}

/** A trusted word saw the wait (with its text, its choices): raises the hold. Returns true when it changed. */
export function raiseHold(h: WaitHold, o: Observation): boolean {
  if (!TRUST_RULES[trustOf(o)].holds) return false;
  const before = `${h.held}${h.textHeld}${h.optionsHeld}`;
  h.held = true;
  h.textHeld ||= o.wait?.question !== undefined;
  h.optionsHeld ||= (o.wait?.options?.length ?? 0) > 0;
  return before !== `${h.held}${h.textHeld}${h.optionsHeld}`;
}

export function mayEnd(h: WaitHold, o: Observation): boolean {
  const rule = TRUST_RULES[trustOf(o)];
  if (rule.ends === 'any') return true;
  if (rule.ends === 'none') return false;
  return !h.held && h.sessionId !== undefined && h.sessionId === o.locator.sessionId;
}

/** May give an open wait of this kind another text than the one it has (or has not). */
export function mayReword(h: WaitHold, kind: WaitKind, o: Observation): boolean {
  return mayEnd(h, o) && (kind !== 'permission' || TRUST_RULES[trustOf(o)].rewordsPermission);
}

/** A trusted text (or choices) replaces what an untrusted word gave; the first trusted one stays. */
export function replacesText(h: WaitHold, o: Observation, what: 'question' | 'options'): boolean {
  return !(what === 'question' ? h.textHeld : h.optionsHeld) && TRUST_RULES[trustOf(o)].holds;
}
