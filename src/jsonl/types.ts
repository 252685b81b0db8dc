import type { AgentKind } from '../common/agents';

/**
 * What one session-log entry says about its agent session, on the log's own clock. The decoders turn the
 * agents' own records (Claude transcripts, Codex rollouts, OpenCode database rows) into these; the logs
 * source turns them into store observations with source `jsonl-watcher`.
 */
export interface LogEvent {
  agent: AgentKind;
  /** The agent's own session id: Claude `sessionId`, Codex `session_meta.payload.id`, OpenCode `ses_…`. */
  sessionId: string;
  /** Epoch milliseconds, from the entry's own timestamp (never the reader's clock). */
  at: number;
  /** A new prompt or turn start → working; a finished turn → completed; a turn that did not succeed → failed. */
  state: 'working' | 'completed' | 'failed';
  /** Why a turn did not succeed, as a user reads it: "interrupted", "API error 529", "permission rejected". */
  reason?: string;
  /** Which record said so, on what: `claude.turn-duration: "durationMs 2310"`. */
  evidence: string;
  /** The session's working directory, where the log says it. */
  cwd?: string;
  /** The turn's identity where the log has one (Codex `turn_id`, Claude prompt uuid, OpenCode user message id). */
  turn?: string;
  /** The agent's own record of taking a prompt: its turn starts exactly at `at` (typed, queued or sent by a tool). */
  prompt?: true;
  /**
   * Told only if the agent reports that the turn ended (a log without an end-of-turn record: Gemini's, Qwen
   * Code's): held until its turn-end hook, and dropped when a later record of the session says anything else.
   */
  ifTurnEnded?: true;
}

/**
 * Counts entries that did not parse, by kind, and reports the first of each kind once. The detail may be a
 * function, called only for that first one: describing a zod failure builds its error, which costs more than the
 * parse (`npm run bench`: a log of many broken entries).
 */
export class ProblemCounter {
  private readonly counts = new Map<string, number>();

  constructor(private readonly onFirst?: (kind: string, detail: string) => void) {}

  count(kind: string, detail: string | (() => string)): void {
    const n = this.counts.get(kind) ?? 0;
    this.counts.set(kind, n + 1);
    if (n !== 0 || !this.onFirst) return;
    const text = typeof detail === 'string' ? detail : detail();
    this.onFirst(kind, text.length > 200 ? `${text.slice(0, 200)}…` : text);
  }

  get total(): number {
    let t = 0;
    for (const n of this.counts.values()) t += n;
    return t;
  }

  byKind(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }
}

/** A per-file decoder of JSON-lines session logs (Claude transcripts, Codex rollouts). Stateful: a line may need what came before it. */
export interface LineDecoder {
  /** One complete line without its newline. Never throws; a line that does not parse is counted in `problems`. */
  line(text: string): LogEvent[];
  readonly problems: ProblemCounter;
}
