import * as path from 'path';
import { z } from 'zod';
import type { UsageSink } from '../common/usage';
import { checkedEntry, decodeLine, epochMs, evidence, words } from './common';
import { CopilotUsage } from './copilotUsage';
import { type LineDecoder, type LogEvent, ProblemCounter } from './types';

/**
 * GitHub Copilot CLI 1.0.102 session logs (`$COPILOT_HOME/session-state/<session id>/events.jsonl`; FACTS.md §10 in
 * test/fixtures/live/copilot). Every record is `{type, data, id, timestamp, parentId}`; only `session.start` names
 * the session, so the id comes from the log's folder (a log followed from its middle never sees that first record).
 *
 * A prompt is `user.message`; each model call is `assistant.turn_start` … `assistant.message` (with its
 * `toolRequests`) … `assistant.turn_end`, and a call that ran tools is followed by the next call of the same
 * prompt. So a `turn_end` whose last message asked for no tool ends the prompt's turn: completed. A turn cut
 * short ends with `turn_end` and then `abort` (Esc Esc; a dialog answered "No" by Esc, after its
 * `permission.completed` that was not approved); a failed model call with `turn_end` and then `session.error`.
 */

/** Every relevant line holds one of these (the CLI writes compact JSON with `type` first). */
export const COPILOT_NEEDLES = [
  '"type":"session.start"',
  '"type":"user.message"',
  '"type":"assistant.message"',
  '"type":"assistant.turn_end"',
  '"type":"tool.execution_complete"',
  '"type":"permission.requested"',
  '"type":"permission.completed"',
  '"type":"abort"',
  '"type":"session.error"',
  // Usage only (copilotUsage.ts): each model call's tokens, and the model chosen before any call.
  '"type":"session.usage_record"',
  '"type":"session.model_change"',
] as const;

const Entry = z.object({ type: z.string(), timestamp: z.string(), data: z.record(z.unknown()) });
const Start = Entry.extend({
  data: z.object({
    sessionId: z.string(),
    context: z.object({ cwd: z.string().nullish() }).nullish(),
    selectedModel: z.string().nullish().catch(undefined),
  }),
});
const Prompt = Entry.extend({ data: z.object({ content: z.string().nullish(), interactionId: z.string().nullish() }) });
const Reply = Entry.extend({
  data: z.object({ toolRequests: z.array(z.unknown()).nullish(), content: z.string().nullish().catch(undefined) }),
  // Set on a sub-agent's records (session-events.schema.json): its words are not the session's reply.
  agentId: z.string().nullish().catch(undefined),
});
const Permission = Entry.extend({
  data: z.object({ requestId: z.string().nullish(), result: z.object({ kind: z.string() }).nullish() }),
});
const Abort = Entry.extend({ data: z.object({ reason: z.string().nullish() }) });
const Failure = Entry.extend({
  data: z.object({ errorType: z.string().nullish(), statusCode: z.number().nullish(), message: z.string().nullish() }),
});

type Entry = z.infer<typeof Entry>;
type Emit = Pick<LogEvent, 'state' | 'reason' | 'evidence' | 'prompt'>;

/** The session id of a log at `<session-state>/<id>/events.jsonl`, when the file is there (not a copy of it). */
function sessionOfPath(file: string | undefined): string | undefined {
  return file && path.basename(file) === 'events.jsonl' ? path.basename(path.dirname(file)) : undefined;
}

export function createCopilotDecoder(onProblem?: (kind: string, detail: string) => void, file?: string, usage?: UsageSink): LineDecoder {
  return new CopilotDecoder(onProblem, sessionOfPath(file), usage);
}

/** One session log's reader: the session, its folder and the turn in progress are all it keeps. */
class CopilotDecoder implements LineDecoder {
  readonly problems: ProblemCounter;
  private cwd?: string;
  /**
   * `call`: what the model call in progress wrote so far (nothing, when it failed or was cut short). `asking`: the
   * permission requests not yet completed — the CLI may write the abort of a dialog answered by Esc before its
   * `permission.completed` (seen in CI), so an abort while one is open is that refusal too.
   */
  private turn?: { id?: string; ended: boolean; call: 'none' | 'tools' | 'reply'; denied: boolean; asking: Set<string> };
  private readonly usage?: CopilotUsage;

  constructor(
    onProblem: ((kind: string, detail: string) => void) | undefined,
    private sessionId: string | undefined,
    sink?: UsageSink,
  ) {
    this.problems = new ProblemCounter(onProblem);
    if (sink) this.usage = new CopilotUsage(sink, () => this.sessionId);
  }

  line(text: string): LogEvent[] {
    return decodeLine(text, COPILOT_NEEDLES, this.problems, (e) => this.decode(e));
  }

