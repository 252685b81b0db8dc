import { z } from 'zod';
import { count, type Tokens, type UsageRecord, type UsageSink } from '../common/usage';
import { checkedEntry, decodeLine, epochMs, evidence, zodDetail } from './common';
import { type LineDecoder, type LogEvent, ProblemCounter } from './types';

/**
 * Gemini CLI 0.61.0 chat logs (`$GEMINI_CLI_HOME/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`,
 * appended with appendFileSync before any hook of the same moment fires). The first line names the session
 * (`{sessionId, projectHash, startTime, kind}`); then one line per message — `user` (a prompt, or tool results),
 * `gemini` (a reply; written again, same id, once its tool calls have a status), `info`, `warning`, `error` —
 * and `{"$set": …}` updates, which say nothing here (a `$set` of `messages` rewrites the list after the history
 * changed, keeping each message's `tokens` as logged before: nothing new to count).
 *
 * The log never says that a turn *completed*: a reply is written before its tool calls are, and nothing follows
 * the last reply of a turn. So a reply is offered as the turn's end only if the agent reports the turn ended
 * (`ifTurnEnded`: its AfterAgent hook, src/sources/logs/turnEnds.ts). A cancel (`ℹ Request cancelled.`), a
 * denied tool (its result says so) and an API error are the log's own outcomes.
 */

/** Every relevant line holds one of these (Gemini writes compact JSON.stringify output). */
export const GEMINI_NEEDLES = ['"projectHash"', '"type":"user"', '"type":"gemini"', '"type":"info"', '"type":"error"'] as const;

const CANCELLED = 'Request cancelled.';
/** The system context Gemini sends as a user message (at start, and again when it rewrites its history). */
const CONTEXT = '<session_context>';
/** A tool call's result when the user chose "No" in its dialog. */
const DENIED = /\bUser denied\b/;

const Meta = z.object({ sessionId: z.string(), kind: z.string().nullish() });
const Part = z.object({ text: z.string().nullish(), thought: z.unknown(), functionResponse: z.unknown() });
const Message = z.object({ id: z.string().nullish(), timestamp: z.string(), type: z.string() });
const User = Message.extend({ content: z.union([z.string(), z.array(Part)]) });
const ToolCall = z.object({ name: z.string().nullish(), status: z.string().nullish(), result: z.unknown() });
/** `tokens` as Gemini CLI copies them from the response's usageMetadata (see `callTokens`). */
const LoggedTokens = z.object({ input: z.unknown(), output: z.unknown(), cached: z.unknown(), thoughts: z.unknown(), tool: z.unknown() });
const Reply = Message.extend({
  toolCalls: z.array(ToolCall).nullish(),
  // A usage field of an unexpected shape loses its figures, never the reply's turn event.
  content: z
    .union([z.string(), z.array(Part)])
    .nullish()
    .catch(undefined),
  tokens: LoggedTokens.nullish().catch(undefined),
  model: z.string().nullish().catch(undefined),
});
const Said = Message.extend({ content: z.string() });

type Message = z.infer<typeof Message>;
type Emit = Pick<LogEvent, 'state' | 'reason' | 'evidence' | 'prompt' | 'ifTurnEnded'>;

export function createGeminiDecoder(onProblem?: (kind: string, detail: string) => void, _file?: string, usage?: UsageSink): LineDecoder {
  return new GeminiDecoder(onProblem, usage);
}

/** One chat log's reader: its session and the turn in progress are all it keeps. */
class GeminiDecoder implements LineDecoder {
  readonly problems: ProblemCounter;
  private session?: string;
  /** A subagent's own log (a folder below the chats): its messages are not the session's turns. */
  private subagent = false;
  private turn?: { id?: string; ended: boolean; denied?: string };

  constructor(
    onProblem?: (kind: string, detail: string) => void,
    private readonly usage?: UsageSink,
  ) {
    this.problems = new ProblemCounter(onProblem);
  }

  line(text: string): LogEvent[] {
    // `{"$set": …}` updates say nothing here (see above): skipped before any parse.
    if (text.startsWith('{"$set"')) return [];
    return decodeLine(text, GEMINI_NEEDLES, this.problems, (e) => this.decode(e));
  }

  private decode(entry: Record<string, unknown>): LogEvent[] {
    if (entry.projectHash !== undefined) return this.onMeta(entry);
    if (this.subagent) return [];
    switch (entry.type) {
      case 'user':
        return this.checked(User, entry, (u) => this.onUser(u));
      case 'gemini':
        return this.checked(Reply, entry, (r) => {
          this.onUsage(r);
          return this.onReply(r);
        });
      case 'info':
        return this.checked(Said, entry, (s) => (s.content === CANCELLED ? this.cancelled(s) : []));
      case 'error':
        return this.checked(Said, entry, (s) =>
          this.end(s, { state: 'failed', reason: errorReason(s.content), evidence: evidence('gemini.error', s.content) }),
        );
      default:
        return [];
    }
  }

  private onMeta(entry: Record<string, unknown>): LogEvent[] {
    const m = Meta.safeParse(entry);
    if (!m.success) this.problems.count('schema', () => zodDetail('session', m.error));
    // The first line names the file's session; a rewrite of the file starts with it again.
    else if (!this.session || this.session === m.data.sessionId) {
      this.session = m.data.sessionId;
      this.subagent = m.data.kind === 'subagent';
    }
    return [];
  }

