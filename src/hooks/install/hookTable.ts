import { hookCommand } from '../commands';
import type { ReportingAgent } from '../wire';
import type { HookEntry } from './jsonHooks';
import { OUR_HOOK_NAME } from './ownEntries';

/** The agents whose hooks live in a JSON settings file (OpenCode and Hermes take plugins instead: ./agents.ts). */
export type JsonHookAgent = Extract<ReportingAgent, 'claude-code' | 'codex' | 'gemini'>;

/**
 * One hook we register. `gated`: the event fires on every tool call and only ever closes a wait, so its command
 * costs one `test -e` unless a wait is open (see hookCommand). `timeout` is in the agent's own unit.
 */
export interface HookRow {
  event: string;
  matcher?: string;
  gated: boolean;
  timeout: number;
}

export interface HookTable {
  rows: readonly HookRow[];
  /** Put on every handler: Gemini CLI shows a hook's name on screen while it runs. */
  name?: string;
}

const row = (event: string, timeout: number, gated = false, matcher?: string): HookRow => ({
  event,
  timeout,
  gated,
  ...(matcher === undefined ? {} : { matcher }),
});

/** Seconds for Claude Code and Codex. */
const S = 10;
/** Codex clamps SessionEnd and Interrupt hooks to 3 s and warns at every start about a longer timeout. */
const CODEX_SHORT = 3;
/** Gemini CLI counts hook timeouts in milliseconds. */
const GEMINI_MS = 10_000;

export const HOOK_TABLES: Record<JsonHookAgent, HookTable> = {
  // Claude Code's tool events (PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest) take a matcher
  // on the tool name; "*" is every tool. Notification's matcher is the notification type.
  'claude-code': {
    rows: [
      row('PreToolUse', S, false, 'AskUserQuestion'),
      row('PermissionRequest', S, false, '*'),
      row('Notification', S, false, 'permission_prompt'),
      row('Stop', S),
      row('StopFailure', S),
      row('UserPromptSubmit', S),
      row('SessionEnd', S),
      row('PostToolUse', S, true, '*'),
      row('PostToolUseFailure', S, true, '*'),
    ],
  },
  // Codex matchers are regexes; no matcher matches everything.
  codex: {
    rows: [
      row('PermissionRequest', S),
      row('Stop', S),
      row('UserPromptSubmit', S),
      row('Interrupt', CODEX_SHORT),
      row('SessionEnd', CODEX_SHORT),
      row('PostToolUse', S, true),
    ],
  },
  gemini: {
    name: OUR_HOOK_NAME,
    rows: [row('Notification', GEMINI_MS), row('AfterAgent', GEMINI_MS), row('BeforeAgent', GEMINI_MS), row('SessionEnd', GEMINI_MS), row('AfterTool', GEMINI_MS, true)],
  },
};

/** The entries to write into `agent`'s settings, calling the reporter command at `reporter`. */
export function hookEntries(agent: JsonHookAgent, reporter: string): HookEntry[] {
  const table = HOOK_TABLES[agent];
  return table.rows.map((r) => ({
    event: r.event,
    ...(r.matcher === undefined ? {} : { matcher: r.matcher }),
    command: hookCommand(reporter, agent, r.gated),
    timeout: r.timeout,
    ...(table.name ? { name: table.name } : {}),
  }));
}
