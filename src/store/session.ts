import type { AgentKind } from '../detect/types';
import { arbitrate } from './arbitrate';
import { isPresenceOnly, startsOrContinuesTurn } from './arbitrationRules';
import type { Observation, Source } from './observation';
import { HISTORY_LIMIT, type Transition } from './types';
import { SessionWaits } from './waits';

/** Turn starts kept per session for linking logs to terminals. */
const TURN_STARTS_KEPT = 16;

/** One agent session: each source's latest word, the shown state arbitrated from them, its waits and history. */
export class AgentSession {
  readonly words = new Map<Source, Observation>();
  readonly agentSessionIds = new Set<string>();
  /** Turn starts seen by the terminal's own sources (screen, process), or by the log for an unlinked session. */
  readonly turnStarts: number[] = [];
  /** Epoch ms of the latest turn start any source reported (arbitration's floor). */
  private lastTurnStart = -Infinity;
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

  /** Records a word. Returns true when the shown state or a wait changed. */
  observe(o: Observation): boolean {
    const prev = this.words.get(o.source);
    // Sources speak in order; a late backlog line older than the source's latest word changes nothing.
    if (prev && o.at < prev.at) return false;
    this.words.set(o.source, o);
    this.lastSeen = Math.max(this.lastSeen, o.at);
    this.startedAt = Math.min(this.startedAt, o.at);
    // The terminal's sources learn the agent's own folder after it started; a log names it from the start.
    if (o.locator.cwd && (!this.cwd || o.source === 'pty-scrape' || o.source === 'process')) this.cwd = o.locator.cwd;
    if (o.locator.sessionId) this.agentSessionIds.add(o.locator.sessionId);
    if (startsOrContinuesTurn(o) && !(prev && startsOrContinuesTurn(prev))) this.noteTurnStart(o.at);
    // Remembered past the source's next word: the screen's "working" of a new turn is gone once it says
    // "idle", but an outcome from before it still belongs to an earlier turn.
    if (startsOrContinuesTurn(o) && !isPresenceOnly(o)) this.lastTurnStart = Math.max(this.lastTurnStart, o.at);
    return this.rearbitrate();
  }

  /** Takes over what an unlinked session of the same agent learnt before it was linked here. */
  absorb(other: AgentSession): boolean {
    for (const id of other.agentSessionIds) this.agentSessionIds.add(id);
    for (const [src, o] of other.words) {
      const mine = this.words.get(src);
      if (!mine || mine.at <= o.at) this.words.set(src, o);
    }
    this.cwd ??= other.cwd;
    this.lastSeen = Math.max(this.lastSeen, other.lastSeen);
    this.lastTurnStart = Math.max(this.lastTurnStart, other.lastTurnStart);
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
    const next = arbitrate([...this.words.values()], this.lastTurnStart);
    const prev = this.shown;
    this.shown = next;
    let changed = prev !== next;
    if (next && (!prev || stateKey(prev) !== stateKey(next))) {
      this.since = next.at;
      this.history.push({ at: next.at, agent: this.agent, state: next.state, source: next.source, evidence: next.evidence, reason: next.reason, waitKind: next.state === 'waiting' ? next.wait?.kind : undefined });
      if (this.history.length > HISTORY_LIMIT) this.history.shift();
      changed = true;
    }
    return this.waits.update(next, [...this.words.values()], this.agent, this.terminalId) || changed;
  }
}

/** What the user sees as one state: a change of source alone keeps the time in state. */
function stateKey(o: Observation): string {
  return `${o.state}|${o.state === 'waiting' ? o.wait?.kind ?? 'prompt' : ''}|${o.reason ?? ''}`;
}
