import type { AgentId, AgentState, Detection, StateSource, WaitKind } from '../detect/types';
import { Emitter, Event } from './emitter';

/** Transitions kept per terminal for "Show State History"; older ones drop off. */
export const HISTORY_LIMIT = 100;

export interface Transition {
  /** Wall-clock milliseconds. */
  at: number;
  agent: AgentId;
  state: AgentState;
  source: StateSource;
  evidence: string;
  waitKind?: WaitKind;
}

/** What Agent Lens knows about one terminal. Every view reads this; nothing else keeps state. */
export interface TerminalState {
  /** Stable per window session: "t1", "t2", … */
  id: string;
  name: string;
  agent: AgentId;
  state: AgentState;
  source: StateSource;
  evidence: string;
  waitKind?: WaitKind;
  /** Wall-clock milliseconds when the current state began. */
  since: number;
  /** When the terminal was closed; closed terminals leave the store shortly after. */
  closed?: boolean;
  history: readonly Transition[];
}

export interface StateChange {
  id: string;
  previous?: TerminalState;
  current?: TerminalState;
}

/**
 * One state store for all sources: the terminal detector (pty-scrape), the process scanner, and later
 * session-log watchers and hooks. A report carries its source; `completed`/`failed` from authoritative
 * sources are not overridden by a weaker source's "stopped" for the same turn.
 */
export class StateStore {
  private readonly map = new Map<string, TerminalState>();
  private readonly changed = new Emitter<StateChange>();
  readonly onDidChange: Event<StateChange> = this.changed.event;

  constructor(private readonly now: () => number = Date.now) {}

  /** Registers a terminal (shell until told otherwise). */
  open(id: string, name: string): TerminalState {
    const existing = this.map.get(id);
    if (existing) return existing;
    const at = this.now();
    const s: TerminalState = { id, name, agent: 'shell', state: 'idle', source: 'pty-scrape', evidence: 'terminal opened', since: at, history: [] };
    this.map.set(id, s);
    this.changed.fire({ id, current: s });
    return s;
  }

  rename(id: string, name: string): void {
    const s = this.map.get(id);
    if (!s || s.name === name) return;
    const next = { ...s, name };
    this.map.set(id, next);
    this.changed.fire({ id, previous: s, current: next });
  }

  /** Applies a detection. Returns the new state, or undefined when nothing changed. */
  report(id: string, d: Omit<Detection, 't'>): TerminalState | undefined {
    const s = this.map.get(id);
    if (!s) return undefined;
    if (s.agent === d.agent && s.state === d.state && s.waitKind === d.waitKind) return undefined;
    // The screen cannot tell success from failure; an authoritative outcome stays until a new turn starts.
    if (d.source === 'pty-scrape' && d.state === 'stopped' && s.agent === d.agent && (s.state === 'completed' || s.state === 'failed') && s.source !== 'pty-scrape') {
      return undefined;
    }
    const at = this.now();
    const t: Transition = { at, agent: d.agent, state: d.state, source: d.source, evidence: d.evidence, waitKind: d.waitKind };
    const history = s.history.length >= HISTORY_LIMIT ? [...s.history.slice(s.history.length - HISTORY_LIMIT + 1), t] : [...s.history, t];
    const next: TerminalState = { ...s, agent: d.agent, state: d.state, source: d.source, evidence: d.evidence, waitKind: d.waitKind, since: at, history };
    if (!d.waitKind) delete next.waitKind;
    this.map.set(id, next);
    this.changed.fire({ id, previous: s, current: next });
    return next;
  }

  close(id: string): void {
    const s = this.map.get(id);
    if (!s) return;
    this.map.delete(id);
    this.changed.fire({ id, previous: s });
  }

  get(id: string): TerminalState | undefined {
    return this.map.get(id);
  }

  all(): TerminalState[] {
    return [...this.map.values()];
  }

  dispose(): void {
    this.changed.dispose();
    this.map.clear();
  }
}

/** Most urgent first: who needs you, then failures, then work in progress, then the rest. */
export function urgency(s: Pick<TerminalState, 'agent' | 'state' | 'waitKind'>): number {
  if (s.agent === 'shell') return 9;
  switch (s.state) {
    case 'waiting':
      return s.waitKind === 'reply-question' ? 1 : 0;
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
