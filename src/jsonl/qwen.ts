import { z } from 'zod';
import { count, type Tokens, type UsageRecord, type UsageSink } from '../common/usage';
import { checkedEntry, decodeLine, epochMs, evidence } from './common';
import { type LineDecoder, type LogEvent, ProblemCounter } from './types';

/**
 * Qwen Code 0.24.4 chat logs (`$QWEN_HOME/projects/<sanitized cwd>/chats/<session id>.jsonl`; FACTS.md in
 * test/fixtures/live/qwen). Every record names its session and time (`{uuid, parentUuid, sessionId, timestamp,
 * type, provenance, …}`): `user` (a prompt), `assistant` (one whole model response, written once it has
 * streamed, with its tool calls as `functionCall` parts), `tool_result` (a tool's result going back to the model)
 * and `system` records, of which the `ui_telemetry` ones carry `qwen-code.api_error` (an attempt that failed).
 * A tool the user did not allow, or cut short, leaves a result that says so, and nothing after it.
 *
 * A response without tool calls is the turn's last. The log has no record of a turn's end, though, and nothing
 * marks a response cut short by Esc, so such a reply is completed only if the agent reports that the turn ended
 * (`ifTurnEnded`: its Stop hook, src/sources/logs/turnEnds.ts).
 */

/** Every relevant line holds one of these (Qwen Code writes compact JSON.stringify output). */
export const QWEN_NEEDLES = ['"type":"user"', '"type":"assistant"', '"type":"tool_result"', '"qwen-code.api_error"'] as const;

const Part = z.object({ text: z.string().nullish(), thought: z.unknown(), functionCall: z.unknown(), functionResponse: z.unknown() });
const Record_ = z.object({
  uuid: z.string().nullish(),
  sessionId: z.string(),
  timestamp: z.string(),
  type: z.string(),
  provenance: z.string().nullish(),
  cwd: z.string().nullish(),
});
const Said = Record_.extend({ message: z.object({ parts: z.array(Part).nullish() }) });
/** An assistant record's usage, as Qwen Code converted the provider's (see `callTokens`). */
const UsageMetadata = z.object({
  promptTokenCount: z.unknown(),
  candidatesTokenCount: z.unknown(),
  totalTokenCount: z.unknown(),
  cachedContentTokenCount: z.unknown(),
});
const Assistant = Said.extend({
  // A usage field of an unexpected shape loses its figures, never the response's turn event.
  model: z.string().nullish().catch(undefined),
  usageMetadata: UsageMetadata.nullish().catch(undefined),
  contextWindowSize: z.unknown(),
});
const Telemetry = Record_.extend({
  systemPayload: z.object({
    uiEvent: z.object({
      'event.name': z.string(),
      status_code: z.union([z.number(), z.string()]).nullish(),
      error_type: z.string().nullish(),
    }),
  }),
});

type Said = z.infer<typeof Said>;
type Emit = Pick<LogEvent, 'state' | 'reason' | 'evidence' | 'prompt' | 'ifTurnEnded'>;

/** A tool's result when it never ran (cut short by the user), and the words of a "No" in its dialog. */
const CANCELLED = '[Operation Cancelled]';
const NOT_ALLOWED = /\bdid not allow\b/;

/** The error of a tool's result that says the tool was cancelled, if it says that. */
function cancelledReason(response: unknown): string | undefined {
  const r = response && typeof response === 'object' ? (response as { response?: unknown }).response : undefined;
  const error = r && typeof r === 'object' ? (r as { error?: unknown }).error : undefined;
  return typeof error === 'string' && error.startsWith(CANCELLED) ? error.slice(0, 200) : undefined;
}

/** The provenance of the system's own messages (not a prompt anyone sent). */
const SYSTEM = 'system';

export function createQwenDecoder(onProblem?: (kind: string, detail: string) => void, _file?: string, usage?: UsageSink): LineDecoder {
  return new QwenDecoder(onProblem, usage);
}

