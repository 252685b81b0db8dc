import { addTokens, count, NO_TOKENS, type Tokens, type UsageRecord, type UsageSink } from '../common/usage';
import { epochMs } from './common';

/**
 * What Claude Code 2.1.328 transcripts say about usage, as the usage book wants it. Found in its bundled JS
 * (.agents/claude-code/…/claude-code-linux-x64/claude, minified names of that build):
 *
 * - Calls: an `assistant` entry's `message.usage` is the API's (Anthropic semantics: `input_tokens` is the fresh
 *   input, cache reads and writes are apart, `output_tokens` includes thinking). One response is written as one entry
 *   per content block, all with its `message.id`: the id is the call's, so the book replaces and never adds twice.
 *   `model: "<synthetic>"` entries are Claude's own stand-ins (API errors, interruptions): no call.
 * - Context: Claude's "% context used" / "Context low" indicator counts the last assistant message's usage whose
 *   model is not `<synthetic>` and that is not `isUnmetered`: input + cache creation + cache read + output
 *   (`OI(e)`, found from the end by `Urs`); a `compact_boundary` met first makes it 0. The status line's
 *   `used_percentage` leaves the output out; the TUI's own indicator is followed here.
 * - Totals: `/cost` and the `cost-state` entry (written when the session ends, restored on resume) come from the
 *   cost tracker, which adds every API response of the process (`iJe` in the API layer): subagents, compaction and
 *   interrupted streams included. A subagent's entries (`isSidechain`) therefore count toward the session's tokens
 *   (not its context, model or reply), and `cost-state`'s `modelUsage` replaces the sum of the calls: in the
 *   recordings it equals that sum, plus the compaction call /compact never logs as an entry (24), the subagent
 *   logged in its own file (25) and the output of a stream interrupted before its usage came (08).
 */
export const SYNTHETIC_MODEL = '<synthetic>';

const TYPE = '"type":"';
const COST_STATE = '{"type":"cost-state"';
const COMPACT_BOUNDARY = 'system","subtype":"compact_boundary"';

/**
 * An entry with usage but no state: a `cost-state` (its type first) or a `compact_boundary` (`"type":"system",
 * "subtype":…` at its first "type", ~90 characters in). Told where Claude writes them, not by searching the whole
 * line: a needle searched in every line costs ~2 µs a line (the 4 KB average), this a few dozen characters.
 */
export function claudeUsageLine(line: string): boolean {
  if (line.startsWith(COST_STATE)) return true;
  const i = line.indexOf(TYPE);
  return i >= 0 && line.startsWith(COMPACT_BOUNDARY, i + TYPE.length);
}

/** The fields of an `assistant` entry this reads (the decoder's zod schema checked them). */
export interface AssistantUsage {
  sessionId: string;
  timestamp: string;
  isUnmetered?: boolean | null;
  message: {
    id?: string | null;
    model?: string | null;
    usage?: unknown;
    content?: readonly { type: string; text?: string | null }[] | null;
  };
}

export class ClaudeUsage {
  constructor(private readonly sink: UsageSink) {}

  /** A main-chain entry gives the call, the model, the context and the reply; a subagent's only its call. */
  assistant(a: AssistantUsage, main: boolean): void {
    const m = a.message;
    if (m.model === SYNTHETIC_MODEL || a.isUnmetered) return;
    const at = epochMs(a.timestamp);
    if (Number.isNaN(at)) return; // the decoder counts bad timestamps where it emits state
    const r: UsageRecord = { agent: 'claude-code', sessionId: a.sessionId, at };
    const tokens = callTokens(m.usage);
    if (tokens && m.id) r.call = { id: m.id, tokens };
    if (main) {
      if (m.model) r.model = m.model;
      if (tokens) r.contextUsed = tokens.input + tokens.cacheRead + tokens.cacheWrite + tokens.output;
      const reply = lastText(m.content);
      if (reply !== undefined) r.reply = reply;
    }
    if (r.call || r.model || r.reply !== undefined) this.sink.usage(r);
  }

  /** After /compact (or auto-compaction) nothing is counted in the context until the next call. */
  compacted(sessionId: string, timestamp: string): void {
    const at = epochMs(timestamp);
    if (!Number.isNaN(at)) this.sink.usage({ agent: 'claude-code', sessionId, at, contextUsed: 0 });
  }

  /** `cost-state`: the cost tracker's totals per model; it has no timestamp, but its start and duration. */
  costState(e: Record<string, unknown>): void {
    if (typeof e.sessionId !== 'string' || e.modelUsage === null || typeof e.modelUsage !== 'object') return;
    const at = count(e.startTime) + count(e.totalDuration);
    if (at === 0) return;
    let totals: Tokens = NO_TOKENS;
    for (const u of Object.values(e.modelUsage as Record<string, unknown>)) {
      if (u === null || typeof u !== 'object') continue;
      const m = u as Record<string, unknown>;
      totals = addTokens(totals, {
        input: count(m.inputTokens),
        output: count(m.outputTokens),
        cacheRead: count(m.cacheReadInputTokens),
        cacheWrite: count(m.cacheCreationInputTokens),
      });
    }
    this.sink.usage({ agent: 'claude-code', sessionId: e.sessionId, at, totals });
  }
}

/** The four counts of a `message.usage`, or undefined when the entry has none. */
export function callTokens(usage: unknown): Tokens | undefined {
  if (usage === null || typeof usage !== 'object') return undefined;
  const u = usage as Record<string, unknown>;
  return {
    input: count(u.input_tokens),
    output: count(u.output_tokens),
    cacheRead: count(u.cache_read_input_tokens),
    cacheWrite: count(u.cache_creation_input_tokens),
  };
}

/** The entry's last text block (Claude writes one block per entry; older versions several). */
function lastText(blocks: AssistantUsage['message']['content']): string | undefined {
  if (!blocks) return undefined;
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i]!;
    if (b.type === 'text' && typeof b.text === 'string') return b.text;
  }
  return undefined;
}
