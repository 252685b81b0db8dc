import { ANSWER_HOLD_S, answerRow, type HookTable, row } from '../hookRow';

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
    // Held open for an answer from VS Code (when the user turned that on): its timeout is the hold's.
    answerRow('PermissionRequest', ANSWER_HOLD_S, '*'),
    row('Notification', S, false, 'permission_prompt'),
    row('Stop', S),
    row('StopFailure', S),
    row('UserPromptSubmit', S),
    row('SessionEnd', S),
    row('PostToolUse', S, true, '*'),
    row('PostToolUseFailure', S, true, '*'),
  ],
};
