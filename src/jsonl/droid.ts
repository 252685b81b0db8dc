import { z } from 'zod';
import type { UsageSink } from '../common/usage';
import { checkedEntry, decodeLine, epochMs, evidence, words } from './common';
import { type LineDecoder, type LogEvent, ProblemCounter } from './types';

/**
 * Factory droid 0.225.2 session logs (`~/.factory/sessions/<cwd with '/' as '-'>/<session id>.jsonl`, the hooks'
 * `transcript_path`; FACTS.md §10 in test/fixtures/live/droid). The first line, `session_start`, names the session
 * and its folder; no later record does, so a decoder that never saw it says nothing. Then `message` records
 * (`{id, parentId?, timestamp, message: {role, content, visibility?, hookEventName?}}`: prompts, replies, tool
 * results, each hook that ran, notes such as `BYOK Error: …`) and, after each turn, `agent_turn_outcome`
 * (`{turnId, reason}`, no time of its own: it is written right after the turn's last record). droid rewrites the
 * first line in place when the session gets its title (src/sources/logs: `rewritesHead`).
 */

/** Every relevant line holds one of these (droid writes compact JSON.stringify output). */
export const DROID_NEEDLES = ['"type":"session_start"', '"type":"message"', '"type":"agent_turn_outcome"'] as const;

const Part = z.object({
  type: z.string(),
  text: z.string().nullish(),
  is_error: z.boolean().nullish(),
  content: z.unknown(),
});
const Start = z.object({ id: z.string(), cwd: z.string().nullish() });
const Message = z.object({
  id: z.string(),
  timestamp: z.string(),
  message: z.object({
    role: z.string(),
    content: z.union([z.string(), z.array(Part)]),
    visibility: z.string().nullish(),
    hookEventName: z.string().nullish(),
    // The model of an assistant message (`custom:Mock-Model-0`, a Factory model id): the usage book's only figure.
    modelId: z.string().nullish().catch(undefined),
  }),
});
const Outcome = z.object({ turnId: z.string().nullish(), reason: z.string() });

type Message = z.infer<typeof Message>;
type Emit = Pick<LogEvent, 'state' | 'reason' | 'evidence' | 'prompt'>;

/** The tool result droid writes when its dialog was answered No or Esc (it then ends the turn: FACTS.md §10). */
const DENIED = 'Tool execution cancelled by user';
/** The note droid shows and writes when the model's API failed: `BYOK Error: 500 Internal server error …`. */
const API_ERROR = /^BYOK Error: (\d{3})\b/;

/** `agent_turn_outcome.reason` values that are not a failure of the model's API. */
const COMPLETED = 'completed';
const CANCELLED = 'cancelled';

export function createDroidDecoder(onProblem?: (kind: string, detail: string) => void, _file?: string, usage?: UsageSink): LineDecoder {
  return new DroidDecoder(onProblem, usage);
}

/** One session log's reader: the session, and what its turn in progress said last. */
class DroidDecoder implements LineDecoder {
  readonly problems: ProblemCounter;
  private session?: { id: string; cwd?: string };
  private turn?: { id: string; denied: boolean; apiError?: string };
  /** The time of the latest record: an outcome, which has none, is as old as the record before it. */
  private lastAt?: number;

  constructor(
    onProblem?: (kind: string, detail: string) => void,
    private readonly usage?: UsageSink,
  ) {
    this.problems = new ProblemCounter(onProblem);
  }

  line(text: string): LogEvent[] {
    return decodeLine(text, DROID_NEEDLES, this.problems, (e) => this.decode(e));
  }

  private decode(entry: Record<string, unknown>): LogEvent[] {
    switch (entry.type) {
      case 'session_start':
        return checkedEntry(this.problems, ['id'], Start, entry, (s) => {
          this.session = { id: s.id, ...(s.cwd ? { cwd: s.cwd } : {}) };
          return [];
        });
      case 'message':
        return checkedEntry(this.problems, ['id', 'timestamp'], Message, entry, (m) => this.onMessage(m));
      case 'agent_turn_outcome':
        return checkedEntry(this.problems, ['reason'], Outcome, entry, (o) => this.onOutcome(o));
      default:
        return [];
    }
  }

