import { type HookRule, str, toolPermissionWait } from '../hookMeaning';

/**
 * Factory droid 0.225.2 hooks, as the CLI fires them (test/fixtures/live/droid/FACTS.md §9). Their payloads have
 * Claude Code's shape; there is no PermissionRequest. A dialog is told by Notification `permission_prompt`, which
 * droid awaits just before it draws the dialog and fires once; its message names no tool, so the tool is the
 * PreToolUse reported just before it (`before`). An Esc while it works fires Notification `idle_prompt` ("Agent
 * stopped by user") and no Stop. Stop ends every other turn — completed, denied or failed alike — and says
 * nothing of which, so it only releases the session log's own outcome (and a reply that asks, which it never
 * carries). SessionEnd fires twice at every exit.
 */
export const events: Record<string, HookRule> = {
  UserPromptSubmit: () => ({ kind: 'working', turnStart: true }),
  PreToolUse: () => ({ kind: 'working' }),
  Notification: (p, before) => {
    const type = str(p, 'notification_type');
    if (type === 'permission_prompt')
      return { kind: 'wait', wait: str(before, 'hook_event_name') === 'PreToolUse' ? toolPermissionWait(before) : { kind: 'permission' } };
    return type === 'idle_prompt' ? { kind: 'failed', reason: 'interrupted' } : undefined;
  },
  Stop: () => ({ kind: 'turn-end', reply: undefined, askOnly: true }),
  PostToolUse: () => ({ kind: 'working' }),
  SessionEnd: () => ({ kind: 'exited' }),
};
