import { AGENT_IDS } from './agentIds';

/**
 * Which agent runs: the one definition. `shell` stands for none (a plain shell, or a program that is no agent);
 * whether something is an agent is asked here only (ESLint bans comparing with `'shell'` anywhere else).
 */
export { AGENT_IDS };
export type AgentId = (typeof AGENT_IDS)[number];
/** The value that says no agent runs. */
export const NO_AGENT = 'shell' satisfies AgentId;
export type AgentKind = Exclude<AgentId, typeof NO_AGENT>;

/** Every agent, without the plain shell. */
export const AGENT_KINDS: readonly AgentKind[] = AGENT_IDS.filter(isAgentKind);

export function isAgentId(s: string): s is AgentId {
  return (AGENT_IDS as readonly string[]).includes(s);
}

/** True when an agent runs, false for the plain shell. */
export function isAgentKind(a: AgentId): a is AgentKind {
  return a !== NO_AGENT;
}

/** The same question of anything that names its agent (a terminal's view, a detection, an observation). */
export function isAgent(x: { agent: AgentId }): boolean {
  return isAgentKind(x.agent);
}
