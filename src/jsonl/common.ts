import type { z, ZodError } from 'zod';
import type { LogEvent, ProblemCounter } from './types';
import { parseJson } from '../common/json';

/**
 * Whether a line has to be parsed at all. Session logs are dominated by huge entries that never matter
 * (Claude `attachment`, `api-request-shape`; Codex `additional_tools`), and JSON.parse of 100 KB costs far
 * more than a few indexOf scans. A line is skipped only when it is one whole JSON object (so garbage and
 * truncated lines still reach JSON.parse and get counted) and contains none of the substrings that every
 * relevant entry must contain. Nested "type" keys can only add false positives, which parse and are ignored.
 */
export function mustParse(line: string, needles: readonly string[]): boolean {
  if (!looksWhole(line)) return true;
  for (const n of needles) if (line.includes(n)) return true;
  return false;
}

function looksWhole(line: string): boolean {
  let end = line.length - 1;
  while (end > 0 && isSpace(line.charCodeAt(end))) end--;
  let start = 0;
  while (start < end && isSpace(line.charCodeAt(start))) start++;
  return line.charCodeAt(start) === 0x7b /* { */ && line.charCodeAt(end) === 0x7d; /* } */
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

/** JSON.parse that counts instead of throwing; only plain objects count as entries. */
export function parseObject(line: string, problems: ProblemCounter): Record<string, unknown> | undefined {
  if (line.trim() === '') {
    problems.count('empty', 'empty line');
    return undefined;
  }
  if (!looksWhole(line)) {
    // Not even shaped like one object: counted without JSON.parse, whose thrown error is most of a bad line's cost.
    problems.count('json', `not one JSON object: ${line.slice(0, 80)}`);
    return undefined;
  }
  let value: unknown;
  try {
    value = parseJson(line);
  } catch (err) {
    problems.count('json', `${(err as Error).message}: ${line.slice(0, 80)}`);
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.count('schema', `not an object: ${line.slice(0, 80)}`);
    return undefined;
  }
  return value as Record<string, unknown>;
}

/** Epoch ms of an ISO timestamp; NaN when it does not parse (the caller counts it). */
export function epochMs(iso: string): number {
  return Date.parse(iso);
}

/** `claude.turn-duration: "durationMs 2310"`: the record, then what it said, quoted and kept short. */
export function evidence(record: string, detail: string): string {
  const short = detail.length > 160 ? `${detail.slice(0, 160)}…` : detail;
  return `${record}: ${JSON.stringify(short)}`;
}

/** The first zod issue, as `path: message`: enough to find the field that changed in a new CLI version. */
export function zodDetail(what: string, err: ZodError): string {
  const issue = err.issues[0];
  if (!issue) return what;
  return `${what}: ${issue.path.join('.') || '(root)'}: ${issue.message}`;
}

/** `internal_server_error` → `internal server error`. */
export function words(id: string): string {
  return id.replace(/_/g, ' ').trim();
}

/**
 * Parses a log entry with `schema` and hands it on, or counts it as a schema problem. The string fields every
 * decoded entry has (`required`) are checked by hand first, because a failed zod parse costs microseconds per
 * issue and a log of broken entries would cost that per line (`npm run bench`: many tiny and broken lines).
 */
export function checkedEntry<S extends z.ZodTypeAny, T>(
  problems: ProblemCounter,
  required: readonly string[],
  schema: S,
  entry: Record<string, unknown>,
  then: (v: z.infer<S>) => T[],
): T[] {
  const missing = required.filter((k) => typeof entry[k] !== 'string');
  if (missing.length) {
    problems.count('schema', `${String(entry.type)}: ${missing.join(' or ')} is not a string`);
    return [];
  }
  const r = schema.safeParse(entry);
  if (!r.success) {
    problems.count('schema', () => zodDetail(String(entry.type), r.error));
    return [];
  }
  return then(r.data);
}

/**
 * One line of a JSON-lines log through a decoder: a line with none of its needles is skipped unparsed, the rest is
 * parsed as one object and decoded. What the decoder throws is counted, never thrown into the file watcher.
 */
export function decodeLine(
  text: string,
  needles: readonly string[],
  problems: ProblemCounter,
  decode: (entry: Record<string, unknown>) => LogEvent[],
): LogEvent[] {
  try {
    if (!mustParse(text, needles)) return [];
    const entry = parseObject(text, problems);
    return entry ? decode(entry) : [];
  } catch (err) {
    problems.count('internal', (err as Error).message);
    return [];
  }
}
