import { z } from 'zod';
import type { OpenCodeFamily } from '../agents/opencode/family';
import { count, type UsageRecord, type UsageSink } from '../common/usage';

/**
 * What OpenCode's (and Kilo's) rows say a session spends, for the usage book. Read from OpenCode 1.18.33's bundled
 * binary (.agents/opencode/…/bin/opencode; Kilo 7.7.7's has the same code):
 *
 * - An assistant message's `tokens` are its model call's, as `Session.getUsage` split the provider's usage:
 *   `input = inputTokens − cacheRead − cacheWrite` (fresh input only), `output = outputTokens − reasoning`,
 *   `reasoning` apart and priced at the output price, `cache: {read, write}`. So fresh input is `input` as is, and
 *   the output a provider bills is `output + reasoning`.
 * - `cost` is USD from the model's price (models.dev data, or the provider's own figure where it reports one, as Kilo's
 *   gateway does); a provider without prices gives 0, which is what OpenCode itself adds up.
 * - At each step's end the processor sets the message's `tokens` (replacing) and adds to its `cost`, and writes a
 *   `step-finish` part with the same figures; the session row's `tokens_*`/`cost` add up the step-finish parts. Its
 *   LLM layer ends a stream at its one step-finish ("Duplicate step finish"), and each step is a new assistant message:
 *   in every recording each assistant message has one step-finish part and the messages' sums equal the session row's.
 *   The message row is rewritten while it streams (tokens 0 until the step ends), so its id is the call's id.
 * - The context figure of the TUI's header and sidebar: the newest assistant message with `tokens.output > 0`,
 *   `input + output + reasoning + cache.read + cache.write`, against the model's `limit.context`.
 */

/** The message fields read for usage; anything malformed counts as absent (0), never as a failed message. */
const AssistantUsage = z.object({
  modelID: z.string().nullish(),
  providerID: z.string().nullish(),
  cost: z.unknown(),
  tokens: z
    .object({
      input: z.unknown(),
      output: z.unknown(),
      reasoning: z.unknown(),
      cache: z.object({ read: z.unknown(), write: z.unknown() }).partial().nullish(),
    })
    .partial()
    .nullish(),
});

const TextPart = z.object({ type: z.literal('text'), text: z.string(), synthetic: z.boolean().nullish() });

/** Assistant message ids remembered per session, so a text part is known as a reply (and not the user's prompt). */
const ASSISTANTS_KEPT = 32;

/** Per session: what decides whether a rewritten row may still change the context figure or the reply. */
export interface UsageState {
  /** Recent assistant message ids, oldest first. */
  assistants: Set<string>;
  /** The newest assistant message with output tokens (the TUI's context figure is its). */
  context?: { created: number; id: string };
  /** The newest text part given as the reply (part ids ascend with time). */
  replyPart?: string;
}

export const newUsageState = (): UsageState => ({ assistants: new Set() });

/** Hands the book what OpenCode's rows say: per assistant message a call, the model and the context; per text part the reply. */
export class OpenCodeUsage {
  constructor(
    private readonly agent: OpenCodeFamily,
    private readonly sink: UsageSink,
  ) {}

  /** An assistant message row (`newest`: no newer assistant message of its session was seen). */
  message(
    st: UsageState,
    sessionId: string,
    msg: { id: string; created: number; completed?: number },
    data: unknown,
    newest: boolean,
  ): void {
    st.assistants.delete(msg.id);
    st.assistants.add(msg.id);
    if (st.assistants.size > ASSISTANTS_KEPT) st.assistants.delete(st.assistants.values().next().value!);
    const u = AssistantUsage.safeParse(data);
    if (!u.success) return;
    const rec: UsageRecord = { agent: this.agent, sessionId, at: msg.completed ?? msg.created };
    const model = u.data.modelID ? (u.data.providerID ? `${u.data.providerID}/${u.data.modelID}` : u.data.modelID) : undefined;
    if (model && newest) rec.model = model;
    const t = u.data.tokens;
    const [input, output, reasoning] = [count(t?.input), count(t?.output), count(t?.reasoning)];
    const [cacheRead, cacheWrite] = [count(t?.cache?.read), count(t?.cache?.write)];
    const tokens = { input, output: output + reasoning, cacheRead, cacheWrite };
    const cost = u.data.cost;
    // A message still streaming (or failed before its step ended) has all zeros: no call yet.
    if (input + output + reasoning + cacheRead + cacheWrite > 0)
      rec.call = typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? { id: msg.id, tokens, cost } : { id: msg.id, tokens };
    if (output > 0 && !(st.context && isOlder(msg, st.context))) {
      st.context = { created: msg.created, id: msg.id };
      rec.contextUsed = input + output + reasoning + cacheRead + cacheWrite;
    }
    if (rec.model || rec.call || rec.contextUsed !== undefined) this.sink.usage(rec);
  }

  /** A text part row: the reply, when it is an assistant message's newest text. */
  part(st: UsageState, sessionId: string, part: { id: string; messageId: string; at: number }, data: Record<string, unknown>): void {
    if (!st.assistants.has(part.messageId) || (st.replyPart !== undefined && part.id < st.replyPart)) return;
    const p = TextPart.safeParse(data);
    if (!p.success || p.data.synthetic || p.data.text.trim() === '') return;
    st.replyPart = part.id;
    this.sink.usage({ agent: this.agent, sessionId, at: part.at, reply: p.data.text });
  }
}

/** Newest by time.created, then by id (OpenCode ids ascend with time), as the decoder orders messages. */
function isOlder(m: { created: number; id: string }, than: { created: number; id: string }): boolean {
  if (m.id === than.id) return false;
  return m.created < than.created || (m.created === than.created && m.id < than.id);
}
