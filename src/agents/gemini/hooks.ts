import { type Meaning, obj, permissionWait, str } from '../hookMeaning';

type Payload = Record<string, unknown>;

/**
 * Gemini CLI 0.61.0 hooks, as the CLI fires them. Notification `ToolPermission` fires when the
 * approval dialog appears; AfterAgent ends every turn (also an interrupted or failed one, with the partial
 * text), so by itself it says only whether a reply asks; that the turn *completed* is its chat log's word, which
 * holds the turn's last reply until this hook says the turn ended (src/sources/logs/turnEnds.ts). A denial
 * fires nothing. SessionEnd fires three times at exit.
 */
export const events: Record<string, (p: Payload) => Meaning | undefined> = {
  Notification: (p) =>
    str(p, 'notification_type') === 'ToolPermission'
      ? { kind: 'wait', wait: permissionWait(str(obj(p, 'details'), 'title'), str(obj(p, 'details'), 'command')) }
      : undefined,
  BeforeAgent: () => ({ kind: 'working', turnStart: true }),
  AfterTool: () => ({ kind: 'working' }),
  AfterAgent: (p) => ({ kind: 'turn-end', reply: str(p, 'prompt_response'), askOnly: true }),
  SessionEnd: () => ({ kind: 'exited' }),
};
