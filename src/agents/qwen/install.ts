import { type HookTable, row } from '../hookRow';

/** Seconds (Qwen Code reads 1000 and more as the milliseconds of its older form). */
const S = 10;

/**
 * The hooks Agent Lens writes into Qwen Code's settings (Claude Code's shape: tool events take a matcher on the
 * tool name). PermissionRequest is only reported, never held: Qwen Code awaits it before it draws the dialog, so
 * a held hook would hide the very dialog it is about (the dialog is answered with its keys: index.ts `dialogKeys`).
 */
export const hookRows: HookTable = {
  rows: [
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
