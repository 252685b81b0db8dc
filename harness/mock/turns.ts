/** The scripted turns a mock serves: their shapes, how they are read, prepared and chunked, and the queue that hands them out. */
import * as fs from 'node:fs';

/** One scripted answer. All delays are in milliseconds. */
export type Turn = TextTurn | ToolTurn | ErrorTurn | HangTurn;

interface TurnBase {
  /** Serve this turn for this many consecutive agent requests (default 1). Useful for retried errors. */
  repeat?: number;
  /** Keep serving this turn for every later agent request (e.g. an error that never clears). */
  sticky?: boolean;
  /** Wait before sending the HTTP response headers (default 0). */
  headersDelayMs?: number;
  /** Label for logs / marks. */
  label?: string;
}

export interface TextTurn extends TurnBase {
  type: 'text';
  text: string;
  /**
   * How to split the text into stream chunks: a number = chunk size in characters,
   * an explicit list of chunks, or 'lines' (one chunk per line, newline included).
   * Default: 12 characters.
   */
  chunks?: number | string[] | 'lines';
  /** Delay before the first text chunk (after the stream has started). Default 300. */
  firstDelayMs?: number;
  /** Delay between chunks. Default 40. Ignored when durationMs is set. */
  delayMs?: number;
  /** Spread the chunks evenly over this many milliseconds (slow streaming). */
  durationMs?: number;
}

export interface ToolTurn extends TurnBase {
  type: 'tool';
  /** Tool name as the CLI knows it (Claude: Bash/Write/Edit/AskUserQuestion; OpenCode: bash/question; Codex: exec). */
  name: string;
  /** Tool input: an object (JSON tools) or a string (Codex freeform `exec` tool). */
  input: Record<string, unknown> | string;
  /** Optional text streamed before the tool call. */
  text?: string;
  firstDelayMs?: number;
  delayMs?: number;
}

export interface ErrorTurn extends TurnBase {
  type: 'error';
  status: number;
  /** JSON body (object) or raw text. A protocol-specific default is used when absent. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Provider error type for the default body, e.g. 'overloaded_error'. */
  errorType?: string;
  message?: string;
}

/** Start the stream, then send nothing until the client goes away (or maxMs passes, then finish with text). */
export interface HangTurn extends TurnBase {
  type: 'hang';
  maxMs?: number;
  /** Text streamed before hanging. */
  text?: string;
}

export interface MockScript {
  /** Title answered to title-generation side requests. */
  title?: string;
  turns: Turn[];
  /**
   * Turns for another conversation the CLI holds at the same time (a subagent), keyed by words of that
   * conversation's first user message (its task). Served in their own order, so that a race with the main
   * conversation cannot swap the two.
   */
  threads?: Record<string, Turn[]>;
  /** What to answer when the turns are used up (default: a short text). */
  fallback?: Turn;
  /**
   * The prompt size every response reports in its usage, instead of the request's own estimate: a session near
   * its context limit, for the usage views, without sending a million tokens.
   */
  promptTokens?: number;
}

/** Hands out a thread's turns in order, honouring `repeat` and `sticky`; the fallback once they are used up. */
export class TurnQueue {
  private pos = 0;
  private uses = 0;

  constructor(
    private readonly turns: readonly Turn[],
    private readonly fallback: Turn = { type: 'text', text: 'OK.' },
  ) {}

  next(): { turn: Turn; index: number } {
    while (this.pos < this.turns.length) {
      const turn = this.turns[this.pos]!;
      if (turn.sticky || this.uses < (turn.repeat ?? 1)) {
        this.uses++;
        return { turn, index: this.pos };
      }
      this.pos++;
      this.uses = 0;
    }
    return { turn: this.fallback, index: -1 };
  }
}

export function splitChunks(text: string, chunks: TextTurn['chunks']): string[] {
  if (Array.isArray(chunks)) return chunks;
  if (chunks === 'lines') return text.split(/(?<=\n)/);
  const size = typeof chunks === 'number' && chunks > 0 ? chunks : 12;
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    // do not split a surrogate pair
    let end = Math.min(text.length, i + size);
    const c = text.charCodeAt(end - 1);
    if (end < text.length && c >= 0xd800 && c <= 0xdbff) end++;
    out.push(text.slice(i, end));
    i = end;
  }
  return out.length ? out : [''];
}

/** Delay schedule for a text turn: [delay before chunk i]. */
export function chunkDelays(turn: { firstDelayMs?: number; delayMs?: number; durationMs?: number }, n: number): number[] {
  const first = turn.firstDelayMs ?? 300;
  if (turn.durationMs && n > 0) {
    const step = Math.max(0, turn.durationMs - first) / Math.max(1, n - 1);
    return Array.from({ length: n }, (_, i) => (i === 0 ? first : step));
  }
  const d = turn.delayMs ?? 40;
  return Array.from({ length: n }, (_, i) => (i === 0 ? first : d));
}

/** Working directory the CLI mentions in its request (Claude system prompt, Codex environment_context, OpenCode env). */
export function guessVars(rawBody: string): Record<string, string> {
  const m =
    /Primary working directory: ([^\s"\\]+)/.exec(rawBody) ??
    /<cwd>([^<]+)<\/cwd>/.exec(rawBody) ??
    /Working directory: ([^\s"\\]+)/.exec(rawBody);
  return m ? { CWD: m[1]! } : {};
}

/** Replace {{NAME}} in every string of a turn. */
export function substitute<T>(v: T, vars: Record<string, string>): T {
  if (typeof v === 'string') return v.replace(/\{\{(\w+)\}\}/g, (all, k: string) => vars[k] ?? all) as unknown as T;
  if (Array.isArray(v)) return v.map((x) => substitute(x, vars)) as unknown as T;
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) o[k] = substitute(x, vars);
    return o as T;
  }
  return v;
}

export function describeTurn(turn: Turn): unknown {
  switch (turn.type) {
    case 'text':
      return { type: 'text', text: turn.text.slice(0, 80), durationMs: turn.durationMs, label: turn.label };
    case 'tool':
      return { type: 'tool', name: turn.name, text: turn.text?.slice(0, 80), label: turn.label };
    case 'error':
      return { type: 'error', status: turn.status, label: turn.label };
    case 'hang':
      return { type: 'hang', maxMs: turn.maxMs, label: turn.label };
  }
}

/**
 * What a response told the agent it used, in the request log (`{"n", "event": "usage", "input", "output"}`): the
 * usage tests compare the agents' own session logs with it. A streamed response logs each chunk that carries
 * usage; its last one is what the agent kept.
 */
export function logUsage(ctx: { log(e: Record<string, unknown>): void }, input: number, output: number): void {
  ctx.log({ event: 'usage', input, output });
}

/** The prompt's tokens as a response's usage reports them: the script's `promptTokens`, else an estimate. */
export function promptTokens(ctx: { script: MockScript; rawBody: string }): number {
  return ctx.script.promptTokens ?? approxTokens(ctx.rawBody);
}

/** Rough token estimate for usage fields. */
export function approxTokens(s: string): number {
  return Math.max(1, Math.ceil(s.length / 4));
}

/** Read a MockScript from a JSON file; the file may also be a whole scenario with a `mock` field. */
export function loadScript(file: string): MockScript {
  const j = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  if (Array.isArray(j.turns)) return j as unknown as MockScript;
  if (j.mock && typeof j.mock === 'object') return j.mock as MockScript;
  throw new Error(`${file}: no "turns" (or "mock.turns") in script`);
}
