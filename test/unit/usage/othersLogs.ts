import * as fs from 'fs';
import { decoderFor } from '../../../src/jsonl';
import { type SessionUsage, UsageBook } from '../../../src/usage/book';

/**
 * A JSON-lines session log (droid's, Copilot CLI's) through its decoder into a fresh usage book, line by line as the
 * tailer hands it, each decoded event told to the book as the log sources tell it (so turns are counted).
 */
export function decodeLineLog(agent: 'droid' | 'copilot', file: string): { sessions: SessionUsage[]; problems: string[] } {
  const book = new UsageBook();
  const problems: string[] = [];
  const decoder = decoderFor(agent, (kind, detail) => problems.push(`${kind}: ${detail}`), file, book);
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) if (line !== '') for (const e of decoder.line(line)) book.event(e);
  return { sessions: book.all(), problems };
}

/** Every key path of a log's records (`message.message.modelId`), to tell what a log carries at all. */
export function keyPaths(records: Array<Record<string, unknown>>): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, at: string): void => {
    if (Array.isArray(v)) for (const x of v) walk(x, at);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        out.add(`${at}.${k}`);
        walk(x, `${at}.${k}`);
      }
  };
  for (const r of records) walk(r, String(r.type));
  return out;
}
