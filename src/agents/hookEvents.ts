import { AGENT_IDS, type AgentKind } from '../common/agents';
import type { HookRule } from './hookMeaning';
import { EVENT_TABLES } from './hookEventTables';
import { inOpenCodeFamily, type OpenCodeFamily } from './opencode/family';

export { opencodeMeaning, type OpenCodeSessionState } from './opencode/hooks';
export { inOpenCodeFamily } from './opencode/family';

/**
 * What each agent's hook events mean, by event name, for the agents whose events can be read one at a time
 * (OpenCode's and Kilo's plugin events need the session's state: opencodeMeaning). Kept apart from the registry so the
 * reporter, which runs on every hook, loads only these tables; test/unit/agents/registry.test.ts checks that
 * they and the registry name the same agents.
 */
export const HOOK_EVENTS = EVENT_TABLES satisfies Partial<Record<AgentKind, Readonly<Record<string, HookRule>>>>;

/** Every agent that reports to the hub: those above through hooks, OpenCode and Kilo through their plugin. */
export type ReportingAgent = keyof typeof HOOK_EVENTS | OpenCodeFamily;
export const REPORTING_AGENTS = AGENT_IDS.filter((id): id is ReportingAgent => inOpenCodeFamily(id) || Object.hasOwn(HOOK_EVENTS, id)) as [
  ReportingAgent,
  ...ReportingAgent[],
];
