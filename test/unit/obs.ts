import type { AgentId, AgentState, WaitKind } from '../../src/detect/types';
import type { Locator, Observation, Source } from '../../src/store/observation';

/** A terse observation for tests: `obs('jsonl-watcher', 10_000, 'completed')`. */
export function obs(source: Source, at: number, state: AgentState, more: { agent?: AgentId; wait?: WaitKind; question?: string; reason?: string; evidence?: string; locator?: Locator } = {}): Observation {
  const o: Observation = { source, at, agent: more.agent ?? 'claude-code', state, evidence: more.evidence ?? `${source} ${state}@${at}`, locator: more.locator ?? {} };
  if (more.reason) o.reason = more.reason;
  if (state === 'waiting') o.wait = { kind: more.wait ?? 'permission', ...(more.question ? { question: more.question } : {}) };
  return o;
}
