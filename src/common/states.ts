import type { AgentId } from './agents';

/** The seven states an agent is shown in. */
export const AGENT_STATES = ['working', 'idle', 'waiting', 'stopped', 'completed', 'failed', 'exited'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

export function isAgentState(s: string): s is AgentState {
  return (AGENT_STATES as readonly string[]).includes(s);
}

/**
 * Why an agent waits. `reply-question` is a reply that merely ends with a question: it is listed, never pushed
 * as a notification.
 */
export type WaitKind = 'permission' | 'question' | 'reply-question' | 'prompt';

/** What a source knows about a wait: its kind, and the question and choices where the source has them. */
export interface WaitInfo {
  kind: WaitKind;
  question?: string;
  options?: string[];
  /** A permission's command (or path) as the agent's hook reported it, whole: what its dialog must show. */
  detail?: string;
}

/** At rest: the agent is not working and nobody is asked anything. Agreement scoring treats these as one class. */
export const AT_REST: ReadonlySet<AgentState> = new Set<AgentState>(['idle', 'stopped', 'completed']);

/** A turn's outcome as the agent's own records tell it: only a session log or a hook can say these. */
export const OUTCOME_STATES: ReadonlySet<AgentState> = new Set<AgentState>(['completed', 'failed']);

/** A turn that ended with nobody asked anything: what a routing trigger fires on. */
export const TURN_ENDED: ReadonlySet<AgentState> = new Set<AgentState>(['stopped', 'completed']);

/** What a state is, for telling a change from a repeat: the agent, the state, why it waits and why it failed. */
export interface StateKey {
  agent: AgentId;
  state: AgentState;
  waitKind?: WaitKind;
  reason?: string;
}

/** The one "same state" rule: a new wait kind or a new failure reason is a change, as is a new agent or state. */
export function sameState(a: StateKey, b: StateKey): boolean {
  return a.agent === b.agent && a.state === b.state && a.waitKind === b.waitKind && a.reason === b.reason;
}