  private onMessage(m: Message): LogEvent[] {
    const at = epochMs(m.timestamp);
    if (Number.isNaN(at)) {
      this.problems.count('timestamp', `message: ${m.timestamp}`);
      return [];
    }
    this.lastAt = at;
    const { role, content, visibility, hookEventName } = m.message;
    // A hook's own record, or the context droid adds for the model only.
    if (hookEventName || visibility === 'llm_only') return [];
    const parts = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    const text = parts.find((p) => p.type === 'text' && typeof p.text === 'string')?.text ?? '';
    if (role === 'assistant') {
      this.onAssistant(at, m.message.modelId, parts);
      const calls = parts.filter((p) => p.type === 'tool_use').length;
      return calls ? this.going(at, evidence('droid.assistant', `${calls} tool calls`)) : [];
    }
    if (role !== 'user') return [];
    // A note shown to the user only: the API error that ends the turn (its outcome follows).
    if (visibility === 'user_only') {
      const code = API_ERROR.exec(text);
      if (code && this.turn) this.turn.apiError = `API error ${code[1]}`;
      return [];
    }
    const results = parts.filter((p) => p.type === 'tool_result');
    if (results.length) {
      if (this.turn) this.turn.denied = results.some((p) => p.is_error === true && p.content === DENIED);
      return this.going(at, evidence('droid.tool-result', `${results.length} tool results`));
    }
    this.turn = { id: m.id, denied: false };
    return this.event(at, { state: 'working', evidence: evidence('droid.prompt', text), prompt: true });
  }

  /**
   * What droid's log says of usage: the model of each assistant message, and its text as the last reply. Its
   * tokens are not in the log: droid 0.225.2 keeps them in `<session id>.settings.json` beside it (`tokenUsage`,
   * `lastCallTokenUsage`: `commitTurnTokenUsage` in the binary), a file Agent Lens does not read.
   */
  private onAssistant(at: number, model: string | null | undefined, parts: z.infer<typeof Part>[]): void {
    if (!this.usage || !this.session) return;
    const reply = parts
      .filter((p) => p.type === 'text' && typeof p.text === 'string')
      .map((p) => p.text)
      .join('\n');
    this.usage.usage({ agent: 'droid', sessionId: this.session.id, at, reply, ...(model ? { model } : {}) });
  }

  /**
   * How the turn ended, in droid's own word. A denied tool ends the turn at once, and droid calls that turn
   * `completed`: the tool result it wrote says the user refused, which the other agents' logs call a rejected
   * permission.
   */
  private onOutcome(o: z.infer<typeof Outcome>): LogEvent[] {
    const turn = this.turn;
    if (!turn || (o.turnId && o.turnId !== turn.id) || this.lastAt === undefined) return [];
    const said = evidence('droid.turn-outcome', o.reason);
    const out = this.event(this.lastAt, outcome(o.reason, turn, said));
    this.turn = undefined;
    return out;
  }

  /** The turn goes on (a tool call, its result). */
  private going(at: number, said: string): LogEvent[] {
    return this.turn ? this.event(at, { state: 'working', evidence: said }) : [];
  }

  private event(at: number, e: Emit): LogEvent[] {
    if (!this.session) return [];
    const out: LogEvent = { agent: 'droid', sessionId: this.session.id, at, ...e };
    if (this.session.cwd) out.cwd = this.session.cwd;
    if (this.turn) out.turn = this.turn.id;
    return [out];
  }
}

function outcome(reason: string, turn: { denied: boolean; apiError?: string }, said: string): Emit {
  if (reason === COMPLETED)
    return turn.denied ? { state: 'failed', reason: 'permission rejected', evidence: said } : { state: 'completed', evidence: said };
  if (reason === CANCELLED) return { state: 'failed', reason: 'interrupted', evidence: said };
  // model_provider_unavailable (a 500 after its retries), model_request_rejected (a 400): the note names the status.
  return { state: 'failed', reason: turn.apiError ?? words(reason), evidence: said };
}
