import { arbitrate } from './arbitrate';
import { isPresenceOnly, isPromptRecord, startsOrContinuesTurn } from './arbitrationRules';
import type { Observation } from './observation';
import { mayEnd, mayReword, TRUST_RULES, trustOf } from './trustRules';
import { HISTORY_LIMIT, type Transition } from './types';
import { SessionWaits } from './waits';
import type { AgentKind } from '../common/agents';
import { isTerminalSource, type Source } from '../common/sources';

/** Turn starts kept per session for linking logs to terminals. */
const TURN_STARTS_KEPT = 16;

/** One agent session: each source's latest word, the shown state arbitrated from them, its waits and history. */
export class AgentSession {
  readonly words = new Map<Source, Observation>();
  readonly agentSessionIds = new Set<string>();
  /** Agent processes the kernel placed this session's hook reports in (verified senders' claimed agent). */
  readonly verifiedPids = new Set<number>();
  /** Turn starts seen by the terminal's own sources (screen, process), or by the log for an unlinked session. */
  readonly turnStarts: number[] = [];
  /** Epoch ms of the latest turn start any source reported (arbitration's floor). */
  private lastTurnStart = -Infinity;
  /** Epoch ms of the latest prompt the agent's own records (log, hook) took: an exact turn start. */
  private lastPrompt = -Infinity;
  readonly history: Transition[] = [];
  readonly waits: SessionWaits;
  shown: Observation | undefined;
  /** When the shown state began. */
  since = 0;
  terminalId: string | undefined;
  pinnedTerminal: string | undefined;
  cwd: string | undefined;
  lastSeen = 0;
  startedAt = Infinity;
  /** Words refused because they would have ended or re-worded a wait they may not (src/store/trustRules.ts). */
  refused = 0;

  constructor(
    readonly key: string,
    readonly agent: AgentKind,
    newWaitId: () => string,
  ) {
    this.waits = new SessionWaits(key, newWaitId);
  }

  get exited(): boolean {
    return this.shown?.state === 'exited';
  }

  /**
   * Whether this word may be recorded: every trusted one; an untrusted one unless, recorded, it would end the
   * open wait or give it another text where the wait's hold does not let it. A refused word is as if never said.
   */
  accepts(o: Observation): boolean {
    if (!TRUST_RULES[trustOf(o)].recorded) return false;
    const w = this.waits.open;
    const hold = this.waits.hold;
    if (!w || !hold) return true;
    const sameKind = o.state === 'waiting' && (o.wait?.kind ?? 'prompt') === w.kind;
    if (sameKind && o.wait?.question !== undefined && o.wait.question !== w.question && !mayReword(hold, w.kind, o)) return false;
    if (mayEnd(hold, o)) return true;
    const words = [...this.words.values()].filter((x) => x.source !== o.source);
    words.push(o);
    const turnStart = startsOrContinuesTurn(o) && !isPresenceOnly(o) ? Math.max(this.lastTurnStart, o.at) : this.lastTurnStart;
    const next = arbitrate(words, turnStart, isPromptRecord(o) ? Math.max(this.lastPrompt, o.at) : this.lastPrompt);
    return next?.state === 'waiting' && (next.wait?.kind ?? 'prompt') === w.kind;
  }

  /** Records a word the caller has checked with `accepts`. Returns true when the shown state or a wait changed. */
  observe(o: Observation): boolean {
    const prev = this.words.get(o.source);
    // Sources speak in order; a late backlog line older than the source's latest word changes nothing.
    if (prev && o.at < prev.at) return false;
    this.words.set(o.source, o);
    this.lastSeen = Math.max(this.lastSeen, o.at);
    this.startedAt = Math.min(this.startedAt, o.at);
    // The terminal's sources learn the agent's own folder after it started; a log names it from the start.
    if (o.locator.cwd && (!this.cwd || isTerminalSource(o.source))) this.cwd = o.locator.cwd;
    if (o.locator.sessionId) this.agentSessionIds.add(o.locator.sessionId);
    if (o.provenance === 'verified' && o.locator.pid !== undefined) this.verifiedPids.add(o.locator.pid);
    if (startsOrContinuesTurn(o) && !(prev && startsOrContinuesTurn(prev))) this.noteTurnStart(o.at);
    // Remembered past the source's next word: the screen's "working" of a new turn is gone once it says
    // "idle", but an outcome from before it still belongs to an earlier turn.
    if (startsOrContinuesTurn(o) && !isPresenceOnly(o)) this.lastTurnStart = Math.max(this.lastTurnStart, o.at);
    if (isPromptRecord(o)) this.lastPrompt = Math.max(this.lastPrompt, o.at);
    return this.rearbitrate();
  }

  /**
   * Whether a verified sender speaks for this session: only from the terminal it runs in, or, with no terminal
   * (a log's session, `agent-lens serve`), from the agent process its verified reports came from.
   */
  witnessedBy(o: Observation): boolean {
    if (this.terminalId !== undefined) return this.terminalId === o.locator.terminalId;
    return this.verifiedPids.size === 0 || (o.locator.pid !== undefined && this.verifiedPids.has(o.locator.pid));
  }

  /** Takes over what an unlinked session of the same agent learnt before it was linked here. */
  absorb(other: AgentSession): boolean {
    for (const id of other.agentSessionIds) this.agentSessionIds.add(id);
    for (const [src, o] of other.words) {
      const mine = this.words.get(src);
      if (!mine || mine.at <= o.at) {
        if (this.accepts(o)) this.words.set(src, o);
        else this.refused++;
      }
    }
    this.cwd ??= other.cwd;
    this.lastSeen = Math.max(this.lastSeen, other.lastSeen);
    this.lastTurnStart = Math.max(this.lastTurnStart, other.lastTurnStart);
    this.lastPrompt = Math.max(this.lastPrompt, other.lastPrompt);
    return this.rearbitrate();
  }

  /** Ends the session's waits (the terminal closed, another session took the terminal). */
  end(at: number): boolean {
    return this.waits.closeAll(this.shown, at);
  }

  wordsNewestFirst(): Observation[] {
    return [...this.words.values()].sort((a, b) => b.at - a.at);
  }

  private noteTurnStart(at: number): void {
    this.turnStarts.push(at);
    if (this.turnStarts.length > TURN_STARTS_KEPT) this.turnStarts.shift();
  }

  private rearbitrate(): boolean {
    const next = arbitrate([...this.words.values()], this.lastTurnStart, this.lastPrompt);
    const prev = this.shown;
    this.shown = next;
    let changed = prev !== next;
    if (next && (!prev || stateKey(prev) !== stateKey(next))) {
      this.since = next.at;
      this.history.push({
        at: next.at,
        agent: this.agent,
        state: next.state,
        source: next.source,
        evidence: next.evidence,
        reason: next.reason,
        waitKind: next.state === 'waiting' ? next.wait?.kind : undefined,
      });
      if (this.history.length > HISTORY_LIMIT) this.history.shift();
      changed = true;
    }
    return this.waits.update(next, [...this.words.values()], this.agent, this.terminalId) || changed;
  }
}

/** What the user sees as one state: a change of source alone keeps the time in state. */
function stateKey(o: Observation): string {
  return `${o.state}|${o.state === 'waiting' ? (o.wait?.kind ?? 'prompt') : ''}|${o.reason ?? ''}`;
}
