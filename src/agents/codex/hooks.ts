import { type Meaning, obj, permissionWait, str } from '../hookMeaning';

type Payload = Record<string, unknown>;

/**
 * Codex 0.169.0 hooks, as the CLI fires them. PermissionRequest fires when the approval dialog opens;
 * nothing fires when it is approved except the PostToolUse after the command; a denial fires Interrupt.
 * `Stop` comes only after a successful turn. SessionEnd arrives when the daemon unloads the thread, 60 s after
 * the TUI left. Plan-mode questions are not reported: their PreToolUse fires before Codex decides whether the
 * question is even allowed, so no PreToolUse is mapped.
 */
export const events: Record<string, (p: Payload) => Meaning | undefined> = {
  PermissionRequest: (p) => ({
    kind: 'wait',
    wait: permissionWait(str(p, 'tool_name'), str(obj(p, 'tool_input'), 'command') ?? str(obj(p, 'tool_input'), 'description')),
  }),
  Stop: (p) => ({ kind: 'turn-end', reply: str(p, 'last_assistant_message') }),
  UserPromptSubmit: () => ({ kind: 'working', turnStart: true }),
  PostToolUse: () => ({ kind: 'working' }),
  Interrupt: () => ({ kind: 'failed', reason: 'interrupted' }),
  SessionEnd: () => ({ kind: 'exited' }),
};