  private onUser(u: z.infer<typeof User>): LogEvent[] {
    const parts = typeof u.content === 'string' ? [{ text: u.content }] : u.content;
    if (parts.some((p) => p.text?.startsWith(CONTEXT))) return [];
    if (parts.some((p) => p.functionResponse !== undefined)) {
      // A tool's result: the turn goes on.
      if (!this.turn || this.turn.ended) return [];
      return this.event(u, { state: 'working', evidence: evidence('gemini.user', 'tool result') });
    }
    this.turn = { id: u.id ?? undefined, ended: false };
    const first = parts.find((p) => typeof p.text === 'string')?.text ?? '';
    return this.event(u, { state: 'working', evidence: evidence('gemini.prompt', first), prompt: true });
  }

  private onReply(r: z.infer<typeof Reply>): LogEvent[] {
    if (!this.turn || this.turn.ended) return [];
    const denied = r.toolCalls?.find((c) => c.status === 'cancelled' && DENIED.test(JSON.stringify(c.result ?? '')));
    if (denied) this.turn.denied = denied.name ?? 'tool';
    const calls = r.toolCalls?.length ?? 0;
    return this.event(r, {
      state: 'completed',
      evidence: evidence('gemini.reply', calls ? `${calls} tool calls` : 'text'),
      ifTurnEnded: true,
    });
  }

  /**
   * A reply's model, tokens and text. Gemini CLI 0.61.0 (bundle/chunk-*.js, `recordMessageTokens`) logs the
   * response's usageMetadata as `{input: promptTokenCount, output: candidatesTokenCount, cached:
   * cachedContentTokenCount, thoughts: thoughtsTokenCount, tool: toolUsePromptTokenCount, total}`, once per message
   * id (the rewrite with tool calls repeats it: replaced by id). Its context fill is the last prompt's size: the
   * footer's "N% used" is `lastPromptTokenCount / tokenLimit(model)` (ContextUsageDisplay, contextUsage.ts), and
   * GeminiChat sets that count from each response's promptTokenCount. The log names no window.
   */
  private onUsage(r: z.infer<typeof Reply>): void {
    if (!this.usage || !this.session) return;
    const at = epochMs(r.timestamp);
    if (Number.isNaN(at)) return;
    const rec: UsageRecord = { agent: 'gemini', sessionId: this.session, at, reply: replyText(r.content) };
    if (r.model) rec.model = r.model;
    if (r.tokens) {
      rec.call = { id: r.id ?? r.timestamp, tokens: callTokens(r.tokens) };
      // Only the newest message is ever written again (with its tool calls' status), so file order is call order.
      const prompt = count(r.tokens.input);
      if (prompt > 0) rec.contextUsed = prompt;
    }
    this.usage.usage(rec);
  }

  /** `ℹ Request cancelled.`: after a denied tool call (no hook fires then), else the user's Esc. */
  private cancelled(s: Message): LogEvent[] {
    const denied = this.turn?.denied;
    const reason = denied ? 'permission rejected' : 'interrupted';
    return this.end(s, {
      state: 'failed',
      reason,
      evidence: evidence('gemini.info', denied ? `${CANCELLED} (${denied} denied)` : CANCELLED),
    });
  }

  /** The turn's outcome; errors and notes outside a turn (a slash command's) say nothing of one. */
  private end(m: Message, e: Emit): LogEvent[] {
    if (!this.turn || this.turn.ended) return [];
    this.turn.ended = true;
    return this.event(m, e);
  }

  private event(m: Message, e: Emit): LogEvent[] {
    if (!this.session) {
      this.problems.count('no-session', `${m.type} before the session line`);
      return [];
    }
    const at = epochMs(m.timestamp);
    if (Number.isNaN(at)) {
      this.problems.count('timestamp', `${m.type}: ${m.timestamp}`);
      return [];
    }
    const out: LogEvent = { agent: 'gemini', sessionId: this.session, at, ...e };
    if (this.turn?.id) out.turn = this.turn.id;
    return [out];
  }

  private checked<S extends z.ZodTypeAny>(schema: S, entry: Record<string, unknown>, then: (v: z.infer<S>) => LogEvent[]): LogEvent[] {
    return checkedEntry(this.problems, ['timestamp'], schema, entry, then);
  }
}

/**
 * The four prices of one logged call. Gemini API: promptTokenCount includes the cached content
 * (`cachedContentTokenCount`, "the number of tokens in the prompt that were served from the cache"), and Gemini CLI
 * itself shows fresh input as `prompt - cached` (UiTelemetryService: `tokens.input = max(0, prompt - cached)`);
 * thoughts are not in candidatesTokenCount but are billed as output; tool-use prompt tokens are input outside the
 * prompt count (totalTokenCount = prompt + candidates + thoughts + tool). So the four add up to the log's `total`.
 */
function callTokens(t: z.infer<typeof LoggedTokens>): Tokens {
  const prompt = count(t.input);
  const cached = Math.min(count(t.cached), prompt);
  return { input: prompt - cached + count(t.tool), output: count(t.output) + count(t.thoughts), cacheRead: cached, cacheWrite: 0 };
}

/** A reply's text as the user saw it: the string, or its text parts without thoughts. */
function replyText(content: z.infer<typeof Reply>['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? [])
    .filter((p) => typeof p.text === 'string' && p.thought !== true)
    .map((p) => p.text)
    .join('');
}

/** `[API Error: {"error":{"code":400,…}}]` → "API error 400", as the other agents' decoders word it. */
export function errorReason(content: string): string {
  const code = /"code":\s?(\d{3})\b/.exec(content.slice(0, 2000));
  if (code) return `API error ${code[1]}`;
  return content.startsWith('[API Error') ? 'API error' : 'error';
}
