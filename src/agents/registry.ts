import type { AgentKind } from '../common/agents';
import type { AgentDescriptor } from './descriptor';
import { FOLDER_AGENTS } from './folders';

export type { AgentDescriptor } from './descriptor';

/**
 * Every agent Agent Lens knows, one folder each, in the detector's order (each descriptor's `rank`): agents with
 * the strongest screen evidence first. The list is generated from the folders (./folders.ts); adding an agent is
 * adding its folder and running `npm run agents:generate`; test/unit/agents/registry.test.ts names what else
 * must agree.
 */
export const AGENTS: readonly AgentDescriptor[] = FOLDER_AGENTS;

export function agentOf(id: AgentKind): AgentDescriptor {
  const a = AGENTS.find((x) => x.id === id);
  if (!a) throw new Error(`no descriptor for agent "${id}": add src/agents/${id}/ and list it in src/agents/registry.ts`);
  return a;
}

/** Its configuration folder as an agent started with `env` in `home` uses it. */
export function configDirOf(id: AgentKind, env: NodeJS.ProcessEnv, home: string): string {
  const dir = agentOf(id).configDir;
  if (!dir) throw new Error(`agent "${id}" has no configuration folder in src/agents/${id}/index.ts`);
  return dir(env, home);
}
