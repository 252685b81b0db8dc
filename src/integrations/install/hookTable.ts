import * as path from 'path';
import { hookCommand, PERMISSION_COMMAND_NAME } from '../commands';
import type { ReportingAgent } from '../../hooks/wire';
import { AGENTS } from '../../agents/registry';
import type { HookTable } from '../../agents/hookRow';
import type { HookEntry } from './jsonHooks';

/** The agents whose hooks live in a JSON settings file (OpenCode and Hermes take plugins instead: ./agents.ts). */
export type JsonHookAgent = Extract<ReportingAgent, 'claude-code' | 'codex' | 'gemini' | 'qwen' | 'droid' | 'copilot'>;

/** Each agent's rows, from its folder (src/agents/<id>/install.ts) through the registry. */
export const HOOK_TABLES: Record<JsonHookAgent, HookTable> = Object.fromEntries(
  AGENTS.flatMap((a) => (a.hookRows ? [[a.id, a.hookRows]] : [])),
) as Record<JsonHookAgent, HookTable>;

/** The entries to write into `agent`'s settings, calling the reporter command at `reporter` (the answering hook beside it). */
export function hookEntries(agent: JsonHookAgent, reporter: string): HookEntry[] {
  const table = HOOK_TABLES[agent];
  const answering = path.join(path.dirname(reporter), PERMISSION_COMMAND_NAME);
  return table.rows.map((r) => ({
    event: r.event,
    ...(r.matcher === undefined ? {} : { matcher: r.matcher }),
    command: hookCommand(r.program === 'answer' ? answering : reporter, agent, r.gated),
    timeout: r.timeout,
    ...(table.name ? { name: table.name } : {}),
  }));
}
