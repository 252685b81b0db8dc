import { randomBytes } from 'crypto';
import * as http from 'http';
import type { AddressInfo } from 'net';
import { checkHost, checkOrigin, checkToken, HubError, readJson } from './security';

/** A route's handler: gets the parsed JSON body, returns what to answer (undefined: 204). */
export type Handler = (body: unknown) => unknown | Promise<unknown>;

export interface HubOptions {
  /** Largest request body accepted, in bytes (413 above). */
  bodyLimit: number;
  log?: (level: 'info' | 'warn', msg: string) => void;
}

/**
 * The local hub: HTTP on 127.0.0.1 only, a random port and a random token per run. Every request must name
 * the loopback host with our port (DNS rebinding), carry no browser Origin, and present the token; bodies are
 * UTF-8 JSON within a size limit. Routes are mounted by what runs on it (hooks now, the handoff doorbell
 * next); nothing here knows VS Code, so `agent-lens serve` can run it headless.
 */
export class Hub {
  readonly token = randomBytes(32).toString('hex');
  private readonly routes = new Map<string, Handler>();
  private server: http.Server | undefined;
  private portNo = 0;
  /** Requests refused, by status: for diagnostics and tests. */
  readonly refused = new Map<number, number>();

  constructor(private readonly opts: HubOptions) {}

  get port(): number {
    return this.portNo;
  }

  /** Serves POST `path` (JSON in, JSON or 204 out). */
  mount(path: string, handler: Handler): void {
    this.routes.set(path, handler);
  }

  async listen(): Promise<number> {
    const server = http.createServer((req, res) => void this.handle(req, res));
    server.headersTimeout = 5000;
    server.requestTimeout = 10_000;
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: '127.0.0.1', port: 0, exclusive: true }, () => resolve());
    });
    this.server = server;
    this.portNo = (server.address() as AddressInfo).port;
    return this.portNo;
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      checkHost(req, this.portNo);
      checkOrigin(req);
      checkToken(req, this.token);
      const path = (req.url ?? '').split('?')[0];
      const handler = this.routes.get(path);
      if (!handler) throw new HubError(404, `no route ${path}`);
      if (req.method !== 'POST') throw new HubError(405, 'use POST');
      const body = await readJson(req, this.opts.bodyLimit);
      const out = await handler(body);
      if (out === undefined) {
        res.writeHead(204).end();
      } else {
        const json = JSON.stringify(out);
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) }).end(json);
      }
    } catch (e) {
      const status = e instanceof HubError ? e.status : 500;
      this.refused.set(status, (this.refused.get(status) ?? 0) + 1);
      if (status === 500) this.opts.log?.('warn', `hub: ${req.url}: ${(e as Error).message}`);
      // Drain what is left so the client reads our answer instead of a reset.
      req.resume();
      const json = JSON.stringify({ error: e instanceof Error ? e.message : String(e) });
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', connection: 'close' }).end(json);
    }
  }
}
