import { ANSWER_HOLD_S } from '../agents/hookRow';

/**
 * What a user may decide for an agent's dialog from VS Code, and how it travels: the hub answers the held
 * hook's own request with a `HeldAnswer`, and the hook prints the agent's own decision JSON from it. Allow is
 * always *once*: no "always" grant, no changed input, no changed permissions, ever (those stay in the terminal).
 */

export type Decision = { behavior: 'allow' } | { behavior: 'deny'; message?: string };

/** The hub's answer to a held hook: a decision, or nothing (the dialog was answered elsewhere, or gave up). */
export interface HeldAnswer {
  decision?: Decision;
}

/** The longest denial message passed to the model. */
export const DENY_MESSAGE_MAX = 2000;

/** Where a held request is answered, on the hub. */
export const HOLD_PATH = '/v1/hooks/hold';

/**
 * How long a hook holds, in ms: under the `timeout` the installer writes (ANSWER_HOLD_S), so the agent never kills
 * it mid-answer; past it the hook exits with nothing and the dialog stays in the terminal.
 */
export const HOLD_GIVE_UP_MS = (ANSWER_HOLD_S - 10) * 1000;

/**
 * The decision as the hook reads it off the wire, or undefined for anything else: only the two behaviours and a
 * string message survive, so nothing the hub sent could grant more than once.
 */
export function decisionOf(v: unknown): Decision | undefined {
  const d = v && typeof v === 'object' ? (v as { decision?: unknown }).decision : undefined;
  if (!d || typeof d !== 'object') return undefined;
  const { behavior, message } = d as { behavior?: unknown; message?: unknown };
  if (behavior === 'allow') return { behavior: 'allow' };
  if (behavior !== 'deny') return undefined;
  return typeof message === 'string' && message.trim()
    ? { behavior: 'deny', message: Array.from(message).slice(0, DENY_MESSAGE_MAX).join('') }
    : { behavior: 'deny' };
}

/** Claude Code's `PermissionRequest` decision, as its hook prints it on stdout (the hook's decision channel). */
export function claudeDecisionJson(d: Decision): string {
  const decision = d.behavior === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', ...(d.message ? { message: d.message } : {}) };
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });
}
