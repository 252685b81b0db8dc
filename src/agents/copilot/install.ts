import { type HookTable, row } from '../hookRow';

/** Seconds (Claude Code's `timeout`, which Copilot reads in its Claude-shaped hook files). */
const S = 10;

/**
 * The hooks Agent Lens writes into its own file in Copilot's hooks folder, in Claude Code's nested shape under
 * PascalCase names (the names that make Copilot send payloads the reporter reads: ./hooks.ts). The tool events take
 * no matcher: without one a hook runs for every tool (Copilot 1.0.102 honours a matcher on Claude Code's tool names,
 * `Bash`, and `*`; FACTS.md §7). Notification's matcher is the notification type. Copilot reads every JSON file in
 * its hooks folder: ours is a file of its own there, created by the first install and deleted by uninstall (a
 * same-named file of the user's is merged into and given back to the byte, as a settings file is).
 */
export const hookRows: HookTable = {
  file: { name: 'hooks/agent-lens.json' },
  rows: [
    row('Notification', S, false, 'permission_prompt'),
    row('Stop', S),
    row('UserPromptSubmit', S),
    row('SessionEnd', S),
    row('PostToolUse', S, true),
    row('PostToolUseFailure', S, true),
  ],
};
