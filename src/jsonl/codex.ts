import { z } from 'zod';
import type { UsageSink } from '../common/usage';
import { CodexUsage, codexUsageLine } from './codexUsage';
import { epochMs, evidence, mustParse, parseObject, words, zodDetail } from './common';
import { type LineDecoder, type LogEvent, ProblemCounter } from './types';

/**
 * Codex 0.169.0 rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<uuid>.jsonl`), see
 * Lines are `{timestamp, ordinal, type, payload}`; only `session_meta` and
 * four `event_msg` payload types matter. `response_item` lines (tool lists, instructions: 20 KB+) are skipped.
 */

/** Every relevant line holds one of these as a string value. */
export const CODEX_NEEDLES = ['"session_meta"', '"task_started"', '"task_complete"', '"turn_aborted"', '"UserMessage"'] as const;

/** Whether the decoder must parse the line: the needles' test (mustParse), or a line with usage only. */
export function codexMustParse(text: string): boolean {
  return mustParse(text, CODEX_NEEDLES) || codexUsageLine(text);
}

const Line = z.object({ timestamp: z.string(), type: z.string(), payload: z.record(z.unknown()) });
type Line = z.infer<typeof Line>;

const Meta = z
  .object({ id: z.string().nullish(), session_id: z.string().nullish(), cwd: z.string().nullish() })
  .refine((m) => !!(m.id ?? m.session_id), { message: 'no id' });

const Turned = z.object({ turn_id: z.string().nullish() });
const ItemCompleted = Turned.extend({ item: z.object({ type: z.string() }) });
const TaskComplete = Turned.extend({
  duration_ms: z.number().nullish(),
  error: z.object({ message: z.string().nullish(), codex_error_info: z.unknown() }).nullish(),
});
type TaskComplete = z.infer<typeof TaskComplete>;
const TurnAborted = Turned.extend({ reason: z.string().nullish() });

const RELEVANT = new Set(['task_started', 'item_completed', 'task_complete', 'turn_aborted']);

type Emit = Pick<LogEvent, 'state' | 'reason' | 'evidence' | 'prompt'> & { turn?: string | null };

export function createCodexDecoder(onProblem?: (kind: string, detail: string) => void, _file?: string, usage?: UsageSink): LineDecoder {
  const problems = new ProblemCounter(onProblem);
  let session: { id: string; cwd?: string } | undefined;
  const tokens = usage ? new CodexUsage(usage) : undefined;

  function onMeta(payload: unknown): LogEvent[] {
    const m = Meta.safeParse(payload);
    if (!m.success) problems.count('schema', () => zodDetail('session_meta', m.error));
    // The first session_meta names the file's session; later ones (forks, resumes) describe other sessions.
    else if (!session) session = { id: (m.data.id ?? m.data.session_id) as string, cwd: m.data.cwd ?? undefined };
    return [];
  }

  function onEvent(line: Line): LogEvent[] {
    const kind = line.payload.type;
    if (tokens && session) tokens.event(session.id, line.timestamp, kind, line.payload);
    if (typeof kind !== 'string' || !RELEVANT.has(kind)) return [];
    if (!session) {
      problems.count('no-session-meta', `${kind} before session_meta`);
      return [];
    }
    const e = decodeEvent(kind, line.payload, problems);
    if (!e) return [];
    const at = epochMs(line.timestamp);
    if (Number.isNaN(at)) {
      problems.count('timestamp', `${kind}: ${line.timestamp}`);
      return [];
    }
    const out: LogEvent = { agent: 'codex', sessionId: session.id, at, state: e.state, evidence: e.evidence };
    if (e.reason) out.reason = e.reason;
    if (e.prompt) out.prompt = true;
    if (session.cwd) out.cwd = session.cwd;
    if (e.turn) out.turn = e.turn;
    return [out];
  }

  return {
    problems,
    line(text: string): LogEvent[] {
      try {
        if (!codexMustParse(text)) return [];
        const raw = parseObject(text, problems);
        if (!raw) return [];
        if (raw.type !== 'session_meta' && raw.type !== 'event_msg' && raw.type !== 'turn_context') return []; // other line types say nothing here
        const line = asLine(raw);
        if (!line) {
          const r = Line.safeParse(raw); // only for the problem's detail: zod costs microseconds per line
          problems.count('schema', () => (r.success ? String(raw.type) : zodDetail(String(raw.type), r.error)));
          return [];
        }
        if (line.type === 'turn_context') {
          if (tokens && session) tokens.turnContext(session.id, line.timestamp, line.payload);
          return [];
        }
        return line.type === 'session_meta' ? onMeta(line.payload) : onEvent(line);
      } catch (err) {
        problems.count('internal', (err as Error).message); // never throw into the file watcher
        return [];
      }
    },
  };
}