/** One chat log's reader: the turn in progress is all it keeps. */
class QwenDecoder implements LineDecoder {
  readonly problems: ProblemCounter;
  private turn?: { id?: string; ended: boolean };

  constructor(
    onProblem?: (kind: string, detail: string) => void,
    private readonly usage?: UsageSink,
  ) {
    this.problems = new ProblemCounter(onProblem);
  }

  line(text: string): LogEvent[] {
    return decodeLine(text, QWEN_NEEDLES, this.problems, (e) => this.decode(e));
  }

  private decode(entry: Record<string, unknown>): LogEvent[] {
    switch (entry.type) {
      case 'user':
        return this.checked(Said, entry, (u) => this.onPrompt(u));
      case 'assistant':
        return this.checked(Assistant, entry, (r) => {
          this.onUsage(r);
          return this.onResponse(r);
        });
      case 'tool_result':
        return this.checked(Said, entry, (t) => this.onToolResult(t));
      case 'system':
        return entry.subtype === 'ui_telemetry' ? this.checked(Telemetry, entry, (s) => this.onTelemetry(s)) : [];
      default:
        return [];
    }
  }

  private onPrompt(u: Said): LogEvent[] {
    if (u.provenance === SYSTEM) return [];
    const parts = u.message.parts ?? [];
    if (parts.some((p) => p.functionResponse !== undefined)) return this.onToolResult(u);
    this.turn = { id: u.uuid ?? undefined, ended: false };
    const first = parts.find((p) => typeof p.text === 'string')?.text ?? '';
    return this.event(u, { state: 'working', evidence: evidence('qwen.prompt', first), prompt: true });
  }

  private onResponse(r: Said): LogEvent[] {
    const calls = (r.message.parts ?? []).filter((p) => p.functionCall !== undefined).length;
    if (calls) return this.going(r, 'qwen.response', `${calls} tool calls`);
    if (!this.turn || this.turn.ended) return [];
    return this.event(r, { state: 'completed', evidence: evidence('qwen.response', 'text'), ifTurnEnded: true });
  }

  /**
   * A response's model, tokens and text. Qwen Code 0.24.4 writes each model response once, when it has streamed
   * (`recordAssistantTurn`), with the provider's usage converted to Gemini's `usageMetadata`; the record's own uuid
   * is the call's id. Its context fill is the footer's: `lastPromptTokenCount / contextWindowSize`
   * (ContextUsageDisplay), the count being the response's promptTokenCount, or its totalTokenCount where the
   * provider gave no breakdown (GeminiChat). The window is logged as `contextWindowSize` where the CLI knows one
   * (set in the settings, or found by `tokenLimit`'s model patterns); else the footer shows no fill at all.
   */
  private onUsage(r: z.infer<typeof Assistant>): void {
    if (!this.usage) return;
    const at = epochMs(r.timestamp);
    if (Number.isNaN(at)) return;
    const text = (r.message.parts ?? []).filter((p) => typeof p.text === 'string' && p.thought !== true).map((p) => p.text);
    const rec: UsageRecord = { agent: 'qwen', sessionId: r.sessionId, at, reply: text.join('') };
    if (r.model) rec.model = r.model;
    const u = r.usageMetadata;
    if (u) {
      rec.call = { id: r.uuid ?? `${r.sessionId}@${r.timestamp}`, tokens: callTokens(u) };
      const fill = present(u.promptTokenCount) ? count(u.promptTokenCount) : count(u.totalTokenCount);
      if (fill > 0) rec.contextUsed = fill;
    }
    const window = count(r.contextWindowSize);
    if (window > 0) rec.contextWindow = window;
    this.usage.usage(rec);
  }

