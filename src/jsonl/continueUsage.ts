import { z } from 'zod';
import { count, type Tokens, totalTokens, type UsageRecord } from '../common/usage';

/**
 * What Continue CLI 1.5.47's session file says a session spends, for the usage book. Read from its bundled
 * `dist/index.js` (.agents/continue-cli/node_modules/@continuedev/cli):
 *
 * - The file's `usage` `{totalCost, promptTokens, completionTokens, promptTokensDetails: {cachedTokens,
 *   cacheWriteTokens}}` is cn's own running account of the session (`trackUsage`, after every streamed model
 *   call; read back on resume by `syncUsageFromSession`); its `/info` prints the same as "Usage: Total Cost, Input
 *   Tokens, Output Tokens, Cache Read Tokens, Cache Write Tokens". The title request is not in it.
 * - `promptTokens` is the response's `prompt_tokens`, and the cache counts its `prompt_tokens_details.
 *   cache_read_tokens` / `cache_write_tokens`, which only cn's Anthropic and AI SDK adapters fill in. cn prices them
 *   apart (prompt at the input price plus cache reads and writes at theirs), so prompt tokens are fresh input here.
 *   An OpenAI provider's cached share (its `cached_tokens`, inside `prompt_tokens`) is not told apart by cn: it
 *   counts as fresh input, as in cn's own figures.
 * - `totalCost` (USD) is cn's own price of each call from its small built-in table (`gpt-4`, `gpt-4o`, `claude-3-5-…`,
 *   `claude-sonnet-4-6`, … by prefix), else $1/$2 per million in/out; it is what cn shows, so it is the log's cost.
 * - Each assistant item keeps its call's `usage` (`prompt_tokens`, `completion_tokens`, `model`, `cost_cents`
 *   rounded to whole cents): the newest gives the model and the context after it (prompt, cache, output). cn's footer
 *   "Context: N%" is its own estimate of the history's tokens, not written anywhere.
 *
 * The session account becomes one "call" with the session's id, replaced by each newer content: the book then holds
 * cn's totals and its cost, whatever the history holds (cn compacts it; the account stays).
 */

const Details = z.object({ cachedTokens: z.unknown(), cacheWriteTokens: z.unknown() }).partial();
export const SessionUsage = z
  .object({
    totalCost: z.unknown(),
    promptTokens: z.unknown(),
    completionTokens: z.unknown(),
    promptTokensDetails: Details.nullish().catch(undefined),
  })
  .nullish()
  .catch(undefined);

const CallUsage = z.object({
  prompt_tokens: z.unknown(),
  completion_tokens: z.unknown(),
  model: z.string().nullish().catch(undefined),
  prompt_tokens_details: z.object({ cache_read_tokens: z.unknown(), cache_write_tokens: z.unknown() }).partial().nullish().catch(undefined),
});
const Said = z.object({
  message: z.object({
    role: z.string(),
    content: z.unknown(),
    usage: CallUsage.nullish().catch(undefined),
  }),
});

/** History items looked at from the newest for the model and the reply: a turn's tool rounds are a few items. */
const LOOK_BACK = 64;

export function continueUsage(
  session: { sessionId: string; history: unknown[]; usage?: z.infer<typeof SessionUsage> },
  at: number,
): UsageRecord {
  const rec: UsageRecord = { agent: 'continue-cli', sessionId: session.sessionId, at };
  const u = session.usage;
  if (u) {
    const tokens: Tokens = {
      input: count(u.promptTokens),
      output: count(u.completionTokens),
      cacheRead: count(u.promptTokensDetails?.cachedTokens),
      cacheWrite: count(u.promptTokensDetails?.cacheWriteTokens),
    };
    const cost = count(u.totalCost);
    if (totalTokens(tokens) > 0 || cost > 0) rec.call = { id: `${session.sessionId}:session`, tokens, cost };
  }
  newest(session.history, rec);
  return rec;
}

/** The newest assistant item's model and context, and the newest words it said. */
function newest(history: unknown[], rec: UsageRecord): void {
  let call = false;
  let said = false;
  const stop = Math.max(0, history.length - LOOK_BACK);
  for (let i = history.length - 1; i >= stop && !(call && said); i--) {
    const item = Said.safeParse(history[i]);
    if (!item.success || item.data.message.role !== 'assistant') continue;
    const m = item.data.message;
    if (!call && m.usage) {
      call = true;
      const d = m.usage.prompt_tokens_details;
      const used =
        count(m.usage.prompt_tokens) + count(d?.cache_read_tokens) + count(d?.cache_write_tokens) + count(m.usage.completion_tokens);
      if (used > 0) rec.contextUsed = used;
      if (m.usage.model) rec.model = m.usage.model;
    }
    const text = said ? '' : words(m.content);
    if (text.trim() !== '') {
      said = true;
      rec.reply = text;
    }
  }
}

function words(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : ''))
    .join('');
}
