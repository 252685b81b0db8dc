import { type Clock, wallClock } from '../common/scheduler';
import { randomBytes } from 'crypto';
import { chooseTerminal, type TerminalCandidate } from './binder';
import { Emitter, type Event } from '../common/emitter';
import { printable } from '../common/printable';
import { isTerminalSource } from '../common/sources';
import { type Observation } from './observation';
import { AgentSession } from './session';
import { TRUST_RULES, trustOf } from './trustRules';
import type { SessionSummary, StateChange, TerminalState } from './types';
import type { Wait } from './waits';
import { type AgentKind, isAgentKind } from '../common/agents';
import { type Logger } from '../common/log';

/** Sessions not linked to a terminal that are kept (a log seen before its terminal, other programs' agents). */
const UNLINKED_KEPT = 200;

interface TerminalRecord {
  id: string;
  name: string;
  session: AgentSession | undefined;
  /** The terminal source's last word while no agent runs. */
  shellWord: Observation | undefined;
  view: TerminalState;
}

export interface StoreOptions {
  clock?: Clock;
  /** How many processes of this agent run in this folder on this machine (undefined: cannot tell). */
  agentsInFolder?: (agent: AgentKind, cwd: string) => number | undefined;
  log?: Logger;
}

/**
 * The one store every source feeds and every view reads. Sources send observations (each on its own clock,
 * with whatever locator it knows); the store keeps each source's latest word per agent session, shows what
 * `arbitrate` decides, holds waits as entries with ids, and links sessions seen elsewhere to terminals.
 */
export class AgentStore {
  private readonly terminalsById = new Map<string, TerminalRecord>();
  private readonly byAgentSession = new Map<string, AgentSession>();
  private readonly unlinked = new Set<AgentSession>();
  private readonly changed = new Emitter<StateChange>();
  private readonly waitsChanged = new Emitter<Wait>();
  private readonly sessionsChanged = new Emitter<SessionSummary>();
  readonly onDidChange: Event<StateChange> = this.changed.event;
  /** A session's shown state or waits changed, whether or not it runs in a known terminal (`agent-lens serve`). */
  readonly onDidChangeSession: Event<SessionSummary> = this.sessionsChanged.event;
  /** A wait opened, was confirmed or filled in by another source, or closed. */
  readonly onDidChangeWait: Event<Wait> = this.waitsChanged.event;
  private readonly prefix = randomBytes(3).toString('hex');
  private counter = 0;
  private readonly clock: Clock;
  /** Agents the user switched off (`agentLens.agents`): every source's words are kept, none is shown. */
  private off: ReadonlySet<AgentKind> = new Set();

  constructor(private readonly opts: StoreOptions = {}) {
    this.clock = opts.clock ?? wallClock;
  }

  openTerminal(id: string, name: string): TerminalState {
    const known = this.terminalsById.get(id);
    if (known) return known.view;
    const rec: TerminalRecord = { id, name, session: undefined, shellWord: undefined, view: undefined! };
    rec.view = this.viewOf(rec);
    this.terminalsById.set(id, rec);
    this.changed.fire({ id, current: rec.view });
    return rec.view;
  }

  renameTerminal(id: string, name: string): void {
    const rec = this.terminalsById.get(id);
    if (!rec || rec.name === name) return;
    rec.name = name;
    this.refresh(rec);
  }

  closeTerminal(id: string): void {
    const rec = this.terminalsById.get(id);
    if (!rec) return;
    this.terminalsById.delete(id);
    if (rec.session) this.endSession(rec.session);
    this.changed.fire({ id, previous: rec.view });
  }

