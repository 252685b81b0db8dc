/**
 * Shared pieces of the scripted mock model servers (loopback only).
 *
 * A mock is driven by a MockScript: an ordered list of turns. Each "agent" request
 * (the request the CLI makes to continue the conversation) consumes the next turn.
 * Side requests (title generation, token counting, quota probes, …) are recognised by
 * each protocol module and answered without consuming a turn.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

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
  /** What to answer when the turns are used up (default: a short text). */
  fallback?: Turn;
}

export interface RequestLogEntry {
  n: number;
  t: number; // seconds since the mock started
  wall: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  bodyLength: number;
  kind: string; // 'agent' | 'title' | 'count_tokens' | 'side' | 'unknown' | …
  turnIndex?: number;
  served?: unknown;
  [k: string]: unknown;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

const SECRET_HEADERS = /^(authorization|x-api-key|x-goog-api-key|api-key|proxy-authorization|cookie)$/i;

export function redactHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    const s = Array.isArray(v) ? v.join(', ') : v;
    out[k] = SECRET_HEADERS.test(k) ? `<redacted ${s.length} chars>` : s;
  }
  return out;
}

/** Shorten long strings inside a JSON value so request logs stay small but keep their shape. */
export function shrink(v: unknown, max = 1500): unknown {
  if (typeof v === 'string') return v.length > max ? `${v.slice(0, max)}…[+${v.length - max} chars]` : v;
  if (Array.isArray(v)) return v.map((x) => shrink(x, max));
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) o[k] = shrink(x, max);
    return o;
  }
  return v;
}