/** The `Line` schema's test by hand (zod's record parse copies every payload key). */
function asLine(raw: Record<string, unknown>): Line | undefined {
  const p = raw.payload;
  const ok = typeof raw.timestamp === 'string' && typeof raw.type === 'string' && p !== null && typeof p === 'object' && !Array.isArray(p);
  return ok ? (raw as Line) : undefined;
}

/** One relevant `event_msg` payload → what it says, or undefined (schema problem counted, or nothing to say). */
function decodeEvent(kind: string, payload: unknown, problems: ProblemCounter): Emit | undefined {
  const schema =
    kind === 'item_completed' ? ItemCompleted : kind === 'task_complete' ? TaskComplete : kind === 'turn_aborted' ? TurnAborted : Turned;
  const r = schema.safeParse(payload);
  if (!r.success) {
    problems.count('schema', () => zodDetail(kind, r.error));
    return undefined;
  }
  const p = r.data as z.infer<typeof ItemCompleted> & TaskComplete & z.infer<typeof TurnAborted>;
  switch (kind) {
    case 'task_started':
      return { state: 'working', evidence: evidence('codex.task_started', 'turn started'), turn: p.turn_id, prompt: true };
    case 'item_completed':
      // Only the user's message starts work; agent messages and commands arrive inside a running turn.
      if (p.item.type !== 'UserMessage') return undefined;
      return { state: 'working', evidence: evidence('codex.item_completed', 'UserMessage'), turn: p.turn_id, prompt: true };
    case 'task_complete':
      return taskComplete(p);
    default:
      return {
        state: 'failed',
        reason: p.reason ?? 'aborted',
        evidence: evidence('codex.turn_aborted', p.reason ?? 'aborted'),
        turn: p.turn_id,
      };
  }
}

/** A failed turn is also a task_complete, one with `error`. */
function taskComplete(p: TaskComplete): Emit {
  if (!p.error)
    return { state: 'completed', evidence: evidence('codex.task_complete', `duration_ms ${p.duration_ms ?? '?'}`), turn: p.turn_id };
  const reason = errorReason(p.error.codex_error_info);
  return { state: 'failed', reason, evidence: evidence('codex.task_complete', p.error.message ?? reason), turn: p.turn_id };
}

/**
 * `codex_error_info` is a snake_case variant name, or a one-key object with details:
 * `"internal_server_error"` → "server error"; `{"response_too_many_failed_attempts":{"http_status_code":429}}` →
 * "API error 429" (the wording the other agents' decoders use; the full message goes to the evidence).
 */
export function errorReason(info: unknown): string {
  if (typeof info === 'string') {
    if (info === 'internal_server_error') return 'server error';
    return info === 'other' || info === '' ? 'error' : words(info);
  }
  if (info !== null && typeof info === 'object') {
    const [key, detail] = Object.entries(info as Record<string, unknown>)[0] ?? [];
    const status = detail !== null && typeof detail === 'object' ? (detail as Record<string, unknown>).http_status_code : undefined;
    if (typeof status === 'number') return `API error ${status}`;
    if (key) return words(key);
  }
  return 'error';
}
