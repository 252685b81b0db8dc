import * as fs from 'fs';
import * as path from 'path';
import { decoderFor } from '../../../src/jsonl';
import { type SessionUsage, UsageBook } from '../../../src/usage/book';
import { FIXTURES, ROOT } from '../helpers';

/**
 * The real session logs of one agent (harness recordings in test/fixtures/live, hand-labelled ones in
 * ../shared/recordings), decoded whole into a usage book, and what the mock model server says it served.
 */

const SHARED = process.env.AGENT_LENS_SHARED_RECORDINGS ?? path.join(ROOT, '..', 'shared', 'recordings');

export interface SessionLog {
  key: string;
  dir: string;
  file: string;
}

/** Every recording folder of `agent` that holds its session log `name`, live ones first. */
export function sessionLogs(agent: string, name: string): SessionLog[] {
  const out: SessionLog[] = [];
  for (const [origin, root] of [
    ['live', path.join(FIXTURES, 'live')],
    ['shared', SHARED],
  ] as const) {
    const dir = path.join(root, agent);
    if (!fs.existsSync(dir)) continue;
    for (const scenario of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, scenario, name);
      if (fs.existsSync(file)) out.push({ key: `${origin}/${agent}/${scenario}`, dir: path.join(dir, scenario), file });
    }
  }
  return out;
}

export function jsonLines(file: string): Array<Record<string, unknown>> {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The log through the agent's decoder into a fresh book, line by line as the tailer hands it; its problems counted. */
export function decodeUsage(agent: 'gemini' | 'qwen', file: string): { sessions: SessionUsage[]; problems: string[] } {
  const book = new UsageBook();
  const problems: string[] = [];
  const decoder = decoderFor(agent, (kind, detail) => problems.push(`${kind}: ${detail}`), file, book);
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) if (line !== '') decoder.line(line);
  return { sessions: book.all(), problems };
}

export interface MockUsage {
  input: number;
  output: number;
  /** Agent requests whose response carried usage. */
  requests: number;
}

/**
 * What the mock served the agent's own requests (`kind: "agent"`; side requests such as Gemini's router or Qwen's
 * follow-up suggestions never reach the session log): the last usage event of each request `n`, added up.
 * Undefined for a recording made before the mock logged usage.
 */
export function mockUsage(dir: string): MockUsage | undefined {
  const kinds = new Map<number, unknown>();
  const last = new Map<number, { input: number; output: number }>();
  for (const e of jsonLines(path.join(dir, 'mock-requests.jsonl'))) {
    if (typeof e.n !== 'number') continue;
    if (e.kind !== undefined) kinds.set(e.n, e.kind);
    if (e.event === 'usage') last.set(e.n, { input: Number(e.input), output: Number(e.output) });
  }
  if (last.size === 0) return undefined;
  const sum = { input: 0, output: 0, requests: 0 };
  for (const [n, u] of last) {
    if (kinds.get(n) !== 'agent') continue;
    sum.input += u.input;
    sum.output += u.output;
    sum.requests++;
  }
  return sum;
}
