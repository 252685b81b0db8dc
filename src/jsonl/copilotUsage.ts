import { z } from 'zod';
import { count, fromInclusiveInput, type Tokens, type UsageRecord, type UsageSink } from '../common/usage';
import { epochMs } from './common';
import type { LogEvent } from './types';

/**
 * What GitHub Copilot CLI 1.0.102's session log (`events.jsonl`) says a session spends, for the usage book. Read from
 * the CLI's own schema of its events (`schemas/session-events.schema.json` in the unpacked app,
 * `~/.cache/copilot/pkg/linux-x64/1.0.102/`) and its bundled `cli-main.js`:
 *
 * - `session.usage_record` is written once per model call (every call: the agent's, a sub-agent's, a compaction's):
 *   `data.usage` = `{model, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, reasoningTokens, cost,
 *   maxPromptTokens, apiCallId, accounting: {usageId}, interactionType, parentToolCallId, …}`. `inputTokens` is the
 *   whole prompt, cache reads and writes included: the CLI's own accounting takes the uncached input as
 *   `max(0, inputTokens − cacheRead − cacheWrite)` (`inputTokensUncached`, cli-main.js). Reasoning is inside
 *   `outputTokens` (OpenAI's completion_tokens; the schema calls it "output tokens used for reasoning").
 *   `cost` is "model multiplier cost for billing purposes" (premium requests), not money: it is not read.
 *   The session's shutdown record adds up the same records (`modelMetrics`): the tests compare both.
 * - `maxPromptTokens`, "effective maximum prompt-token limit used for this model call", is the window the CLI fills
 *   (and compacts against); the model's own window can be larger (64000 for a BYOK gpt-4.1).
 * - The context after a call: its whole prompt and its output, for the main agent's own calls only (a sub-agent's
 *   record has `agentId` or `parentToolCallId`; compaction, sampling and background calls have their own
 *   `interactionType`). The CLI's own running context count (`session.usage_info`) is ephemeral, never written.
 * - The model: `session.start.selectedModel`, `session.model_change.newModel`, then each call's.
 */

const Usage = z.object({
  model: z.string().nullish().catch(undefined),
  inputTokens: z.unknown(),
  outputTokens: z.unknown(),
  cacheReadTokens: z.unknown(),
  cacheWriteTokens: z.unknown(),
  maxPromptTokens: z.unknown(),
  apiCallId: z.string().nullish().catch(undefined),
  accounting: z.object({ usageId: z.string().nullish() }).nullish().catch(undefined),
  interactionType: z.string().nullish().catch(undefined),
  parentToolCallId: z.string().nullish().catch(undefined),
});
const UsageEntry = z.object({
  id: z.string().nullish().catch(undefined),
  timestamp: z.string(),
  agentId: z.string().nullish().catch(undefined),
  data: z.object({ usage: Usage }),
});
const ModelChange = z.object({ timestamp: z.string(), data: z.object({ newModel: z.string() }) });

/** The interaction types of the main agent's own turns (absent in older CLIs: then the call counts as the agent's). */
const MAIN = new Set(['conversation-agent', 'conversation-user']);

export class CopilotUsage {
  constructor(
    private readonly sink: UsageSink,
    private readonly session: () => string | undefined,
  ) {}

  /** A `session.usage_record` or `session.model_change` entry; a record of another shape is passed over. */
  record(entry: Record<string, unknown>): LogEvent[] {
    if (entry.type === 'session.model_change') {
      const m = ModelChange.safeParse(entry);
      if (m.success) this.model(m.data.timestamp, m.data.data.newModel);
      return [];
    }
    const r = UsageEntry.safeParse(entry);
    if (!r.success) return [];
    const u = r.data.data.usage;
    const rec = this.base(r.data.timestamp);
    if (!rec) return [];
    if (u.model) rec.model = u.model;
    const id = u.apiCallId ?? u.accounting?.usageId ?? r.data.id;
    if (id) rec.call = { id, tokens: callTokens(u) };
    const main = !r.data.agentId && !u.parentToolCallId && (!u.interactionType || MAIN.has(u.interactionType));
    if (main) {
      const used = count(u.inputTokens) + count(u.outputTokens);
      if (used > 0) rec.contextUsed = used;
      const window = count(u.maxPromptTokens);
      if (window > 0) rec.contextWindow = window;
    }
    this.sink.usage(rec);
    return [];
  }

  model(timestamp: string, model: string): void {
    const rec = this.base(timestamp);
    if (rec) this.sink.usage({ ...rec, model });
  }

  /** The main agent's words to the user (`assistant.message.content`). */
  reply(timestamp: string, text: string): void {
    const rec = this.base(timestamp);
    if (rec) this.sink.usage({ ...rec, reply: text });
  }

  private base(timestamp: string): UsageRecord | undefined {
    const sessionId = this.session();
    const at = epochMs(timestamp);
    if (!sessionId || Number.isNaN(at)) return undefined;
    return { agent: 'copilot', sessionId, at };
  }
}

function callTokens(u: z.infer<typeof Usage>): Tokens {
  return fromInclusiveInput(u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens);
}
