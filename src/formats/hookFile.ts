import { z } from 'zod';
import type { Report } from '../hooks/report';
import { REPORTING_AGENTS, type ReportingAgent } from '../hooks/report';
import { parseJson } from '../common/json';

/**
 * `replay --hooks FILE`: recorded hook payloads, one JSON object a line, each as the reporter would have
 * sent it, with its time either on the cast's clock or on the wall clock:
 *   {"t": 12.3, "agent": "claude-code", "payload": {…}}          seconds on the cast clock
 *   {"at_ms": 1796229284638, "agent": "codex", "payload": {…}}   epoch ms, placed by --t0
 * `payload` is the hook's stdin JSON (Claude Code, Codex, Gemini CLI), OpenCode's bus event
 * `{type, properties}`, or Hermes's `{hook, ...kwargs}`.
 */

/** Longest line read, in characters: the reporter reads at most 1 MiB of a hook's stdin. */
export const HOOK_LINE_LIMIT = 1024 * 1024;

/** One recorded hook run, read from a file. Exactly one of `t` and `atMs` is set. */
export interface HookLine {
  file: string;
  line: number;
  agent: ReportingAgent;
  payload: Record<string, unknown>;
  /** Seconds on the cast's clock. */
  t?: number;
  /** Epoch milliseconds. */
  atMs?: number;
}

/** A hooks file that cannot be read: one line naming the file, the line and what is wrong. */
export class HookFileError extends Error {}

const PAYLOAD_IS = "the hook's stdin JSON, OpenCode's bus event {type, properties} or Hermes's {hook, …}";

const lineSchema = z.object({
  t: z.number({ invalid_type_error: '"t" must be a number (seconds on the cast clock)' }).finite().optional(),
  at_ms: z
    .number({ invalid_type_error: '"at_ms" must be a number (epoch milliseconds)' })
    .finite()
    .positive('"at_ms" must be epoch milliseconds, above 0')
    .optional(),
  agent: z.enum(REPORTING_AGENTS),
  payload: z.record(z.unknown(), {
    required_error: `"payload" is missing (${PAYLOAD_IS})`,
    invalid_type_error: `"payload" must be an object (${PAYLOAD_IS})`,
  }),
});

/** Reads a hooks file; blank lines are skipped. Throws HookFileError at the first bad line. */
export function parseHookFile(file: string, text: string): HookLine[] {
  const out: HookLine[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].replace(/\r$/, '');
    if (raw.trim() === '') continue;
    out.push(parseLine(raw, (what) => new HookFileError(`${file}:${i + 1}: ${what}`), file, i + 1));
  }
  return out;
}

function parseLine(raw: string, fail: (what: string) => HookFileError, file: string, line: number): HookLine {
  if (raw.length > HOOK_LINE_LIMIT) throw fail(`line longer than ${HOOK_LINE_LIMIT} characters`);
  let v: unknown;
  try {
    v = parseJson(raw);
  } catch (e) {
    throw fail(`not JSON: ${(e as Error).message}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw fail('not a JSON object ({"t" or "at_ms", "agent", "payload"})');
  const o = v as Record<string, unknown>;
  if ('t' in o && 'at_ms' in o) throw fail('both "t" and "at_ms": give one');
  if (!('t' in o) && !('at_ms' in o)) throw fail('no time: give "t" (seconds on the cast clock) or "at_ms" (epoch milliseconds)');
  const r = lineSchema.safeParse(o);
  if (!r.success) throw fail(describe(r.error.issues[0], o));
  const h: HookLine = { file, line, agent: r.data.agent, payload: r.data.payload };
  if (r.data.t !== undefined) h.t = r.data.t;
  if (r.data.at_ms !== undefined) h.atMs = r.data.at_ms;
  return h;
}

function describe(issue: z.ZodIssue | undefined, o: Record<string, unknown>): string {
  if (!issue) return 'not a hook line';
  if (issue.path[0] === 'agent') {
    return o.agent === undefined
      ? `"agent" is missing (one of ${REPORTING_AGENTS.join(', ')})`
      : `unknown agent ${JSON.stringify(o.agent)} (one of ${REPORTING_AGENTS.join(', ')})`;
  }
  return issue.message;
}

/** The lines as the hub would have received them: reports at epoch ms, `t` lines placed by `t0Ms`, oldest first. */
export function hookReports(lines: readonly HookLine[], t0Ms: number): Report[] {
  return lines
    .map((h): Report => ({ v: 1, agent: h.agent, at: h.atMs ?? t0Ms + h.t! * 1000, payload: h.payload }))
    .sort((a, b) => a.at - b.at);
}
