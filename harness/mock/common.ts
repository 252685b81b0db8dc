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
import type { AddressInfo, Socket } from 'node:net';

import {
  type ErrorTurn,
  type HangTurn,
  type MockScript,
  type TextTurn,
  type ToolTurn,
  type Turn,
  TurnQueue,
  describeTurn,
  guessVars,
  substitute,
} from './turns';

export * from './turns';

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

export interface Classified {
  kind: string;
  /** true when the request consumes a scripted turn. */
  agent: boolean;
  extra?: Record<string, unknown>;
  /** The text of the conversation's first user message: it tells which thread a request belongs to (`script.threads`). */
  firstUser?: string;
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
  private queues = new Map<string, TurnQueue>();
  private readonly t0 = Date.now();
  readonly entries: RequestLogEntry[] = [];
  agentRequests = 0;
  /** Template variables substituted as {{NAME}} in scripted turns (e.g. CWD = the CLI's project dir). */
  vars: Record<string, string> = {};
  private listeners: Array<(e: RequestLogEntry) => void> = [];
  private readonly sockets = new Set<Socket>();

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
    this.queues.clear();
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

  /** The thread whose key the conversation's first user message contains; 'main' for every other request. */
  private threadOf(firstUser: string | undefined): string {
    if (!firstUser) return 'main';
    return Object.keys(this.script.threads ?? {}).find((k) => firstUser.includes(k)) ?? 'main';
  }

  /** The next turn of a thread ('main': the script's turns; others: `script.threads`). */
  private nextTurn(thread = 'main'): { turn: Turn; index: number } {
    let q = this.queues.get(thread);
    if (!q) {
      const turns = thread === 'main' ? this.script.turns : (this.script.threads?.[thread] ?? []);
      q = new TurnQueue(turns, this.script.fallback);
      this.queues.set(thread, q);
    }
    return q.next();
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
    const cls: Classified | null = path.startsWith('/npm-registry/')
      ? { kind: 'npm-registry', agent: false }
      : this.handler.classify(method, path, body, req.headers);
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
        const thread = this.threadOf(cls.firstUser);
        const next = this.nextTurn(thread);
        const index = next.index;
        if (thread !== 'main') entry.thread = thread;
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
      process.stderr.write(
        `[mock ${this.handler.name}] #${entry.n} ${entry.method} ${entry.path} kind=${entry.kind} turn=${entry.turnIndex ?? ''}\n`,
      );
    for (const l of this.listeners) l(entry);
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
