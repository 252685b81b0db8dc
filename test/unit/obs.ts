import type { Locator, Observation } from '../../src/store/observation';
import type { AgentId } from '../../src/common/agents';
import type { AgentState, WaitKind } from '../../src/common/states';
import type { Source } from '../../src/common/sources';

/** A terse observation for tests: `obs('jsonl-watcher', 10_000, 'completed')`. */
export function obs(
  source: Source,
  at: number,
  state: AgentState,
  more: { agent?: AgentId; wait?: WaitKind; question?: string; reason?: string; evidence?: string; locator?: Locator } = {},
): Observation {
  const o: Observation = {
    source,
    at,
    agent: more.agent ?? 'claude-code',
    state,
    evidence: more.evidence ?? `${source} ${state}@${at}`,
    locator: more.locator ?? {},
  };
  if (more.reason) o.reason = more.reason;
  if (state === 'waiting') o.wait = { kind: more.wait ?? 'permission', ...(more.question ? { question: more.question } : {}) };
  return o;
}
