import { arr, type Meaning, obj, permissionWait, questionWait, str } from '../hookMeaning';

type Props = Record<string, unknown>;

/** What the OpenCode mapping remembers per OpenCode session between bus events. */
export interface OpenCodeSessionState {
  dialogOpen: boolean;
  /** The latest finished text part of the turn (a reply ending with `?` asks). */
  lastText?: string;
  /** A `session.error` of this turn: the following idle is that failure, not a completion. */
  failed?: string;
  /** A subagent's session (its `session.created` named a parent): skipped. */
  child?: boolean;
}

/**
 * OpenCode 1.18.33 bus events as a plugin receives them. `session.status`
 * stays busy while a dialog waits, so status changes are ignored while one is open; idle ends the turn.
 * `permission.updated` does not exist in this version: it is `permission.asked` / `permission.replied`.
 */
export function opencodeMeaning(type: string, p: Props, s: OpenCodeSessionState): Meaning | undefined {
  if (type === 'session.created') {
    if (str(obj(p, 'info'), 'parentID')) s.child = true;
    return undefined;
  }
  if (s.child) return undefined;
  switch (type) {
    case 'permission.asked':
      s.dialogOpen = true;
      return {
        kind: 'wait',
        wait: permissionWait(str(p, 'permission'), str(obj(p, 'metadata'), 'command') ?? arr(p, 'patterns').join(' ')),
      };
    case 'question.asked':
      s.dialogOpen = true;
      return { kind: 'wait', wait: questionWait(arr(p, 'questions')) };
    case 'permission.replied':
    case 'question.replied':
    case 'question.rejected':
      s.dialogOpen = false;
      return { kind: 'working' };
    case 'session.error':
      s.failed = opencodeFailure(obj(p, 'error'));
      return { kind: 'failed', reason: s.failed };
    case 'message.part.updated':
      return noteText(obj(p, 'part'), s);
    case 'session.status':
      return status(str(obj(p, 'status'), 'type'), s);
  }
  return undefined;
}

function noteText(part: Props | undefined, s: OpenCodeSessionState): undefined {
  // A finished assistant text part carries time.end; the user's own text parts have no time.
  if (str(part, 'type') === 'text' && obj(part, 'time')?.end !== undefined) s.lastText = str(part, 'text');
  return undefined;
}

function status(type: string | undefined, s: OpenCodeSessionState): Meaning | undefined {
  if (s.dialogOpen) return undefined;
  if (type === 'busy') {
    const fresh = s.failed !== undefined;
    s.failed = undefined;
    if (fresh) s.lastText = undefined;
    return { kind: 'working' };
  }
  if (type !== 'idle') return undefined;
  // After an error the idle repeats what session.error said.
  if (s.failed !== undefined) return undefined;
  const reply = s.lastText;
  s.lastText = undefined;
  return { kind: 'turn-end', reply };
}

function opencodeFailure(error: Props | undefined): string {
  const name = str(error, 'name');
  if (name === 'MessageAbortedError') return 'interrupted';
  const status = obj(error, 'data')?.statusCode;
  if (name === 'APIError') return typeof status === 'number' ? `API error ${status}` : 'API error';
  return name ? name.replace(/Error$/, ' error').toLowerCase() : 'error';
}
