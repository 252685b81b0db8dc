import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { readDiscovery, removeDiscovery, writeDiscovery } from '../../../src/hub/discovery';
import { MAX_JSON_DEPTH } from '../../../src/common/json';
import { Hub } from '../../../src/hub/hub';

interface Answer {
  status: number;
  body: string;
}

/** A raw request, so tests can send what a browser or an attacker would. */
function send(
  port: number,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: Buffer | string; chunked?: boolean },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = opts.body === undefined ? undefined : Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(opts.body);
    const headers: Record<string, string | number> = { ...opts.headers };
    if (body && !opts.chunked) headers['content-length'] = body.length;
    const req = http.request(
      { host: '127.0.0.1', port, method: opts.method ?? 'POST', path: opts.path ?? '/v1/test', headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    if (body && opts.chunked) {
      // No content-length: the limit must hold while streaming.
      for (let i = 0; i < body.length; i += 16384) req.write(body.subarray(i, i + 16384));
      req.end();
    } else req.end(body);
  });
}

describe('hub: loopback HTTP with a token, Host/Origin checks and a body limit', () => {
  let hub: Hub;
  let port: number;
  const got: unknown[] = [];
  const ok = () => ({ host: `127.0.0.1:${port}`, authorization: `Bearer ${hub.token}`, 'content-type': 'application/json' });

  before(async () => {
    hub = new Hub({ bodyLimit: 1024 });
    hub.mount('/v1/test', (b) => {
      got.push(b);
      return undefined;
    });
    hub.mount('/v1/echo', (b) => ({ echo: b }));
    port = await hub.listen();
  });
  after(() => hub.close());
  beforeEach(() => (got.length = 0));

  it('listens on 127.0.0.1 only, on a random port, with a random 256-bit token', async () => {
    assert.ok(port > 0);
    assert.match(hub.token, /^[0-9a-f]{64}$/);
    const other = new Hub({ bodyLimit: 10 });
    const p2 = await other.listen();
    assert.notStrictEqual(other.token, hub.token);
    assert.notStrictEqual(p2, port);
    await other.close();
  });

  it('accepts a good request (204, or the handler’s JSON) and records it', async () => {
    assert.strictEqual((await send(port, { headers: ok(), body: '{"a":1}' })).status, 204);
    assert.deepStrictEqual(got, [{ a: 1 }]);
    const echo = await send(port, {
      path: '/v1/echo',
      headers: { ...ok(), host: `localhost:${port}`, 'content-type': 'application/json; charset=utf-8' },
      body: '{"é":"ü"}',
    });
    assert.deepStrictEqual([echo.status, JSON.parse(echo.body)], [200, { echo: { é: 'ü' } }]);
  });

  it('refuses a missing or wrong token with 403 and changes nothing', async () => {
    const { authorization: _, ...noToken } = ok();
    const wrongSameLength = `Bearer ${hub.token.replace(/.$/, (c) => (c === '0' ? '1' : '0'))}`;
    for (const headers of [
      noToken,
      { ...ok(), authorization: wrongSameLength },
      { ...ok(), authorization: 'Bearer short' },
      { ...ok(), authorization: hub.token },
    ]) {
      assert.strictEqual((await send(port, { headers, body: '{"a":1}' })).status, 403);
    }
    assert.deepStrictEqual(got, []);
  });

  it('refuses a foreign Host (DNS rebinding) or any browser Origin with 403', async () => {
    for (const headers of [
      { ...ok(), host: `evil.example:${port}` },
      { ...ok(), host: '127.0.0.1' },
      { ...ok(), host: `127.0.0.1:${port + 1}` },
      { ...ok(), origin: 'http://evil.example' },
      { ...ok(), origin: 'null' },
      { ...ok(), 'sec-fetch-site': 'cross-site' },
    ]) {
      assert.strictEqual((await send(port, { headers, body: '{"a":1}' })).status, 403, JSON.stringify(headers));
    }
    assert.deepStrictEqual(got, []);
  });

  it('answers 413 above the body limit, declared or streamed, and 400/415 for bad bodies', async () => {
    const big = JSON.stringify({ x: 'y'.repeat(5000) });
    assert.strictEqual((await send(port, { headers: ok(), body: big })).status, 413);
    assert.strictEqual((await send(port, { headers: ok(), body: big, chunked: true })).status, 413);
    assert.strictEqual(
      (await send(port, { headers: ok(), body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) })).status,
      400,
    );
    assert.strictEqual((await send(port, { headers: ok(), body: '{not json' })).status, 400);
    assert.strictEqual((await send(port, { headers: { ...ok(), 'content-type': 'text/plain' }, body: '{}' })).status, 415);
    assert.strictEqual((await send(port, { method: 'GET', headers: ok() })).status, 405);
    assert.strictEqual((await send(port, { path: '/nope', headers: ok(), body: '{}' })).status, 404);
    assert.deepStrictEqual(got, []);
    assert.ok((hub.refused.get(413) ?? 0) >= 2);
  });
  it('refuses a body nested deeper than MAX_JSON_DEPTH with 400 before parsing it; as deep as that is parsed', async () => {
    const deepHub = new Hub({ bodyLimit: 64 * 1024 });
    const seen: unknown[] = [];
    deepHub.mount('/v1/test', (b) => void seen.push(b));
    const p = await deepHub.listen();
    try {
      const headers = { host: `127.0.0.1:${p}`, authorization: `Bearer ${deepHub.token}`, 'content-type': 'application/json' };
      // Padded past the length below which text is parsed unscanned; brackets inside the string do not count.
      const nested = (d: number) => `{"pad":"${'[{'.repeat(3000)}","x":${'['.repeat(d)}${']'.repeat(d)}}`;
      const refused = await send(p, { headers, body: nested(MAX_JSON_DEPTH) });
      assert.deepStrictEqual(
        [refused.status, refused.body.includes(`nested deeper than ${MAX_JSON_DEPTH} levels`)],
        [400, true],
        refused.body,
      );
      assert.strictEqual((await send(p, { headers, body: nested(MAX_JSON_DEPTH - 1) })).status, 204);
      assert.strictEqual(seen.length, 1, 'only the body within the depth reached the route');
    } finally {
      await deepHub.close();
    }
  });
});

describe('hub discovery file', () => {
  it('is written 0600, replaced whole, read back, and removed only by its own hub', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-disc-'));
    const file = path.join(dir, 'hubs', 'w.json');
    writeDiscovery(file, { v: 1, port: 1234, token: 'aa', pid: 1 });
    assert.strictEqual(fs.statSync(file).mode & 0o777, 0o600);
    assert.strictEqual(fs.statSync(path.dirname(file)).mode & 0o077, 0);
    // A pid that surely runs: readDiscovery refuses files whose pid is gone (pid 2 need not exist in a container).
    writeDiscovery(file, { v: 1, port: 4321, token: 'bb', pid: process.pid });
    assert.deepStrictEqual(readDiscovery(file), { v: 1, port: 4321, token: 'bb', pid: process.pid });
    assert.deepStrictEqual(fs.readdirSync(path.dirname(file)), ['w.json'], 'no temp files left');
    removeDiscovery(file, 'aa');
    assert.ok(fs.existsSync(file), 'another hub’s file stays');
    removeDiscovery(file, 'bb');
    assert.ok(!fs.existsSync(file));
    fs.writeFileSync(file, 'garbage');
    assert.strictEqual(readDiscovery(file), undefined);
    assert.strictEqual(readDiscovery(undefined), undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