  private decode(entry: Record<string, unknown>): LogEvent[] {
    switch (entry.type) {
      case 'session.start':
        return this.checked(Start, entry, (s) => this.onStart(s));
      case 'user.message':
        return this.checked(Prompt, entry, (u) => this.onPrompt(u));
      case 'assistant.message':
        return this.checked(Reply, entry, (r) => this.onReply(r));
      case 'tool.execution_complete':
        return this.checked(Entry, entry, (t) => this.going(t, 'copilot.tool-complete', 'tool result'));
      case 'permission.requested':
        return this.checked(Permission, entry, (p) => this.onAsked(p));
      case 'permission.completed':
        return this.checked(Permission, entry, (p) => this.onPermission(p));
      case 'assistant.turn_end':
        return this.checked(Entry, entry, (e) => this.onTurnEnd(e));
      case 'abort':
        return this.checked(Abort, entry, (a) => this.onAbort(a));
      case 'session.error':
        return this.checked(Failure, entry, (f) => this.onError(f));
      case 'session.usage_record':
      case 'session.model_change':
        return this.checked(Entry, entry, () => this.usage?.record(entry) ?? []);
      default:
        return [];
    }
  }

  private onStart(s: z.infer<typeof Start>): LogEvent[] {
    this.sessionId ??= s.data.sessionId;
    this.cwd = s.data.context?.cwd ?? undefined;
    if (s.data.selectedModel) this.usage?.model(s.timestamp, s.data.selectedModel);
    return [];
  }

  private onPrompt(u: z.infer<typeof Prompt>): LogEvent[] {
    this.turn = { id: u.data.interactionId ?? undefined, ended: false, call: 'none', denied: false, asking: new Set() };
    return this.event(u, { state: 'working', evidence: evidence('copilot.user-message', u.data.content ?? ''), prompt: true });
  }

  /** A model call's message: its tool requests keep the turn going; without any, the call that ends next is the last. */
  private onReply(r: z.infer<typeof Reply>): LogEvent[] {
    const calls = r.data.toolRequests?.length ?? 0;
    if (r.data.content && !r.agentId) this.usage?.reply(r.timestamp, r.data.content);
    if (this.turn) this.turn.call = calls ? 'tools' : 'reply';
    return calls ? this.going(r, 'copilot.assistant-message', `${calls} tool calls`) : [];
  }

  private onAsked(p: z.infer<typeof Permission>): LogEvent[] {
    if (this.turn && p.data.requestId) this.turn.asking.add(p.data.requestId);
    return [];
  }

  private onPermission(p: z.infer<typeof Permission>): LogEvent[] {
    if (!this.turn) return [];
    if (p.data.requestId) this.turn.asking.delete(p.data.requestId);
    if (p.data.result && p.data.result.kind !== 'approved') this.turn.denied = true;
    return [];
  }

  private onTurnEnd(e: Entry): LogEvent[] {
    const call = this.turn?.call;
    if (this.turn) this.turn.call = 'none';
    // A call that ran tools is followed by the next one; one that failed or was cut short, by what ends the turn.
    if (call !== 'reply') return [];
    return this.end(e, { state: 'completed', evidence: evidence('copilot.turn-end', 'no tool requests') });
  }

  private onAbort(a: z.infer<typeof Abort>): LogEvent[] {
    const refused = this.turn && (this.turn.denied || this.turn.asking.size > 0);
    const reason = refused ? 'permission rejected' : 'interrupted';
    return this.end(a, { state: 'failed', reason, evidence: evidence('copilot.abort', a.data.reason ?? '') });
  }

  /** The failure that ends a turn, once the CLI gave up retrying (each attempt's own is only its ErrorOccurred hook). */
  private onError(f: z.infer<typeof Failure>): LogEvent[] {
    const { statusCode, errorType, message } = f.data;
    const reason = typeof statusCode === 'number' && statusCode > 0 ? `API error ${statusCode}` : words(errorType ?? 'error');
    return this.end(f, { state: 'failed', reason, evidence: evidence('copilot.session-error', message ?? errorType ?? '') });
  }

  private going(m: Entry, record: string, detail: string): LogEvent[] {
    if (!this.turn || this.turn.ended) return [];
    return this.event(m, { state: 'working', evidence: evidence(record, detail) });
  }

  private end(m: Entry, e: Emit): LogEvent[] {
    if (!this.turn || this.turn.ended) return [];
    this.turn.ended = true;
    return this.event(m, e);
  }

  private event(m: Entry, e: Emit): LogEvent[] {
    const at = epochMs(m.timestamp);
    if (Number.isNaN(at)) {
      this.problems.count('timestamp', `${m.type}: ${m.timestamp}`);
      return [];
    }
    if (!this.sessionId) return [];
    const out: LogEvent = { agent: 'copilot', sessionId: this.sessionId, at, ...e };
    if (this.cwd) out.cwd = this.cwd;
    if (this.turn?.id) out.turn = this.turn.id;
    return [out];
  }

  private checked<S extends z.ZodTypeAny>(schema: S, entry: Record<string, unknown>, then: (v: z.infer<S>) => LogEvent[]): LogEvent[] {
    return checkedEntry(this.problems, ['type', 'timestamp'], schema, entry, then);
  }
}
