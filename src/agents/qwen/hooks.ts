import { type Meaning, str, toolPermissionWait } from '../hookMeaning';

type Payload = Record<string, unknown>;

/**
 * Qwen Code 0.24.4 hooks, as the CLI fires them (test/fixtures/live/qwen/FACTS.md). Their payloads have Claude
 * Code's shape. PermissionRequest runs, and is awaited, before the dialog is drawn; Notification
 * `permission_prompt` follows as the dialog shows, so it is a reminder. UserPromptSubmit fires for a typed prompt
 * (with `submitted_prompt`) and again, with an empty prompt of the same turn, each time a tool's result goes back
 * to the model: only the first starts a turn. `idle_prompt` follows every Stop at once and says nothing more.
 */
export const events: Record<string, (p: Payload) => Meaning | undefined> = {
  UserPromptSubmit: (p) => ({ kind: 'working', ...(str(p, 'submitted_prompt') === undefined ? {} : { turnStart: true }) }),
  PermissionRequest: (p) => ({ kind: 'wait', wait: toolPermissionWait(p) }),
  Notification: (p) =>
    str(p, 'notification_type') === 'permission_prompt' ? { kind: 'wait', wait: { kind: 'permission' }, repeat: true } : undefined,
  Stop: (p) => ({ kind: 'turn-end', reply: str(p, 'last_assistant_message') }),
  StopFailure: (p) => ({ kind: 'failed', reason: qwenFailure(p) }),
  PostToolUse: () => ({ kind: 'working' }),
  PostToolUseFailure: () => ({ kind: 'working' }),
  SessionEnd: () => ({ kind: 'exited' }),
};

/**
 * StopFailure names the failure by a category (`error`: `server_error`, …) and its message (`error_details`:
 * `500 Internal server error …`), whose status code is what the other agents' reasons give.
 */
function qwenFailure(p: Payload): string {
  const code = /^(\d{3})\b/.exec(str(p, 'error_details') ?? '');
  if (code) return `API error ${code[1]}`;
  const error = str(p, 'error');
  return error ? error.replace(/_/g, ' ').slice(0, 120) : 'API error';
}
