import type { AgentKind } from '../common/agents';
import { agent as aider } from './aider';
import { agent as amp } from './amp';
import { agent as claudeCode } from './claude-code';
import { agent as codex } from './codex';
import { agent as copilot } from './copilot';
import { agent as crush } from './crush';
import { agent as cursor } from './cursor';
import type { AgentDescriptor } from './descriptor';
import { agent as gemini } from './gemini';
import { agent as hermes } from './hermes';
import { agent as kilocode } from './kilocode';
import { agent as opencode } from './opencode';
import { agent as pi } from './pi';
import { agent as qwen } from './qwen';

export type { AgentDescriptor } from './descriptor';

/**
 * Every agent Agent Lens knows, one folder each. The order is the detector's: agents with the strongest screen
 * evidence first. Adding an agent is a new folder and a line here; the tests then name whatever else must agree.
 */
export const AGENTS: readonly AgentDescriptor[] = [
  claudeCode,
  codex,
  opencode,
  amp,
  gemini,
  hermes,
  copilot,
  cursor,
  crush,
  qwen,
  kilocode,
  aider,
  pi,
];

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
