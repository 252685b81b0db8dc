import type { WaitInfo } from '../common/states';

/**
 * What one hook event says, before it becomes an observation. Each agent's table (src/agents/<id>/hooks.ts)
 * maps its events to these; src/hooks/mapping/mapReport.ts applies them.
 */
export type Meaning =
  /** A dialog opened (permission, question). `repeat`: a reminder of a dialog already reported (Claude's Notification). */
  | { kind: 'wait'; wait: WaitInfo; repeat?: boolean }
  /** The user answered or the agent moved on: it works. `turnStart` for a submitted prompt. */
  | { kind: 'working'; turnStart?: boolean }
  /** A turn ended; its reply's text decides completed vs a reply that asks. `askOnly`: the event also ends interrupted turns, so only a question counts. */
  | { kind: 'turn-end'; reply: string | undefined; askOnly?: boolean }
  | { kind: 'failed'; reason: string }
  /** The agent session is over. Only ever applied to a session already known (a late SessionEnd must not end a new run). */
  | { kind: 'exited' };

/**
 * One event's rule in an agent's table (src/agents/<id>/hooks.ts). `before`: the payload of the event the same
 * session reported just before this one, for an agent whose event names no more than that one did (droid's
 * Notification, whose tool is the PreToolUse before it).
 */
export type HookRule = (p: Record<string, unknown>, before?: Record<string, unknown>) => Meaning | undefined;

/** Reads a string field of an untyped payload. */
export function str(o: unknown, key: string): string | undefined {
  const v = o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v : undefined;
}

export function obj(o: unknown, key: string): Record<string, unknown> | undefined {
  const v = o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

export function arr(o: unknown, key: string): unknown[] {
  const v = o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
  return Array.isArray(v) ? v : [];
}

/** A question tool's first question and its option labels (Claude AskUserQuestion, OpenCode question.asked). */
export function questionWait(questions: unknown[]): WaitInfo {
  const q = questions[0];
  const options = arr(q, 'options')
    .map((o) => (typeof o === 'string' ? o : str(o, 'label')))
    .filter((s): s is string => !!s);
  const text = str(q, 'question');
  return { kind: 'question', ...(text ? { question: text } : {}), ...(options.length ? { options } : {}) };
}

/** A permission dialog, described by what it would run. */
export function permissionWait(tool: string | undefined, detail: string | undefined): WaitInfo {
  const what = [tool, detail].filter(Boolean).join(': ');
  return {
    kind: 'permission',
    ...(what ? { question: what.length > 300 ? `${what.slice(0, 299)}…` : what } : {}),
    ...(detail ? { detail } : {}),
  };
}

/** A Claude-shaped tool hook's dialog (`tool_name`, `tool_input`): what it would run, write or do. */
export function toolPermissionWait(p: unknown): WaitInfo {
  const input = obj(p, 'tool_input');
  return permissionWait(str(p, 'tool_name'), str(input, 'command') ?? str(input, 'file_path') ?? str(input, 'description'));
}
