import * as path from 'path';
import { hookCommandIn, type NodeRuntime, PERMISSION_COMMAND_NAME, PERMISSION_SCRIPT, REPORT_SCRIPT } from '../commands';
import { AGENTS } from '../../agents/registry';
import type { HookTable } from '../../agents/hookRow';
import type { HookEntry } from './jsonHooks';
import { type CommandHookAgent, hookShellOf } from '../hookShells';
import { hostPlatform } from '../../common/platform';

/** The agents whose hooks live in a JSON settings file (OpenCode and Hermes take plugins instead: ./agents.ts). */
export type JsonHookAgent = CommandHookAgent;

/** Each agent's rows, from its folder (src/agents/<id>/install.ts) through the registry. */
export const HOOK_TABLES: Record<JsonHookAgent, HookTable> = Object.fromEntries(
  AGENTS.flatMap((a) => (a.hookRows ? [[a.id, a.hookRows]] : [])),
) as Record<JsonHookAgent, HookTable>;

/** Where the hooks run: the platform (hostPlatform() unless a test says) and, on Windows, the Node every line names. */
export interface HookHost {
  platform?: NodeJS.Platform;
  node?: NodeRuntime;
}

/**
 * The entries to write into `agent`'s settings, calling the reporter command at `reporter` (the answering hook beside
 * it), each in the syntax of the shell the agent runs it in on this platform, with the fields that pick that shell.
 */
export function hookEntries(agent: JsonHookAgent, reporter: string, host: HookHost = {}): HookEntry[] {
  const table = HOOK_TABLES[agent];
  const choice = hookShellOf(agent, host.platform ?? hostPlatform());
  const posix = choice.shell === 'posix';
  const p = posix ? path : path.win32;
  // Windows lines name the scripts in `reporter`'s folder, whichever spelling of the reporter the caller had.
  const bin = p.dirname(reporter);
  const reporting = posix ? reporter : p.join(bin, REPORT_SCRIPT);
  const answering = p.join(bin, posix ? PERMISSION_COMMAND_NAME : PERMISSION_SCRIPT);
  return table.rows.map((r) => ({
    event: r.event,
    ...(r.matcher === undefined ? {} : { matcher: r.matcher }),
    command: hookCommandIn(choice.shell, r.program === 'answer' ? answering : reporting, agent, r.gated, host.node),
    timeout: r.timeout,
    ...(table.name ? { name: table.name } : {}),
    ...(choice.fields ? { fields: choice.fields } : {}),
  }));
}
