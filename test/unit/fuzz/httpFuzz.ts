/**
 * Generated requests for the hub and doorbell, sent over a raw TCP socket (so a missing Host, a lowercase
 * scheme or a chunked body is possible), and the answer each one must get.
 */
import * as fc from 'fast-check';
import * as http from 'http';
import * as net from 'net';

export interface RouteSpec {
  method: 'GET' | 'POST';
  auth: 'token' | 'none';
}

export type HostKind = 'ip' | 'localhost' | 'upper' | 'other-port' | 'evil' | 'none';
export type TokenKind = 'bearer' | 'x-handoff' | 'x-handoff-spaced' | 'wrong' | 'truncated' | 'lowercase-scheme' | 'long' | 'none';
export type BodyKind = 'json' | 'event' | 'report' | 'dispatch' | 'bytes' | 'bad-utf8' | 'near-limit' | 'over-limit' | 'empty';

export interface FuzzRequest {
  method: string;
  path: string;
  host: HostKind;
  origin: boolean;
  secFetchSite?: string;
  token: TokenKind;
  contentType?: string;
  body?: { kind: BodyKind; bytes: Buffer };
  chunked: boolean;
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON'];
const OTHER_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  'multipart/form-data; boundary=x',
  '',
];
const STATUSES = ['received', 'in_progress', 'done', 'failed', 'blocked', 'cancelled', 'DONE', 'finished', ''];

function bodyArb(limit: number): fc.Arbitrary<{ kind: BodyKind; bytes: Buffer }> {
  const text = (kind: BodyKind, a: fc.Arbitrary<string>) => a.map((s) => ({ kind, bytes: Buffer.from(s, 'utf8') }));
  const id = fc.oneof(
    fc.constantFrom('worker::t1', 'worker::t2', 'other::x', '::', 'worker::', '../x::y', '/etc::passwd'),
    fc.string({ maxLength: 20 }),
  );
  const event = fc.record(
    {
      id,
      status: fc.constantFrom(...STATUSES),
      summary: fc.oneof(fc.string({ maxLength: 40 }), fc.constant('   ')),
      report_path: fc.oneof(
        fc.constant(null),
        fc.constantFrom('../../etc/passwd', '/etc/passwd', 'worker/report.md', 'reports/t1.md'),
        fc.string({ maxLength: 20 }),
      ),
    },
    { requiredKeys: ['id', 'status', 'summary'] },
  );
  const report = fc.record({
    v: fc.oneof(fc.constant(1), fc.integer()),
    agent: fc.constantFrom('claude-code', 'codex', 'opencode', 'hermes', 'gemini', 'vim', ''),
    at: fc.oneof(fc.double({ min: 1, max: 2e12, noNaN: true }), fc.constant(-1), fc.constant(0)),
    pid: fc.option(fc.integer({ min: -5, max: 1 << 22 }), { nil: undefined }),
    payload: fc.oneof(
      fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
      fc.constant({ hook_event_name: 'Notification', session_id: 's1', message: 'Claude needs your permission to use Bash' }),
    ),
  });
  const dispatch = fc.record(
    {
      agent: fc.constantFrom('worker', 'nobody', '../x', ''),
      task_id: fc.constantFrom('t9', '../../t', 'a/b', ''),
      brief: fc.string({ maxLength: 30 }),
      message: fc.option(fc.constantFrom('go', 'line\nbreak', '\x1b[31mred', 'Read {brief_path}'), { nil: undefined }),
    },
    { requiredKeys: [] },
  );
  const big = (kind: BodyKind, delta: fc.Arbitrary<number>) =>
    delta.map((d) => ({ kind, bytes: Buffer.from(`{"pad":"${'x'.repeat(Math.max(0, limit + d - 10))}"}`, 'utf8') }));
  return fc.oneof(
    {
      weight: 4,
      arbitrary: text(
        'json',
        fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null'),
      ),
    },
    {
      weight: 4,
      arbitrary: text(
        'event',
        event.map((e) => JSON.stringify(e)),
      ),
    },
    {
      weight: 3,
      arbitrary: text(
        'report',
        report.map((r) => JSON.stringify(r)),
      ),
    },
    {
      weight: 1,
      arbitrary: text(
        'dispatch',
        dispatch.map((r) => JSON.stringify(r)),
      ),
    },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => ({ kind: 'bytes' as const, bytes: Buffer.from(b) })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
          Buffer.from([0xc3, 0x28]),
          Buffer.from('{"a":"\ud800"}', 'latin1'),
        )
        .map((bytes) => ({ kind: 'bad-utf8' as const, bytes })),
    },
    { weight: 1, arbitrary: big('near-limit', fc.integer({ min: -64, max: 0 })) },
    { weight: 1, arbitrary: big('over-limit', fc.integer({ min: 1, max: 4096 })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const, bytes: Buffer.alloc(0) }) },
  );
}

