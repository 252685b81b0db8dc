import { count, fromInclusiveInput, type Tokens, type UsageRecord, type UsageSink } from '../common/usage';
import { epochMs } from './common';

/**
 * What Codex 0.169.0 rollouts say about usage, as the usage book wants it.
 *
 * - `event_msg`/`token_count` (after each model response; `info` is null until the first usage): `info.total_token_usage`
 *   is Codex's running total of the thread (`TokenUsageInfo::append_last_usage` adds each response's
 *   `last_token_usage`), so it goes to the book as `totals`, never as calls. Its counts follow the Responses API:
 *   `input_tokens` is the whole prompt, `cached_input_tokens` the part read from the cache (codex-rs
 *   `TokenUsage::non_cached_input` = input − cached; the 0.169.0 binary reports
 *   `codex.turn.token_usage.non_cached_input_tokens`), `cache_write_input_tokens` is another part of that prompt
 *   (0 in every recording: the mock never reports one), and `output_tokens` includes `reasoning_output_tokens`
 *   (the Responses API's `output_tokens_details.reasoning_tokens` is a breakdown; `total_tokens` = input + output
 *   in every recording, and 0.169.0 writes `last_usage_includes_reasoning: true`).
 * - Context: codex-rs `TokenUsage::tokens_in_context_window` is `last_token_usage.total_tokens` ("what one request
 *   put in the model's context window"); `info.model_context_window` is the window. Its "% left"
 *   (`percent_of_context_window_remaining`) leaves out a baseline of 12,000 tokens ("prompts, tools and space to call
 *   compact") on both sides. Measured on 0.169.0's /status after a recording's two turns: last total_tokens 15050,
 *   window 258400 → "Context window: 99% left (15.1K used / 258K)"; without the baseline it would say 94%.
 * - Model: `turn_context.payload.model`, one per turn. Reply: `task_complete.last_agent_message`, and before it each
 *   `item_completed` AgentMessage (so an interrupted turn's last words are kept too).
 */
const TYPE = '"type":"';
const EVENT = 'event_msg","payload":{"type":"';
const ITEM = '"item":{"type":"';

/**
 * A line with usage but no state, told by the types Codex writes first (`{"timestamp":…,"ordinal":…,"type":"<line>",
 * "payload":{"type":"<event>"`, an item's type after its two ids): a turn_context, a token_count, an AgentMessage
 * item. A needle searched in every line costs ~2 µs a line (response items of 20 KB), this a few dozen characters.
 */
export function codexUsageLine(line: string): boolean {
  const i = line.indexOf(TYPE);
  if (i < 0) return false;
  const t = i + TYPE.length;
  if (line.startsWith('turn_context"', t)) return true;
  if (!line.startsWith(EVENT, t)) return false;
  const p = t + EVENT.length;
  if (line.startsWith('token_count"', p)) return true;
  if (!line.startsWith('item_completed"', p)) return false;
  const k = line.indexOf(ITEM, p);
  return k >= 0 && line.startsWith('AgentMessage"', k + ITEM.length);
}

/** codex-rs `BASELINE_TOKENS`: what Codex's own context percentage leaves out (see above). */
export const CODEX_CONTEXT_BASELINE = 12_000;

export class CodexUsage {
  constructor(private readonly sink: UsageSink) {}

  /** A `turn_context` line: the model this turn runs. */
  turnContext(sessionId: string, timestamp: string, payload: Record<string, unknown>): void {
    if (typeof payload.model === 'string' && payload.model) this.emit(sessionId, timestamp, { model: payload.model });
  }

  /** An `event_msg` line of a kind that says something about usage. */
  event(sessionId: string, timestamp: string, kind: unknown, payload: Record<string, unknown>): void {
    if (kind === 'token_count') this.tokenCount(sessionId, timestamp, payload.info);
    else if (kind === 'task_complete' && typeof payload.last_agent_message === 'string')
      this.emit(sessionId, timestamp, { reply: payload.last_agent_message });
    else if (kind === 'item_completed') {
      const reply = agentMessageText(payload.item);
      if (reply !== undefined) this.emit(sessionId, timestamp, { reply });
    }
  }

  private tokenCount(sessionId: string, timestamp: string, info: unknown): void {
    if (info === null || typeof info !== 'object') return; // no usage yet (a turn aborted before its response)
    const i = info as Record<string, unknown>;
    const r: Partial<UsageRecord> = {};
    const total = asRecord(i.total_token_usage);
    if (total) r.totals = codexTokens(total);
    const last = asRecord(i.last_token_usage);
    if (last) {
      r.contextUsed = contextTokens(last);
      r.contextBaseline = CODEX_CONTEXT_BASELINE;
    }
    const window = count(i.model_context_window);
    if (window > 0) r.contextWindow = window;
    if (r.totals || r.contextUsed !== undefined) this.emit(sessionId, timestamp, r);
  }

  private emit(sessionId: string, timestamp: string, r: Partial<UsageRecord>): void {
    const at = epochMs(timestamp);
    if (!Number.isNaN(at)) this.sink.usage({ ...r, agent: 'codex', sessionId, at });
  }
}

/** A Codex `TokenUsage` as the book's four prices: fresh input is what neither the cache gave nor wrote. */
export function codexTokens(u: Record<string, unknown>): Tokens {
  return fromInclusiveInput(u.input_tokens, u.output_tokens, u.cached_input_tokens, u.cache_write_input_tokens);
}

/** codex-rs `tokens_in_context_window`: the response's `total_tokens` (input + output when a log lacks it). */
export function contextTokens(u: Record<string, unknown>): number {
  const total = count(u.total_tokens);
  return total > 0 ? total : count(u.input_tokens) + count(u.output_tokens);
}

/** The text of an `item_completed` AgentMessage item (`content: [{type: "Text", text}]`), else undefined. */
function agentMessageText(item: unknown): string | undefined {
  const it = asRecord(item);
  if (!it || it.type !== 'AgentMessage' || !Array.isArray(it.content)) return undefined;
  const texts: string[] = [];
  for (const c of it.content as unknown[]) {
    const t = asRecord(c)?.text;
    if (typeof t === 'string') texts.push(t);
  }
  return texts.length ? texts.join('') : undefined;
}

function asRecord(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