  observe(o: Observation): void {
    if (!TRUST_RULES[trustOf(o)].recorded) return;
    const tid = o.locator.terminalId;
    const rec = tid !== undefined ? this.terminalsById.get(tid) : undefined;
    const trusted = TRUST_RULES[trustOf(o)].holds;
    if (rec && !isAgentKind(o.agent)) return trusted ? this.shellWord(rec, o) : undefined;
    if (!isAgentKind(o.agent)) return;
    const known = this.knownElsewhere(o, rec);
    // A verified sender in one terminal (or agent process) is no witness for a session of another.
    const word = known && trustOf(o) === 'verified' && !known.witnessedBy(o) ? { ...o, provenance: 'unverified' as const } : o;
    const session = known ?? (rec ? this.terminalSession(rec, word) : this.sessionFor(word));
    if (!session) return;
    if (!session.accepts(word)) {
      session.refused++;
      return;
    }
    this.indexIds(session, word);
    const before = session.waits.open;
    if (session.observe(word)) this.sessionChanged(session, before);
    if (rec && session.turnStarts.at(-1) === o.at) this.tryLinkAll();
    else if (!session.terminalId) this.tryLink(session);
  }

  /**
   * Switches agents off or on again, at once for every source and surface: a switched-off agent's terminal shows
   * a shell, its waits are in no list and notify nobody. Its words are still recorded, so switching it back on
   * shows where it is now, waits included, without waiting for its next word.
   */
  setSwitchedOff(agents: Iterable<AgentKind>): void {
    const next = new Set(agents);
    const flipped = new Set([...next, ...this.off].filter((a) => next.has(a) !== this.off.has(a)));
    if (!flipped.size) return;
    this.off = next;
    for (const rec of this.terminalsById.values()) if (rec.session && flipped.has(rec.session.agent)) this.refresh(rec);
    for (const s of this.allSessions()) if (s.waits.open && flipped.has(s.agent)) this.waitsChanged.fire(s.waits.open);
  }

  /** Whether this agent is switched off. */
  isSwitchedOff(agent: AgentKind): boolean {
    return this.off.has(agent);
  }

  /** The store has heard of this agent session (by the agent's own id). */
  knowsAgentSession(agent: AgentKind, id: string): boolean {
    return this.byAgentSession.has(`${agent}:${id}`);
  }

  /** The terminal an agent session (by the agent's own id) is linked to, if any. */
  terminalOfAgentSession(agent: AgentKind, id: string): string | undefined {
    return this.byAgentSession.get(`${agent}:${id}`)?.terminalId;
  }

  terminal(id: string): TerminalState | undefined {
    return this.terminalsById.get(id)?.view;
  }

  terminals(): TerminalState[] {
    return [...this.terminalsById.values()].map((r) => r.view);
  }

  /** Open waits, oldest first. */
  waits(): Wait[] {
    const out: Wait[] = [];
    for (const s of this.allSessions()) if (s.waits.open && s.terminalId && !this.off.has(s.agent)) out.push(s.waits.open);
    return out.sort((a, b) => a.openedAt - b.openedAt);
  }

  wait(id: string): Wait | undefined {
    for (const s of this.allSessions()) {
      if (this.off.has(s.agent)) continue;
      if (s.waits.open?.id === id) return s.waits.open;
      const closed = s.waits.history.find((w) => w.id === id);
      if (closed) return closed;
    }
    return undefined;
  }

  sessions(): SessionSummary[] {
    return [...this.allSessions()].map(summaryOf);
  }

  /** One session by the store's key, without copying every other. */
  session(key: string): SessionSummary | undefined {
    for (const s of this.allSessions()) if (s.key === key) return summaryOf(s);
    return undefined;
  }

  dispose(): void {
    this.changed.dispose();
    this.waitsChanged.dispose();
    this.sessionsChanged.dispose();
    this.terminalsById.clear();
    this.byAgentSession.clear();
    this.unlinked.clear();
  }

  private *allSessions(): Iterable<AgentSession> {
    const seen = new Set<AgentSession>();
    for (const r of this.terminalsById.values()) if (r.session) seen.add(r.session);
    for (const s of this.byAgentSession.values()) seen.add(s);
    for (const s of this.unlinked) seen.add(s);
    yield* seen;
  }

  private newKey(kind: string): string {
    return `${kind}-${this.prefix}-${++this.counter}`;
  }

  /** No agent in the terminal (any more): it shows a shell; the agent session it had stays for history. */
  private shellWord(rec: TerminalRecord, o: Observation): void {
    rec.shellWord = o;
    if (rec.session) {
      this.endSession(rec.session);
      rec.session.terminalId = undefined;
      rec.session = undefined;
    }
    this.refresh(rec);
  }

