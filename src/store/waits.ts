import type { Observation } from './observation';
import { holdFor, mayEnd, raiseHold, replacesText, type WaitHold } from './trustRules';
import type { AgentKind } from '../common/agents';
import type { WaitKind } from '../common/states';
import type { Source } from '../common/sources';

/** A wait: the agent asked for something. First-class: views, the badge and notifications read it by id. */
export interface Wait {
  id: string;
  sessionKey: string;
  terminalId?: string;
  agent: AgentKind;
  kind: WaitKind;
  question?: string;
  options?: string[];
  /** A permission's command as the agent's hook reported it, whole (what a dialog answered by key must show). */
  detail?: string;
  /** Epoch ms, on the clock of the source that saw it first. */
  openedAt: number;
  openedBy: Source;
  /** Every source that has reported this wait. */
  seenBy: Source[];
  closedAt?: number;
  closedBy?: Source;
}

/** Closed waits kept per session for history. */
const CLOSED_KEPT = 20;

/**
 * The waits of one agent session, derived from its shown state: the shown state entering "waiting" opens a
 * wait, any source's waiting word of the same kind confirms it and fills in the question, and the shown
 * state leaving "waiting" (or changing kind) closes it, by the source that moved it. Who may end or re-word
 * the open wait is kept beside it (src/store/trustRules.ts); the session refuses words that may not.
 */
export class SessionWaits {
  private openWait: Wait | undefined;
  private openHold: WaitHold | undefined;
  private readonly closed: Wait[] = [];

  constructor(
    private readonly sessionKey: string,
    private readonly newId: () => string,
  ) {}

  get open(): Wait | undefined {
    return this.openWait;
  }

  get history(): readonly Wait[] {
    return this.closed;
  }

  /** Who has spoken for the open wait. */
  get hold(): WaitHold | undefined {
    return this.openHold;
  }

  /** Brings the waits in line with the shown word and the words behind it. Returns true when anything changed. */
  update(shown: Observation | undefined, words: readonly Observation[], agent: AgentKind, terminalId: string | undefined): boolean {
    const kind = shown?.state === 'waiting' ? (shown.wait?.kind ?? 'prompt') : undefined;
    let changed = false;
    if (this.openWait && (kind === undefined || kind !== this.openWait.kind)) {
      this.close(shown, shown?.at ?? this.openWait.openedAt);
      changed = true;
    }
    if (kind && shown && !this.openWait) {
      this.openWait = {
        id: this.newId(),
        sessionKey: this.sessionKey,
        terminalId,
        agent,
        kind,
        openedAt: shown.at,
        openedBy: shown.source,
        seenBy: [shown.source],
      };
      this.openHold = holdFor(shown);
      changed = true;
    }
    const w = this.openWait;
    if (!w) return changed;
    if (w.terminalId !== terminalId) {
      w.terminalId = terminalId;
      changed = true;
    }
    // A word from before the previous wait closed is about that one (a hook that never said it ended).
    const after = this.closed.at(-1)?.closedAt ?? -Infinity;
    for (const o of words)
      if (o.state === 'waiting' && o.at > after && (o.wait?.kind ?? 'prompt') === w.kind) changed = this.confirm(w, o) || changed;
    return changed;
  }

  /** The session ended: whatever it asked is moot. */
  closeAll(by: Observation | undefined, at: number): boolean {
    if (!this.openWait) return false;
    this.close(by, at);
    return true;
  }

  /** A word about the open wait: who saw it, since when, and its text where this word may give one. */
  private confirm(w: Wait, o: Observation): boolean {
    const hold = this.openHold!;
    // Only a word that may end the wait may also date or word it; a trusted text replaces an untrusted one.
    const speaks = mayEnd(hold, o);
    let changed = false;
    if (!w.seenBy.includes(o.source)) {
      w.seenBy.push(o.source);
      changed = true;
    }
    // The screen sees a dialog first; a later source (a hook) may know it opened earlier.
    if (o.at < w.openedAt && speaks) {
      w.openedAt = o.at;
      w.openedBy = o.source;
      changed = true;
    }
    const q = o.wait?.question;
    if (q && q !== w.question && (w.question === undefined ? speaks : replacesText(hold, o, 'question'))) {
      w.question = q;
      changed = true;
    }
    // Only the agent's own hook knows the command; the screen's reading of a dialog never sets it.
    const detail = o.source === 'hook' ? o.wait?.detail : undefined;
    if (detail && w.detail === undefined && speaks) {
      w.detail = detail;
      changed = true;
    }
    const opts = o.wait?.options;
    if (
      opts?.length &&
      opts.join('\n') !== w.options?.join('\n') &&
      (w.options === undefined ? speaks : replacesText(hold, o, 'options'))
    ) {
      w.options = [...opts];
      changed = true;
    }
    return raiseHold(hold, o) || changed;
  }

  private close(by: Observation | undefined, at: number): void {
    const w = this.openWait!;
    w.closedAt = Math.max(at, w.openedAt);
    w.closedBy = by?.source;
    this.openWait = undefined;
    this.openHold = undefined;
    this.closed.push(w);
    if (this.closed.length > CLOSED_KEPT) this.closed.shift();
  }
}