export function requestArb(routes: ReadonlyMap<string, RouteSpec>, limit: number): fc.Arbitrary<FuzzRequest> {
  const known = [...routes.keys()];
  const path = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...known) },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...known), fc.string({ maxLength: 20 })).map(([p, q]) => `${p}?${encodeURIComponent(q)}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '/',
        '/handoff/',
        '/handoff/../v1/hooks',
        '/v1/hooks/',
        '//handoff',
        '/%2e%2e/etc/passwd',
        '/HANDOFF',
        '/handoff%00',
        '*',
      ),
    },
    { weight: 1, arbitrary: fc.webPath().map((p) => p || '/') },
  );
  return fc.record({
    method: fc.oneof(
      { weight: 10, arbitrary: fc.constantFrom('GET', 'POST') },
      { weight: 3, arbitrary: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD') },
      { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,8}$/) },
    ),
    path,
    host: fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom<HostKind>('ip', 'localhost') },
      { weight: 3, arbitrary: fc.constantFrom<HostKind>('upper', 'other-port', 'evil', 'none') },
    ),
    origin: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    secFetchSite: fc.option(fc.constantFrom('none', 'same-origin', 'cross-site'), { nil: undefined, freq: 8 }),
    token: fc.oneof(
      { weight: 14, arbitrary: fc.constantFrom<TokenKind>('bearer', 'x-handoff') },
      { weight: 5, arbitrary: fc.constantFrom<TokenKind>('x-handoff-spaced', 'wrong', 'truncated', 'lowercase-scheme', 'long', 'none') },
    ),
    contentType: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...JSON_TYPES) },
      { weight: 2, arbitrary: fc.constantFrom(...OTHER_TYPES) },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    body: fc.option(bodyArb(limit), { nil: undefined, freq: 10 }),
    chunked: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  });
}

export function tokenValid(r: FuzzRequest): boolean {
  return r.token === 'bearer' || r.token === 'x-handoff' || r.token === 'x-handoff-spaced';
}

function isJsonType(t: string | undefined): boolean {
  return t !== undefined && /^application\/json\s*(;\s*charset=utf-8\s*)?$/i.test(t);
}

function isUtf8Json(b: Buffer): boolean {
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(b));
    return true;
  } catch {
    return false;
  }
}

/** The statuses this request may get: the hub's checks in their order, then what a route may answer. */
export function allowedStatuses(r: FuzzRequest, routes: ReadonlyMap<string, RouteSpec>, limit: number): number[] {
  if (!http.METHODS.includes(r.method)) return [400]; // Node's own parser refuses an unknown method
  if (r.path === '*' && r.method !== 'OPTIONS') return [400, 403, 404];
  if (r.host === 'none') return [400, 403]; // Node answers an HTTP/1.1 request without Host itself
  if (!['ip', 'localhost', 'upper'].includes(r.host)) return [403];
  if (r.origin || (r.secFetchSite !== undefined && r.secFetchSite !== 'none')) return [403];
  const route = routes.get(r.path.split('?')[0]);
  if (!route) return tokenValid(r) ? [404] : [403];
  if (route.auth === 'token' && !tokenValid(r)) return [403];
  if (r.method !== route.method) return [405];
  if (route.method === 'GET') return [200];
  if (!isJsonType(r.contentType)) return [415];
  const body = r.body?.bytes ?? Buffer.alloc(0);
  if (body.length > limit) return [413];
  if (!isUtf8Json(body)) return [400];
  return [200, 204, 400, 409, 422];
}

function hostHeader(kind: HostKind, port: number): string | undefined {
  switch (kind) {
    case 'ip':
      return `127.0.0.1:${port}`;
    case 'localhost':
      return `localhost:${port}`;
    case 'upper':
      return `LOCALHOST:${port}`;
    case 'other-port':
      return `127.0.0.1:${port === 65535 ? 1 : port + 1}`;
    case 'evil':
      return `evil.example:${port}`;
    case 'none':
      return undefined;
  }
}

function tokenHeader(kind: TokenKind, token: string): string | undefined {
  switch (kind) {
    case 'bearer':
      return `Authorization: Bearer ${token}`;
    case 'x-handoff':
      return `X-Handoff-Token: ${token}`;
    case 'x-handoff-spaced':
      return `X-Handoff-Token:   ${token}  `;
    case 'wrong':
      return `Authorization: Bearer ${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;
    case 'truncated':
      return `X-Handoff-Token: ${token.slice(0, 10)}`;
    case 'lowercase-scheme':
      return `Authorization: bearer ${token}`;
    case 'long':
      return `Authorization: Bearer ${token.repeat(5)}`;
    case 'none':
      return undefined;
  }
}

/** The request's bytes on the wire. */
export function encode(r: FuzzRequest, port: number, token: string): Buffer {
  const lines = [`${r.method} ${r.path} HTTP/1.1`];
  const host = hostHeader(r.host, port);
  if (host) lines.push(`Host: ${host}`);
  if (r.origin) lines.push('Origin: http://evil.example');
  if (r.secFetchSite) lines.push(`Sec-Fetch-Site: ${r.secFetchSite}`);
  const t = tokenHeader(r.token, token);
  if (t) lines.push(t);
  if (r.contentType !== undefined) lines.push(`Content-Type: ${r.contentType}`);
  lines.push('Connection: close');
  const body = r.body?.bytes;
  if (!body) return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  if (!r.chunked) {
    lines.push(`Content-Length: ${body.length}`);
    return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
  }
  lines.push('Transfer-Encoding: chunked');
  const parts: Buffer[] = [Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1')];
  for (let i = 0; i < body.length; i += 8192) {
    const c = body.subarray(i, i + 8192);
    parts.push(Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/** Sends raw bytes and reads the status line of the answer (0 when the connection closed without one). */
export function send(port: number, bytes: Buffer): Promise<{ status: number; head: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const s = net.connect({ host: '127.0.0.1', port });
    let got = '';
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error('no answer within 15 s'));
    }, 15_000);
    s.on('data', (c: Buffer) => (got += c.toString('latin1')));
    s.on('error', (e) => (got ||= `(socket error ${(e as NodeJS.ErrnoException).code})`)); // a reset after the answer (the hub closes early on 413) is fine
    s.on('close', () => {
      clearTimeout(timer);
      const m = /^HTTP\/1\.1 (\d{3})/.exec(got);
      resolve({ status: m ? Number(m[1]) : 0, head: got.slice(0, 300), ms: Math.round(performance.now() - t0) });
    });
    // Like curl and Node's own client: no half-close after the request (Node's server drops a pending answer on one).
    s.write(bytes);
  });
}