  /**
   * A tool's result goes back to the model and the turn goes on, unless the tool never ran: `[Operation
   * Cancelled] Reason: User did not allow tool call` after "No" in its dialog (nothing follows: Qwen Code ends the
   * turn without asking the model again, and fires no Stop), or after an Esc.
   */
  private onToolResult(t: Said): LogEvent[] {
    const cancelled = (t.message.parts ?? []).map((p) => cancelledReason(p.functionResponse)).find((r) => r !== undefined);
    if (cancelled === undefined) return this.going(t, 'qwen.tool-result', 'tool result');
    const reason = NOT_ALLOWED.test(cancelled) ? 'permission rejected' : 'interrupted';
    return this.end(t, { state: 'failed', reason, evidence: evidence('qwen.tool-result', cancelled) });
  }

  /**
   * An attempt that failed. A client error other than a timeout or a rate limit is final (Qwen Code does not retry
   * it: one record, then its StopFailure hook); any other is retried, so its failure is held until the agent
   * reports that the turn ended, and the next attempt's record replaces it.
   */
  private onTelemetry(s: z.infer<typeof Telemetry>): LogEvent[] {
    const ev = s.systemPayload.uiEvent;
    if (ev['event.name'] !== 'qwen-code.api_error') return [];
    const status = Number(ev.status_code);
    const code = Number.isInteger(status) && status > 0 ? ` ${status}` : '';
    const e: Emit = {
      state: 'failed',
      reason: `API error${code}`,
      evidence: evidence('qwen.api-error', `${ev.error_type ?? 'error'}${code}`),
    };
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) return this.end(s, e);
    if (!this.turn || this.turn.ended) return [];
    return this.event(s, { ...e, ifTurnEnded: true });
  }

  /** The turn goes on (a tool call, its result). */
  private going(m: z.infer<typeof Record_>, record: string, detail: string): LogEvent[] {
    if (!this.turn || this.turn.ended) return [];
    return this.event(m, { state: 'working', evidence: evidence(record, detail) });
  }

  private end(m: z.infer<typeof Record_>, e: Emit): LogEvent[] {
    if (!this.turn || this.turn.ended) return [];
    this.turn.ended = true;
    return this.event(m, e);
  }

  private event(m: z.infer<typeof Record_>, e: Emit): LogEvent[] {
    const at = epochMs(m.timestamp);
    if (Number.isNaN(at)) {
      this.problems.count('timestamp', `${m.type}: ${m.timestamp}`);
      return [];
    }
    const out: LogEvent = { agent: 'qwen', sessionId: m.sessionId, at, ...e };
    if (m.cwd) out.cwd = m.cwd;
    if (this.turn?.id) out.turn = this.turn.id;
    return [out];
  }

  private checked<S extends z.ZodTypeAny>(schema: S, entry: Record<string, unknown>, then: (v: z.infer<S>) => LogEvent[]): LogEvent[] {
    return checkedEntry(this.problems, ['sessionId', 'timestamp'], schema, entry, then);
  }
}

/**
 * The four prices of one response, as Qwen Code reads its own logs (its usage report's `readUsage`,
 * chunks/chunk-WH7PDTZL.js): promptTokenCount includes the cached tokens (OpenAI's prompt_tokens includes
 * cached_tokens; the Anthropic converter adds cache reads and writes to the prompt), and the output, thinking
 * included, is `total - prompt` where both are given ("the output including thinking under BOTH usage conventions":
 * OpenAI's reasoning inside candidatesTokenCount, Gemini's thoughts beside it), else candidatesTokenCount. Cache
 * writes are not told apart in the log (inside the prompt): they count as fresh input.
 */
function callTokens(u: z.infer<typeof UsageMetadata>): Tokens {
  const prompt = count(u.promptTokenCount);
  const cached = Math.min(count(u.cachedContentTokenCount), prompt);
  const total = count(u.totalTokenCount);
  const output =
    present(u.promptTokenCount) && present(u.totalTokenCount) && total > prompt ? total - prompt : count(u.candidatesTokenCount);
  return { input: prompt - cached, output, cacheRead: cached, cacheWrite: 0 };
}

/** A count the provider gave (a finite number ≥ 0), as Qwen Code tells a given count from a missing one. */
function present(v: unknown): boolean {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0;
}
