import { type HookTable, row } from '../hookRow';

/** Seconds. */
const S = 10;

/**
 * The hooks Agent Lens writes into Claude Code's settings. Its tool events (PreToolUse, PostToolUse,
 * PostToolUseFailure, PermissionRequest) take a matcher on the tool name; "*" is every tool. Notification's
 * matcher is the notification type.
 */
export const hookRows: HookTable = {
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
};
