import { arr, type Meaning, obj, questionWait, str, toolPermissionWait } from '../hookMeaning';

type Payload = Record<string, unknown>;

/**
 * Claude Code 2.1.328 hooks, as the CLI fires them (test/unit/replay/hooks.test.ts replays recorded ones).
 * PermissionRequest fires when the dialog opens (also for AskUserQuestion); Notification `permission_prompt`
 * about 6 s later only if nobody answered, and for either dialog, so it is a reminder. `idle_prompt` follows
 * any unanswered reply and is ignored. A denial or an interrupt fires nothing: the screen closes those waits.
 */
export const events: Record<string, (p: Payload) => Meaning | undefined> = {
  PreToolUse: (p) =>
    str(p, 'tool_name') === 'AskUserQuestion' ? { kind: 'wait', wait: questionWait(arr(obj(p, 'tool_input'), 'questions')) } : undefined,
  PermissionRequest: (p) =>
    str(p, 'tool_name') === 'AskUserQuestion'
      ? { kind: 'wait', wait: questionWait(arr(obj(p, 'tool_input'), 'questions')) }
      : { kind: 'wait', wait: toolPermissionWait(p) },
  Notification: (p) =>
    str(p, 'notification_type') === 'permission_prompt' ? { kind: 'wait', wait: { kind: 'permission' }, repeat: true } : undefined,
  // A Stop while a background subagent still runs is not the turn's end: Claude Code waits for it ("Waiting for 1
  // background agent to finish"), then continues on its own with a prompt of its own and a Stop of its own.
  Stop: (p) => (backgroundRunning(p) ? { kind: 'working' } : { kind: 'turn-end', reply: str(p, 'last_assistant_message') }),
  StopFailure: (p) => ({ kind: 'failed', reason: claudeFailure(str(p, 'error')) }),
  UserPromptSubmit: () => ({ kind: 'working', turnStart: true }),
  PostToolUse: () => ({ kind: 'working' }),
  PostToolUseFailure: () => ({ kind: 'working' }),
  SessionEnd: () => ({ kind: 'exited' }),
};

/**
 * Whether a Stop's `background_tasks` (2.1.328) lists a subagent still running: Claude Code waits for those (as
 * the log's pendingBackgroundAgentCount says), not for a background shell it leaves running.
 */
function backgroundRunning(p: Payload): boolean {
  return arr(p, 'background_tasks').some(
    (t) => typeof t === 'object' && t !== null && (t as Payload).status === 'running' && (t as Payload).type === 'subagent',
  );
}

/** StopFailure's `error` is a category (`server_error` for both 500 and 529); the session log has the status. */
function claudeFailure(error: string | undefined): string {
  if (!error) return 'API error';
  return error === 'server_error' ? 'server error' : error.replace(/_/g, ' ');
}
