import type { Observation } from './observation';
import type { Wait } from './waits';
import type { AgentId } from '../common/agents';
import type { AgentState, WaitKind } from '../common/states';
import type { Source } from '../common/sources';

/** Transitions of the shown state kept per session for "Show State History"; older ones drop off. */
export const HISTORY_LIMIT = 100;

export interface Transition {
  /** Epoch ms on the clock of the source that caused it. */
  at: number;
  agent: AgentId;
  state: AgentState;
  source: Source;
  evidence: string;
  reason?: string;
  waitKind?: WaitKind;
}

/** What one terminal shows: the shown state of its current agent session, or a plain shell. Every view reads this. */
export interface TerminalState {
  /** Stable for the terminal's life. */
  id: string;
  name: string;
  agent: AgentId;
  state: AgentState;
  source: Source;
  evidence: string;
  reason?: string;
  waitKind?: WaitKind;
  /** The open wait, by id (`waits()` has it). */
  waitId?: string;
  /** Epoch ms when the shown state began. */
  since: number;
  /** The store's key of the agent session shown, and the agent's own session id once a source named it. */
  sessionKey?: string;
  agentSessionId?: string;
  /** The folder the agent works in, once a source said (names terminals that would read alike). */
  cwd?: string;
  /** Each source's latest word about the session, newest first. */
  words: readonly Observation[];
  history: readonly Transition[];
}

export interface StateChange {
  id: string;
  previous?: TerminalState;
  current?: TerminalState;
}

/** An agent session as the store holds it, linked to a terminal or not (yet). */
export interface SessionSummary {
  key: string;
  agent: AgentId;
  terminalId?: string;
  agentSessionIds: string[];
  cwd?: string;
  shown?: Observation;
  waits: Wait[];
}