export function splitChunks(text: string, chunks: TextTurn['chunks']): string[] {
  if (Array.isArray(chunks)) return chunks;
  if (chunks === 'lines') return text.split(/(?<=\n)/);
  const size = typeof chunks === 'number' && chunks > 0 ? chunks : 12;
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
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

export interface Classified {
  kind: string;
  /** true when the request consumes a scripted turn. */
  agent: boolean;
  extra?: Record<string, unknown>;
}

export interface ServeContext {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  body: unknown;
  rawBody: string;
  entry: RequestLogEntry;
  script: MockScript;
  /** true once the client closed the connection. */
  aborted: () => boolean;
  log: (e: Record<string, unknown>) => void;
  mock: MockServer;
}

export interface ProtocolHandler {
  name: string;
  /** Decide what this request is. Return null for unknown paths (answered 404). */
  classify(method: string, path: string, body: unknown, headers: http.IncomingHttpHeaders): Classified | null;
  /** Serve scripted agent turns, one method per turn type (MockServer dispatches). */
  serveText(ctx: ServeContext, turn: TextTurn): Promise<void>;
  serveTool(ctx: ServeContext, turn: ToolTurn): Promise<void>;
  serveError(ctx: ServeContext, turn: ErrorTurn): void | Promise<void>;
  serveHang(ctx: ServeContext, turn: HangTurn): Promise<void>;
  /** Serve a side request (title, count_tokens, …). */
  serveSide(ctx: ServeContext, kind: string): Promise<void>;
  /** 404 body for unknown paths. */
  notFound(path: string): unknown;
}

export interface MockOptions {
  script: MockScript;
  logFile?: string;
  port?: number;
  /** Extra line printed to stderr per request (debug). */
  verbose?: boolean;
}

export class MockServer {
  readonly server: http.Server;
  port = 0;
  private n = 0;
  private turnPos = 0; // index into script.turns
  private turnUses = 0; // how often the current turn was served
  private readonly t0 = Date.now();
  readonly entries: RequestLogEntry[] = [];
  agentRequests = 0;
  /** Template variables substituted as {{NAME}} in scripted turns (e.g. CWD = the CLI's project dir). */
  vars: Record<string, string> = {};
  private listeners: Array<(e: RequestLogEntry) => void> = [];
  private readonly sockets = new Set<import('node:net').Socket>();

  constructor(
    readonly handler: ProtocolHandler,
    readonly opts: MockOptions,
  ) {
    this.server = http.createServer((req, res) => void this.onRequest(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    if (opts.logFile) fs.writeFileSync(opts.logFile, '');
  }

  get script(): MockScript {
    return this.opts.script;
  }

  /** Replace the script (e.g. between scenarios) and reset the turn pointer. */
  setScript(script: MockScript): void {
    this.opts.script = script;
    this.turnPos = 0;
    this.turnUses = 0;
  }

  private async serveTurn(ctx: ServeContext, turn: Turn): Promise<void> {
    switch (turn.type) {
      case 'error':
        return this.handler.serveError(ctx, turn);
      case 'text':
        return this.handler.serveText(ctx, turn);
      case 'tool':
        return this.handler.serveTool(ctx, turn);
      case 'hang':
        return this.handler.serveHang(ctx, turn);
    }
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.opts.port ?? 0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    this.log({ event: 'listening', port: this.port, protocol: this.handler.name, pid: process.pid });
    return this.port;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  now(): number {
    return Math.round(Date.now() - this.t0) / 1000;
  }

  log(e: Record<string, unknown>): void {
    const line = { t: this.now(), wall: new Date().toISOString(), ...e };
    if (this.opts.logFile) fs.appendFileSync(this.opts.logFile, `${JSON.stringify(line)}\n`);
    if (this.opts.verbose) process.stderr.write(`[mock ${this.handler.name}] ${JSON.stringify(line).slice(0, 300)}\n`);
  }

  onEntry(fn: (e: RequestLogEntry) => void): void {
    this.listeners.push(fn);
  }

  /** Wait until `count` agent requests have arrived. */
  waitAgentRequests(count: number, timeoutMs: number): Promise<boolean> {
    if (this.agentRequests >= count) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.onEntry(() => {
        if (this.agentRequests >= count) {
          clearTimeout(timer);
          resolve(true);
        }
      });
    });
  }

  private nextTurn(): { turn: Turn; index: number } {
    const turns = this.script.turns;
    while (this.turnPos < turns.length) {
      const turn = turns[this.turnPos]!;
      const reps = turn.repeat ?? 1;
      if (turn.sticky || this.turnUses < reps) {
        this.turnUses++;
        return { turn, index: this.turnPos };
      }
      this.turnPos++;
      this.turnUses = 0;
    }
    return {
      turn: this.script.fallback ?? { type: 'text', text: 'OK.' },
      index: -1,
    };
  }

  private async onRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    let rawBody = raw.toString('utf8');
    const enc = String(req.headers['content-encoding'] ?? '');
    if (enc && raw.length) {
      try {
        const zlib = await import('node:zlib');
        if (enc.includes('gzip')) rawBody = zlib.gunzipSync(raw).toString('utf8');
        else if (enc.includes('br')) rawBody = zlib.brotliDecompressSync(raw).toString('utf8');
        else if (enc.includes('deflate')) rawBody = zlib.inflateSync(raw).toString('utf8');
        else if (enc.includes('zstd')) {
          const z = zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer };
          if (z.zstdDecompressSync) rawBody = z.zstdDecompressSync(raw).toString('utf8');
        }
      } catch {
        /* keep raw */
      }
    }
    let body: unknown = undefined;
    if (rawBody) {
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = rawBody;
      }
    }
    const url = req.url ?? '/';
    const path = url.split('?')[0]!;
    const method = req.method ?? 'GET';
    const n = ++this.n;
    // OpenCode's background `npm install @opencode-ai/plugin` is pointed here (homes.ts): answer 404 like a registry.
    const cls: Classified | null = path.startsWith('/npm-registry/') ? { kind: 'npm-registry', agent: false } : this.handler.classify(method, path, body, req.headers);
    const entry: RequestLogEntry = {
      n,
      t: this.now(),
      wall: new Date().toISOString(),
      method,
      path,
      url,
      headers: redactHeaders(req.headers),
      bodyLength: raw.length,
      kind: cls?.kind ?? 'unknown',
      ...(cls?.extra ?? {}),
      body: shrink(body),
    };
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    const ctx: ServeContext = {
      req,
      res,
      body,
      rawBody,
      entry,
      script: this.script,
      aborted: () => closed || res.destroyed,
      log: (e) => this.log({ n, ...e }),
      mock: this,
    };
    try {
      if (!cls) {
        this.writeEntry(entry);
        sendJson(res, 404, this.handler.notFound(path));
        return;
      }
      if (cls.agent) {
        this.agentRequests++;
        const next = this.nextTurn();
        const index = next.index;
        const turn = substitute(next.turn, { ...guessVars(rawBody), ...this.vars });
        entry.turnIndex = index;
        entry.served = describeTurn(turn);
        this.writeEntry(entry);
        if (turn.headersDelayMs) await sleep(turn.headersDelayMs);
        await this.serveTurn(ctx, turn);
      } else if (cls.kind === 'npm-registry') {
        this.writeEntry(entry);
        sendJson(res, 404, { error: 'Not found' });
      } else {
        this.writeEntry(entry);
        await this.handler.serveSide(ctx, cls.kind);
      }
      ctx.log({ event: ctx.aborted() ? 'client_closed' : 'done' });
    } catch (err) {
      ctx.log({ event: 'serve_error', error: String(err) });
      if (!res.headersSent) sendJson(res, 500, { error: String(err) });
      else res.end();
    }
  }

  private writeEntry(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.opts.logFile) fs.appendFileSync(this.opts.logFile, `${JSON.stringify(entry)}\n`);
    if (this.opts.verbose)
      process.stderr.write(`[mock ${this.handler.name}] #${entry.n} ${entry.method} ${entry.path} kind=${entry.kind} turn=${entry.turnIndex ?? ''}\n`);
    for (const l of this.listeners) l(entry);
  }
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

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const s = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
    'content-length': Buffer.byteLength(s),
    ...headers,
  });
  res.end(s);
}

export function startSse(res: http.ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...headers,
  });
  res.flushHeaders();
}

/** Write one SSE event; returns false when the client went away. */
export function sse(ctx: ServeContext, data: unknown, event?: string): boolean {
  if (ctx.aborted()) return false;
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  ctx.res.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
  return true;
}

/** Sleep in small steps, stopping early if the client disconnects. Returns false if aborted. */
export async function abortableSleep(ctx: ServeContext, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (ctx.aborted()) return false;
    await sleep(Math.min(100, end - Date.now()));
  }
  return !ctx.aborted();
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
