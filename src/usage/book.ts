import type { AgentKind } from '../common/agents';
import { Emitter } from '../common/emitter';
import type { LogEvent } from '../jsonl/types';
import { addTokens, type CallUsage, NO_TOKENS, type Tokens, totalTokens, type UsageRecord, type UsageSink } from '../common/usage';

/** Sessions kept; the least recently active drop off first (a long-lived window sees hundreds of sessions). */
export const MAX_SESSIONS = 500;
/** Finished turns kept per session for the sparkline and the durations. */
export const TURNS_KEPT = 40;
/** Calls remembered for replacement; Claude and OpenCode only ever rewrite their newest ones. */
const CALLS_KEPT = 64;

/** One agent session's use, as its log has told it so far. */
export interface SessionUsage {
  readonly agent: AgentKind;
  readonly sessionId: string;
  model?: string;
  tokens: Tokens;
  /** The same tokens by model, for a cost estimate when the session switched models. */
  readonly byModel: Map<string, Tokens>;
  /** Calls with tokens, and how many of them the log priced itself (`loggedCost` is their sum). */
  calls: number;
  pricedCalls: number;
  loggedCost: number;
  contextUsed?: number;
  /** Only where the log says it; the model table gives the rest (figures.ts). */
  contextWindow?: number;
  /** Where the agent's own fill leaves a baseline out (types.ts). */
  contextBaseline?: number;
  turns: number;
  /** Tokens and wall time of each finished turn, oldest first, at most TURNS_KEPT. */
  readonly turnTokens: number[];
  readonly turnMs: number[];
  lastReply?: string;
  /** Its log was first read from the tail (a session already running when the window opened): totals are since then. */
  partial?: boolean;
  updatedAt: number;
  /** The turn in progress: when it started and the session's token total then. */
  open?: { at: number; tokensAtStart: number };
  /** The token total when the last turn ended. */
  endedAt?: number;
  /** Recent calls by id, so a rewritten call replaces its earlier figures. */
  readonly recent: Map<string, CallUsage & { model?: string }>;
}

export function usageKey(agent: string, sessionId: string): string {
  return `${agent}\u0000${sessionId}`;
}

/**
 * Every agent session's use, added up from what the decoders read. It keeps no log text but the last reply, and a
 * bounded number of sessions, turns and calls: a week-long window costs the same as a fresh one.
 */
export class UsageBook implements UsageSink {
  private readonly sessions = new Map<string, SessionUsage>();
  /** The session the last record was for (the most recent in `sessions`). */
  private last: SessionUsage | undefined;
  private readonly changed = new Emitter<SessionUsage>();
  /** Fired after each record or turn that changed a session (the adapter coalesces repaints). */
  readonly onDidChange = this.changed.event;

  get(agent: string, sessionId: string): SessionUsage | undefined {
    return this.sessions.get(usageKey(agent, sessionId));
  }

  all(): SessionUsage[] {
    return [...this.sessions.values()];
  }

  usage(r: UsageRecord): void {
    const s = this.session(r.agent, r.sessionId, r.at);
    if (r.model) s.model = r.model;
    if (r.call) this.addCall(s, r.call, r.model ?? s.model);
    if (r.totals) this.setTotals(s, r.totals);
    if (r.contextUsed !== undefined) s.contextUsed = r.contextUsed;
    if (r.contextWindow !== undefined) s.contextWindow = r.contextWindow;
    if (r.contextBaseline !== undefined) s.contextBaseline = r.contextBaseline;
    if (r.reply !== undefined && r.reply.trim() !== '') s.lastReply = r.reply;
    if (r.partial) s.partial = true;
    this.changed.fire(s);
  }

