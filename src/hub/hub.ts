import { randomBytes } from 'crypto';
import * as http from 'http';
import type { AddressInfo, Socket } from 'net';
import { printable } from '../common/printable';
import { type ConnectionFacts, ConnectionGuard, type CutCounts } from './connections';
import { checkHost, checkOrigin, checkToken, HubError, readJson } from './security';
import { type Logger } from '../common/log';

export type { ConnectionFacts } from './connections';

/**
 * A route's handler: gets the parsed JSON body (undefined for GET) and what the hub knows of the connection
 * (the same object for every request on it) and a signal that aborts if the client goes before it is answered (a
 * held request whose hook was killed), returns what to answer (undefined: 204; a Reply: its status).
 */
export type Handler = (body: unknown, connection: ConnectionFacts, closed: AbortSignal) => unknown | Promise<unknown>;

/** An answer with a status of its own (the doorbell's 200 carries a warning, dispatch answers 409 when refused). */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

export interface RouteOptions {
  /** POST (JSON body) by default. */
  method?: 'GET' | 'POST';
  /** `none`: answered without the token (the doorbell's health check). */
  auth?: 'token' | 'none';
}

export interface HubOptions {
  /** Largest request body accepted, in bytes (413 above). */
  bodyLimit: number;
  /** A fixed port (`agent-lens serve --port`); default: any free one. */
  port?: number;
  log?: Logger;
  /** Tests: shorter limits than HUB_LIMITS, to see a slow client cut off quickly. */
  limits?: Partial<HubLimits>;
}

export interface HubLimits {
  /** Open connections at once; more are closed once accepted (a runaway or hostile local client cannot exhaust our sockets). */
  maxConnections: number;
  /**
   * Before that cap: a connection that sends no byte this long after it was accepted is closed, and other local
   * users (the socket's owner in the kernel's table, Linux) get a small share of the cap, each and together.
   */
  firstByteMs: number;
  perOtherUser: number;
  otherUsers: number;
  /** Time for a request's headers / whole request; a client that trickles them (slowloris) is cut off. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept. */
  keepAliveTimeoutMs: number;
  /** How often Node checks the two timeouts above (its default, 30 s, would let a slow client hold a socket that long). */
  checkIntervalMs: number;
}

/** Reports are small and local: a hook sends one request and closes, so these are generous. */
export const HUB_LIMITS: HubLimits = {
  maxConnections: 256,
  firstByteMs: 1000,
  perOtherUser: 16,
  otherUsers: 64,
  headersTimeoutMs: 5000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 1000,
  checkIntervalMs: 1000,
};

/**
 * The local hub: HTTP on 127.0.0.1 only, a random port and a random token per run. Every request must name
 * the loopback host with our port (DNS rebinding), carry no browser Origin, and present the token; bodies are
 * UTF-8 JSON within a size limit. Routes are mounted by what runs on it (hooks now, the handoff doorbell
 * next); nothing here knows VS Code, so `agent-lens serve` can run it headless.
 */
export class Hub {
  readonly token = randomBytes(32).toString('hex');
  private readonly routes = new Map<string, { handler: Handler; method: 'GET' | 'POST'; auth: 'token' | 'none' }>();
  private server: http.Server | undefined;
  /** The listening server (tests read its limits). */
  get httpServer(): http.Server | undefined {
    return this.server;
  }
  private portNo = 0;
  private guard: ConnectionGuard | undefined;
  /** Requests refused, by status: for diagnostics and tests. */
  readonly refused = new Map<number, number>();

  /** Connections closed before any request: idle ones, and those over another user's share. */
  get cut(): CutCounts {
    return this.guard?.cut ?? { idle: 0, otherUser: 0, full: 0 };
  }

  constructor(private readonly opts: HubOptions) {}

  get port(): number {
    return this.portNo;
  }

  /** Serves `path` (POST: JSON in; JSON or 204 out). */
  mount(path: string, handler: Handler, opts: RouteOptions = {}): void {
    this.routes.set(path, { handler, method: opts.method ?? 'POST', auth: opts.auth ?? 'token' });
  }

  async listen(): Promise<number> {
    const l = { ...HUB_LIMITS, ...this.opts.limits };
    const server = http.createServer(
      {
        connectionsCheckingInterval: l.checkIntervalMs,
        headersTimeout: l.headersTimeoutMs,
        requestTimeout: l.requestTimeoutMs,
        keepAliveTimeout: l.keepAliveTimeoutMs,
      },
      (req, res) => void this.handle(req, res),
    );
    // The cap is kept by the guard once it knows whose each connection is; Node's own limit, which counts them
    // before that (and for a moment after they are closed), is only a backstop against running out of sockets.
    server.maxConnections = l.maxConnections * 4;
    const guard = new ConnectionGuard(l);
    server.on('connection', (socket: Socket) => guard.accept(socket));
    this.guard = guard;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: '127.0.0.1', port: this.opts.port ?? 0, exclusive: true }, () => resolve());
    });
    this.server = server;
    this.portNo = (server.address() as AddressInfo).port;
    return this.portNo;
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    this.guard?.dispose();
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      checkHost(req, this.portNo);
      checkOrigin(req);
      const path = (req.url ?? '').split('?')[0];
      const route = this.routes.get(path);
      if (!route) {
        checkToken(req, this.token); // an unknown path tells nothing to a caller without the token
        throw new HubError(404, `no route ${path}`);
      }
      if (route.auth === 'token') checkToken(req, this.token);
      if (req.method !== route.method) throw new HubError(405, `use ${route.method}`);
      const body = route.method === 'POST' ? await readJson(req, this.opts.bodyLimit) : undefined;
      const gone = new AbortController();
      res.once('close', () => {
        if (!res.writableEnded) gone.abort();
      });
      const out = await route.handler(body, this.guard!.factsOf(req.socket), gone.signal);
      if (out === undefined) {
        res.writeHead(204).end();
      } else {
        const reply = out instanceof Reply ? out : new Reply(200, out);
        const json = JSON.stringify(reply.body);
        res
          .writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) })
          .end(json);
      }
    } catch (e) {
      const status = e instanceof HubError ? e.status : 500;
      this.refused.set(status, (this.refused.get(status) ?? 0) + 1);
      if (status === 500) this.opts.log?.warn(`hub: ${printable(req.url ?? '')}: ${printable((e as Error).message)}`);
      // Drain what is left so the client reads our answer instead of a reset.
      req.resume();
      // A 403 says nothing more: the caller is told only that it is not let in, never why.
      const json = status === 403 ? '' : JSON.stringify({ error: e instanceof Error ? e.message : String(e) });
      if (!res.headersSent)
        res
          .writeHead(status, {
            ...(json ? { 'content-type': 'application/json; charset=utf-8' } : {}),
            'content-length': Buffer.byteLength(json),
            connection: 'close',
          })
          .end(json);
    }
  }
}
