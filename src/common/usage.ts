import type { AgentKind } from './agents';

/**
 * What the agents' own session logs say a session spends: tokens per model call, the context window's fill and,
 * where the log keeps it, the cost. The decoders (src/jsonl, the OpenCode database reader) turn their records into
 * `UsageRecord`s; the usage book (book.ts) adds them up per agent session.
 */

/** Token counts as the four prices a provider charges: fresh input, output (reasoning included), cache reads, cache writes. */
export interface Tokens {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export const NO_TOKENS: Readonly<Tokens> = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

/** One model call's use, as the log records it. */
export interface CallUsage {
  /**
   * The call's identity in the log. A later record with the same id replaces this one: Claude Code repeats a
   * message's usage on each of its content blocks, OpenCode rewrites a message row while it streams.
   */
  id: string;
  tokens: Tokens;
  /** USD, only where the log itself says what the call cost (OpenCode's `cost`, pi's `usage.cost.total`). */
  cost?: number;
}

/** What one log record says about its session's use of the model. Every field but the session is optional. */
export interface UsageRecord {
  agent: AgentKind;
  /** The agent's own session id, as the same decoder's `LogEvent`s name it. */
  sessionId: string;
  /** Epoch ms, from the record's own timestamp. */
  at: number;
  /** The model that answered, as the log names it (`claude-opus-5-5`, `gpt-6.1-sol`). */
  model?: string;
  call?: CallUsage;
  /**
   * The session's running totals as the agent itself keeps them (Codex `total_token_usage`): they replace what
   * calls added, so a log that carries both is never counted twice.
   */
  totals?: Tokens;
  /** Tokens in the context window after this record: the last call's whole prompt and its reply. */
  contextUsed?: number;
  /** The window's size where the log says it (Codex `model_context_window`); else the model table's. */
  contextWindow?: number;
  /**
   * Tokens the agent leaves out of its own fill percentage, as always in the context (Codex: 12,000 for its prompt
   * and tools); the fill is then (used − baseline) ÷ (window − baseline), the figure the agent itself shows.
   */
  contextBaseline?: number;
  /** The agent's last reply to the user (untrusted text; the views bound and escape it). */
  reply?: string;
  /** Set by the log source, not the decoder: the file was first read from its tail, earlier calls are not counted. */
  partial?: true;
}

/** Where a decoder hands what it reads about usage. */
export interface UsageSink {
  usage(r: UsageRecord): void;
}

export function addTokens(a: Tokens, b: Tokens, sign = 1): Tokens {
  return {
    input: a.input + sign * b.input,
    output: a.output + sign * b.output,
    cacheRead: a.cacheRead + sign * b.cacheRead,
    cacheWrite: a.cacheWrite + sign * b.cacheWrite,
  };
}

/**
 * A provider's count whose input includes what the cache gave and wrote (OpenAI's, Copilot CLI's) as the four
 * prices: fresh input is what neither the cache gave nor wrote.
 */
export function fromInclusiveInput(input: unknown, output: unknown, cacheRead: unknown, cacheWrite: unknown): Tokens {
  const read = count(cacheRead);
  const write = count(cacheWrite);
  return { input: Math.max(0, count(input) - read - write), output: count(output), cacheRead: read, cacheWrite: write };
}

export function totalTokens(t: Tokens): number {
  return t.input + t.output + t.cacheRead + t.cacheWrite;
}

/** A count as logs hold it: a finite number ≥ 0, else 0 (a missing or broken field never makes the sum NaN). */
export function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}
