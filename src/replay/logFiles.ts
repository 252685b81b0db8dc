import * as l10n from '@vscode/l10n';
import { createOpenCodeDecoder, decoderFor, type LineLogAgent, type LogEvent, type OpenCodeRows } from '../jsonl';
import type { UsageBook } from '../usage/book';
import { UsageFeed } from './usageFeed';

/** A session log given to a replay: what it holds and what it says, in the log's own time. */
export interface DecodedLog {
  file: string;
  kind:
    | 'claude-code transcript'
    | 'codex rollout'
    | 'gemini chat log'
    | 'qwen chat log'
    | 'droid session log'
    | 'copilot session log'
    | 'opencode rows';
  events: LogEvent[];
  problems: number;
}

/** A log that cannot be read: one line naming the file and what is wrong. */
export class LogFileError extends Error {}

/**
 * Decodes a session log file for `replay --log`: a Claude Code transcript, a Codex rollout, a Gemini CLI or a Qwen Code
 * chat log, a droid or a Copilot CLI session log (JSON lines; told apart by their records), or OpenCode's rows as the
 * harness stores them (`storage.json`: `{db, session, message, part}`; Kilo's, `kilo-storage.json`, are told apart by
 * their `db`, a kilo*.db).
 */
export function decodeLogFile(file: string, text: string, book?: UsageBook): DecodedLog {
  const feed = book && new UsageFeed(book);
  const log = decodeAny(file, text, book, feed);
  feed?.end();
  return log;
}

function decodeAny(file: string, text: string, book: UsageBook | undefined, feed: UsageFeed | undefined): DecodedLog {
  const trimmed = text.trimStart();
  if (looksLikeRowsDump(trimmed)) return decodeRows(file, trimmed, book, feed);
  const lines = text.split('\n');
  const agent = sniffLineAgent(lines);
  if (!agent)
    throw new LogFileError(
      l10n.t(
        '{0}: not a Claude Code transcript, a Codex rollout, a Gemini CLI or Qwen Code chat log, a droid or Copilot CLI session log or an OpenCode rows dump (no sessionId, session_meta or session_start in its first lines)',
        file,
      ),
    );
  const dec = decoderFor(agent, undefined, file, book);
  const events: LogEvent[] = [];
  for (const l of lines) if (l.trim() !== '') told(events, dec.line(l.replace(/\r$/, '')), feed);
  return { file, kind: LINE_LOG_KIND[agent], events, problems: dec.problems.total };
}

/**
 * Each decoded event, and the usage book hears of each turn as the extension's log sources tell it: right after
 * the records that came before it, so a turn's tokens are the ones its own lines added.
 */
function told(events: LogEvent[], decoded: LogEvent[], feed: UsageFeed | undefined): void {
  for (const e of decoded) {
    events.push(e);
    feed?.event(e);
  }
}

const LINE_LOG_KIND = {
  'claude-code': 'claude-code transcript',
  codex: 'codex rollout',
  gemini: 'gemini chat log',
  copilot: 'copilot session log',
  qwen: 'qwen chat log',
  droid: 'droid session log',
} as const satisfies Record<LineLogAgent, DecodedLog['kind']>;

function sniffLineAgent(lines: string[]): LineLogAgent | undefined {
  for (const l of lines.slice(0, 50)) {
    if (l.includes('"session_meta"')) return 'codex';
    // Copilot CLI's first record: {"type":"session.start","data":{"sessionId":…,"producer":"copilot-agent",…}}.
    if (l.includes('"producer":"copilot-agent"')) return 'copilot';
    // Gemini's first line: {"sessionId":…,"projectHash":…}; Claude's entries name their sessionId too.
    if (l.includes('"projectHash"')) return 'gemini';
    // Qwen Code's records name their sessionId as Claude's do, and each its provenance, which Claude's never have.
    if (l.includes('"provenance":"')) return 'qwen';
    // droid's first line: {"type":"session_start","id":…}; no other agent's log has that record.
    if (l.includes('"type":"session_start"')) return 'droid';
    if (l.includes('"sessionId"')) return 'claude-code';
  }
  return undefined;
}

function looksLikeRowsDump(text: string): boolean {
  if (!text.startsWith('{')) return false;
  try {
    const o = JSON.parse(text) as Record<string, unknown>;
    return Array.isArray(o.session) && Array.isArray(o.message);
  } catch {
    return false;
  }
}

/**
 * A dump holds each row as it ended up; fed in the order the rows were created (sessions first), the
 * decoder sees a turn start when its user message appears and its end when the reply's row does.
 */
function decodeRows(file: string, text: string, book: UsageBook | undefined, feed: UsageFeed | undefined): DecodedLog {
  const o = JSON.parse(text) as Record<string, unknown>;
  if (o.part !== undefined && !Array.isArray(o.part))
    throw new LogFileError(
      l10n.t('{0}: "part" is not a list of rows: an OpenCode rows dump is {"session": [...], "message": [...], "part": [...]}', file),
    );
  const dec = createOpenCodeDecoder(
    undefined,
    typeof o.db === 'string' && /(^|[/\\])kilo[^/\\]*\.db$/.test(o.db) ? 'kilocode' : 'opencode',
    book,
  );
  // A row that is not an object is a broken dump line: counted as a problem, not fed to the decoder.
  let skipped = 0;
  const objects = (list: unknown) =>
    ((list as unknown[] | undefined) ?? []).filter((r): r is { time_created: number } => {
      const ok = typeof r === 'object' && r !== null && !Array.isArray(r);
      if (!ok) skipped++;
      return ok;
    });
  const events: LogEvent[] = [];
  told(events, dec.rows({ session: objects(o.session) as unknown as OpenCodeRows['session'], message: [], part: [] }), feed);
  type Row = { table: 'message' | 'part'; row: { time_created: number } };
  const rows: Row[] = [
    ...objects(o.message).map((row) => ({ table: 'message' as const, row })),
    ...objects(o.part).map((row) => ({ table: 'part' as const, row })),
  ];
  const created = (r: Row) => (typeof r.row.time_created === 'number' ? r.row.time_created : 0);
  rows.sort((a, b) => created(a) - created(b));
  for (const r of rows)
    told(
      events,
      dec.rows(
        r.table === 'message'
          ? { session: [], message: [r.row as OpenCodeRows['message'][number]], part: [] }
          : { session: [], message: [], part: [r.row as OpenCodeRows['part'][number]] },
      ),
      feed,
    );
  return { file, kind: 'opencode rows', events, problems: dec.problems.total + skipped };
}