  /** A decoded state event: a prompt opens a turn, a completed or failed one closes it. */
  event(e: LogEvent): void {
    if (e.state === 'working' && !e.prompt) return;
    const s = this.session(e.agent, e.sessionId, e.at);
    const total = totalTokens(s.tokens);
    if (e.state === 'working') {
      s.open = { at: e.at, tokensAtStart: total };
    } else if (s.open) {
      s.turns++;
      keep(s.turnTokens, total - s.open.tokensAtStart);
      keep(s.turnMs, Math.max(0, e.at - s.open.at));
      s.open = undefined;
      s.endedAt = total;
    } else if (total > (s.endedAt ?? 0)) {
      // A log that tells ends only (Continue's file has no prompt record): a turn of the tokens since the last end,
      // of unknown length.
      s.turns++;
      keep(s.turnTokens, total - (s.endedAt ?? 0));
      s.endedAt = total;
    } else return; // a second end for the same turn (a failure after its completion) added nothing: not a turn
    this.changed.fire(s);
  }

  dispose(): void {
    this.changed.dispose();
  }

  private session(agent: AgentKind, sessionId: string, at: number): SessionUsage {
    // Most records are the newest session's again (one log appended at a time): it is already the most recent.
    const last = this.last;
    if (last && last.sessionId === sessionId && last.agent === agent) {
      if (at > last.updatedAt) last.updatedAt = at;
      return last;
    }
    const key = usageKey(agent, sessionId);
    let s = this.sessions.get(key);
    if (s)
      this.sessions.delete(key); // re-inserted below: Map order is recency
    else s = blank(agent, sessionId);
    s.updatedAt = Math.max(s.updatedAt, at);
    this.sessions.set(key, s);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    this.last = s;
    return s;
  }

  private addCall(s: SessionUsage, call: CallUsage, model: string | undefined): void {
    const before = s.recent.get(call.id);
    if (before) {
      s.recent.delete(call.id);
      this.count(s, before.tokens, before.model, -1);
      if (before.cost !== undefined) {
        s.loggedCost -= before.cost;
        s.pricedCalls--;
      }
      s.calls--;
    }
    this.count(s, call.tokens, model, 1);
    s.calls++;
    if (call.cost !== undefined) {
      s.loggedCost += call.cost;
      s.pricedCalls++;
    }
    s.recent.set(call.id, { ...call, model });
    if (s.recent.size > CALLS_KEPT) s.recent.delete(s.recent.keys().next().value as string);
  }

  private count(s: SessionUsage, t: Tokens, model: string | undefined, sign: number): void {
    addInto(s.tokens, t, sign);
    const m = model ?? '';
    const per = s.byModel.get(m);
    if (per) addInto(per, t, sign);
    else s.byModel.set(m, addTokens(NO_TOKENS, t, sign));
  }

  /** The agent's own running totals: what they add since the last ones is the current model's. */
  private setTotals(s: SessionUsage, totals: Tokens): void {
    const delta = addTokens(totals, s.tokens, -1);
    const grew = delta.input >= 0 && delta.output >= 0 && delta.cacheRead >= 0 && delta.cacheWrite >= 0;
    if (!grew) s.byModel.clear(); // the agent restarted its count (a resumed session): its totals rule
    const m = s.model ?? '';
    s.byModel.set(m, addTokens(s.byModel.get(m) ?? NO_TOKENS, grew ? delta : totals));
    s.tokens = { ...totals };
  }
}

function blank(agent: AgentKind, sessionId: string): SessionUsage {
  return {
    agent,
    sessionId,
    tokens: { ...NO_TOKENS },
    byModel: new Map(),
    calls: 0,
    pricedCalls: 0,
    loggedCost: 0,
    turns: 0,
    turnTokens: [],
    turnMs: [],
    updatedAt: 0,
    recent: new Map(),
  };
}

/** `a += sign × b`, in place: a record's sums without a new object per record. */
function addInto(a: Tokens, b: Tokens, sign: number): void {
  a.input += sign * b.input;
  a.output += sign * b.output;
  a.cacheRead += sign * b.cacheRead;
  a.cacheWrite += sign * b.cacheWrite;
}

function keep(list: number[], v: number): void {
  list.push(v);
  if (list.length > TURNS_KEPT) list.shift();
}