  /** The terminal's current session for this word; a new agent, or one after an exit, is a new session. */
  private terminalSession(rec: TerminalRecord, o: Observation): AgentSession | undefined {
    const cur = rec.session;
    // Only the terminal's own sources see a new run start; a late log line or hook after an exit is about the run that ended.
    const terminalSource = isTerminalSource(o.source);
    if (cur && cur.agent === o.agent && (!cur.exited || !terminalSource)) return cur;
    // A word no one could place may speak of its own agent session, not end the one the terminal runs.
    if (cur && !cur.exited && !TRUST_RULES[trustOf(o)].holds) return this.sessionFor(o);
    if (cur) {
      this.endSession(cur);
      cur.terminalId = undefined;
    }
    const s = new AgentSession(this.newKey('s'), o.agent as AgentKind, () => this.newKey('w'));
    s.terminalId = rec.id;
    rec.session = s;
    return s;
  }

  /**
   * A word about an agent session the store already holds apart from this terminal's current one: a late
   * hook about a run that ended, or a session first seen in its log. A terminal named by the word pins it.
   */
  private knownElsewhere(o: Observation, rec: TerminalRecord | undefined): AgentSession | undefined {
    if (!o.locator.sessionId || isTerminalSource(o.source)) return undefined;
    const known = this.byAgentSession.get(`${o.agent}:${o.locator.sessionId}`);
    if (!known || known === rec?.session) return undefined;
    if (rec && this.unlinked.has(known)) known.pinnedTerminal = rec.id;
    return known;
  }

  /** A word from a source that does not know the terminal: its session by the agent's own id. */
  private sessionFor(o: Observation): AgentSession | undefined {
    const id = o.locator.sessionId;
    if (!id) return undefined;
    const known = this.byAgentSession.get(`${o.agent}:${id}`);
    if (known) return known;
    const s = new AgentSession(this.newKey('s'), o.agent as AgentKind, () => this.newKey('w'));
    s.pinnedTerminal = o.locator.terminalId;
    this.indexIds(s, o);
    this.unlinked.add(s);
    this.evictUnlinked();
    return s;
  }

  /**
   * Maps the word's agent session id to `s`. A session a source had seen apart (a log read before the process
   * scan found its terminal after a reload) is taken over here when a word of this terminal names its id.
   */
  private indexIds(s: AgentSession, o: Observation): void {
    const id = o.locator.sessionId;
    if (!id) return;
    const prev = this.byAgentSession.get(`${s.agent}:${id}`);
    const rec = s.terminalId !== undefined ? this.terminalsById.get(s.terminalId) : undefined;
    if (prev && prev !== s && this.unlinked.has(prev) && rec) this.adopt(rec, prev, `its terminal's ${o.source} named session ${id}`);
    this.byAgentSession.set(`${s.agent}:${id}`, s);
  }

  private evictUnlinked(): void {
    if (this.unlinked.size <= UNLINKED_KEPT) return;
    const oldest = [...this.unlinked].sort((a, b) => a.lastSeen - b.lastSeen)[0];
    this.unlinked.delete(oldest);
    for (const id of oldest.agentSessionIds)
      if (this.byAgentSession.get(`${oldest.agent}:${id}`) === oldest) this.byAgentSession.delete(`${oldest.agent}:${id}`);
  }

  private tryLinkAll(): void {
    for (const s of [...this.unlinked]) this.tryLink(s);
  }

  private tryLink(s: AgentSession): void {
    const candidates: TerminalCandidate[] = [];
    for (const r of this.terminalsById.values()) {
      if (r.session)
        candidates.push({
          terminalId: r.id,
          agent: r.session.agent,
          cwd: r.session.cwd,
          alive: !r.session.exited,
          startedAt: r.session.startedAt,
          turnStarts: r.session.turnStarts,
        });
    }
    const count = () => (s.cwd && this.opts.agentsInFolder ? this.opts.agentsInFolder(s.agent, s.cwd) : undefined);
    const res = chooseTerminal(
      { agent: s.agent, cwd: s.cwd, turnStarts: s.turnStarts, lastSeen: s.lastSeen, pinnedTerminal: s.pinnedTerminal },
      candidates,
      count,
    );
    if (!res.terminalId) return;
    this.adopt(this.terminalsById.get(res.terminalId)!, s, res.why);
  }

