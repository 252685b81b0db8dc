import type { AgentKind } from '../../common/agents';
import { AGENTS } from '../../agents/registry';
import type { AgentSignature } from '../../agents/screenRules';

export type { AgentSignature } from '../../agents/screenRules';

/** Every agent's signature table, strongest-evidence agents first (the registry's order). */
export const SIGNATURES: readonly AgentSignature[] = AGENTS.map((a) => a.screen);

export function signatureOf(agent: AgentKind): AgentSignature {
  const s = SIGNATURES.find((x) => x.agent === agent);
  if (!s) throw new Error(`no signature table for agent "${agent}"`);
  return s;
}

/** Every rule and marker id of an agent, for coverage reports (`npm run compat`). */
export function signatureIds(sig: AgentSignature): string[] {
  const ids = [
    ...sig.identify.map((m) => m.id),
    ...sig.waiting.map((m) => m.id),
    ...sig.working.map((m) => m.id),
    ...sig.outcomes.map((m) => m.id),
    ...sig.exit.map((m) => m.id),
  ];
  if (sig.programStatus) ids.push(sig.programStatus.id);
  if (sig.turnInProgress) ids.push(sig.turnInProgress.id);
  return [...new Set(ids)];
}
