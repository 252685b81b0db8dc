import { type Meaning, permissionWait, str } from '../hookMeaning';

type Payload = Record<string, unknown>;

/**
 * GitHub Copilot CLI 1.0.102 hooks under Claude Code's PascalCase names, as the CLI fires them
 * (test/fixtures/live/copilot/FACTS.md §7): their payloads are snake_case and name their event. Notification
 * `permission_prompt` fires as a dialog shows; PermissionRequest is not used, because it also fires for a tool
 * allowed beforehand, which shows no dialog, and its payload stays camelCase without an event name. Stop fires only
 * for a completed turn, without the reply's text; an Esc, a denial and an API error fire nothing (ErrorOccurred
 * fires for every failed attempt, retried ones too, each `recoverable`): the session log says how those ended.
 */
export const events: Record<string, (p: Payload) => Meaning | undefined> = {
  UserPromptSubmit: () => ({ kind: 'working', turnStart: true }),
  Notification: (p) =>
    str(p, 'notification_type') === 'permission_prompt' ? { kind: 'wait', wait: permissionWait(undefined, str(p, 'message')) } : undefined,
  PostToolUse: () => ({ kind: 'working' }),
  PostToolUseFailure: () => ({ kind: 'working' }),
  Stop: () => ({ kind: 'turn-end', reply: undefined }),
  SessionEnd: () => ({ kind: 'exited' }),
};