  /** An unlinked session becomes part of the terminal's: its ids point there, its words are taken over. */
  private adopt(rec: TerminalRecord, s: AgentSession, why: string): void {
    const target = rec.session!;
    // Session ids, folders and terminal names come from hook payloads, logs and programs: escaped.
    this.opts.log?.info(
      `linked ${s.agent} session ${printable([...s.agentSessionIds].join(', '))} to terminal "${printable(rec.name)}": ${printable(why)}`,
    );
    this.unlinked.delete(s);
    for (const id of s.agentSessionIds) this.byAgentSession.set(`${s.agent}:${id}`, target);
    const before = target.waits.open;
    if (target.absorb(s)) this.sessionChanged(target, before);
    else this.refresh(rec);
  }

  private endSession(s: AgentSession): void {
    const before = s.waits.open;
    if (s.end(this.clock.now()) && before) this.waitsChanged.fire(before);
  }

  private sessionChanged(s: AgentSession, waitBefore: Wait | undefined): void {
    const after = s.waits.open;
    if (waitBefore && waitBefore !== after) this.waitsChanged.fire(waitBefore);
    // A switched-off agent's open wait is told when the agent is switched on again (setSwitchedOff).
    if (after && !this.off.has(s.agent)) this.waitsChanged.fire(after);
    const rec = s.terminalId !== undefined ? this.terminalsById.get(s.terminalId) : undefined;
    if (rec && rec.session === s) this.refresh(rec);
    // After the terminal's view: a listener that reads it sees the state it is told of.
    this.sessionsChanged.fire(summaryOf(s));
  }

  private refresh(rec: TerminalRecord): void {
    const previous = rec.view;
    rec.view = this.viewOf(rec);
    this.changed.fire({ id: rec.id, previous, current: rec.view });
  }

  private viewOf(rec: TerminalRecord): TerminalState {
    const s = rec.session;
    const shown = s?.shown;
    if (s && shown && this.off.has(s.agent)) {
      return {
        id: rec.id,
        name: rec.name,
        agent: 'shell',
        state: shown.state === 'exited' ? 'exited' : 'idle',
        source: shown.source,
        evidence: `${s.agent} detection is switched off`,
        since: s.since,
        words: [],
        history: [],
      };
    }
    if (!s || !shown) {
      const w = rec.shellWord;
      return {
        id: rec.id,
        name: rec.name,
        agent: 'shell',
        state: w?.state === 'exited' ? 'exited' : 'idle',
        source: w?.source ?? 'pty-scrape',
        evidence: w?.evidence ?? 'terminal opened',
        since: w?.at ?? this.clock.now(),
        words: w ? [w] : [],
        history: [],
      };
    }
    const v: TerminalState = {
      id: rec.id,
      name: rec.name,
      agent: s.agent,
      state: shown.state,
      source: shown.source,
      evidence: shown.evidence,
      since: s.since,
      sessionKey: s.key,
      words: s.wordsNewestFirst(),
      history: [...s.history],
    };
    if (shown.reason) v.reason = shown.reason;
    if (shown.state === 'waiting') v.waitKind = shown.wait?.kind ?? 'prompt';
    if (s.waits.open) v.waitId = s.waits.open.id;
    const sid = [...s.agentSessionIds].at(-1);
    if (sid) v.agentSessionId = sid;
    if (s.cwd) v.cwd = s.cwd;
    return v;
  }
}

/** A session as readers outside the store see it: copies, so no reader can change the store's own. */
function summaryOf(s: AgentSession): SessionSummary {
  return {
    key: s.key,
    agent: s.agent,
    terminalId: s.terminalId,
    agentSessionIds: [...s.agentSessionIds],
    cwd: s.cwd,
    shown: s.shown,
    waits: [...s.waits.history, ...(s.waits.open ? [s.waits.open] : [])],
  };
}
