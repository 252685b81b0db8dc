/**
 * Regression tests for how clients find the hub and send it the token (SECURITY-GAPS 2 and 3): a stale
 * discovery file (its hub's pid is gone) counts as "no hub", so another program that took the port since is
 * never handed the token; the Hermes plugin ignores http_proxy and friends, so the token never goes through
 * a proxy.
 */
import * as assert from 'assert';
import { collect, ROOT } from '../helpers';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { ClientError, hubFromEnv } from '../../../src/handoff/hubClient';
import { pidAlive, readDiscovery, removeDiscovery, writeDiscovery } from '../../../src/hub/discovery';

const REPORTER = path.join(ROOT, 'dist/agent-lens-report.js');
const PLUGIN = path.join(ROOT, 'resources/hermes/agent-lens');
const HOST = path.join(ROOT, 'test/hermes/standin_host.py');
const TOKEN = 'c'.repeat(64);

/** A pid that ran and exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

/** A loopback server that records what reaches it (any path, token checked). */
async function recorder(): Promise<{ server: http.Server; port: number; got: unknown[] }> {
  const got: unknown[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return res.writeHead(403).end();
      got.push(JSON.parse(Buffer.concat(chunks).toString()));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, port: (server.address() as { port: number }).port, got };
}

/** A port nothing listens on (bound, then closed). */
async function deadPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return collect(spawn(cmd, args, { env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'pipe', 'pipe'] }), stdin);
}

describe('clients refuse a stale discovery file (its hub pid is gone)', function () {
  this.timeout(30_000);
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-stale-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('readDiscovery: a dead pid is no hub; a live one (ours, pid 1) is; a file without a pid is no hub', () => {
    const file = path.join(dir, 'hubs', 'a.json');
    const dead = deadPid();
    assert.strictEqual(pidAlive(dead), false);
    writeDiscovery(file, { v: 1, port: 1234, token: TOKEN, pid: dead });
    assert.strictEqual(readDiscovery(file), undefined, 'stale: the port may be someone else’s by now');
    writeDiscovery(file, { v: 1, port: 1234, token: TOKEN, pid: process.pid });
    assert.strictEqual(readDiscovery(file)?.port, 1234);
    writeDiscovery(file, { v: 1, port: 1234, token: TOKEN, pid: 1 });
    assert.strictEqual(readDiscovery(file)?.pid, 1, 'EPERM or alive: counted as running');
    fs.writeFileSync(file, JSON.stringify({ v: 1, port: 1234, token: TOKEN }));
    assert.strictEqual(readDiscovery(file), undefined);
  });

  it('removeDiscovery still removes our own stale file', () => {
    const file = path.join(dir, 'hubs', 'b.json');
    writeDiscovery(file, { v: 1, port: 1234, token: TOKEN, pid: deadPid() });
    removeDiscovery(file, TOKEN);
    assert.ok(!fs.existsSync(file));
  });

  it('the CLI’s hub client says "no hub there" instead of posting the token', () => {
    const file = path.join(dir, 'hubs', 'c.json');
    writeDiscovery(file, { v: 1, port: 1234, token: TOKEN, pid: deadPid() });
    assert.throws(
      () => hubFromEnv({ AGENT_LENS_HUB: file }),
      (e: unknown) => e instanceof ClientError && /no hub there/.test((e as Error).message),
    );
  });

  it('the reporter posts nothing to a port named by a stale file, and still to a live one', async () => {
    const rec = await recorder();
    try {
      const file = path.join(dir, 'hubs', 'd.json');
      const payload = JSON.stringify({ hook_event_name: 'Stop', session_id: 's1' });
      writeDiscovery(file, { v: 1, port: rec.port, token: TOKEN, pid: deadPid() });
      let r = await run(process.execPath, [REPORTER, 'claude-code'], { AGENT_LENS_HUB: file }, payload);
      assert.deepStrictEqual([r.code, r.stdout, rec.got.length], [0, '', 0], 'the token went to a stale file’s port');
      writeDiscovery(file, { v: 1, port: rec.port, token: TOKEN, pid: process.pid });
      r = await run(process.execPath, [REPORTER, 'claude-code'], { AGENT_LENS_HUB: file }, payload);
      assert.deepStrictEqual([r.code, r.stdout, rec.got.length], [0, '', 1]);
    } finally {
      rec.server.close();
    }
  });
});

describe('Hermes plugin: no proxy, no stale hub', function () {
  this.timeout(30_000);
  let dir: string;
  const hasPython = spawnSync('python3', ['--version']).status === 0;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-hproxy-'));
    fs.writeFileSync(path.join(dir, 'script.json'), JSON.stringify([['pre_llm_call', { session_id: 'h1', user_message: 'hi' }]]));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('its source opens requests with an opener that has no proxies', () => {
    const src = fs.readFileSync(path.join(PLUGIN, '__init__.py'), 'utf8');
    assert.match(src, /build_opener\(urllib\.request\.ProxyHandler\(\{\}\)\)/);
    assert.doesNotMatch(src, /urllib\.request\.urlopen\(/, 'urlopen uses the environment’s proxies');
  });

  it('reaches the loopback hub with http_proxy / HTTP_PROXY / all_proxy pointing at a dead port', async function () {
    if (!hasPython) this.skip();
    const rec = await recorder();
    try {
      const hub = path.join(dir, 'hub.json');
      writeDiscovery(hub, { v: 1, port: rec.port, token: TOKEN, pid: process.pid });
      const proxy = `http://127.0.0.1:${await deadPort()}`;
      const r = await run('python3', ['-B', HOST, PLUGIN, path.join(dir, 'script.json')], {
        AGENT_LENS_HUB: hub,
        http_proxy: proxy,
        HTTP_PROXY: proxy,
        https_proxy: proxy,
        HTTPS_PROXY: proxy,
        all_proxy: proxy,
        ALL_PROXY: proxy,
      });
      assert.deepStrictEqual([r.code, r.stdout, r.stderr], [0, '', '']);
      assert.strictEqual(rec.got.length, 1, 'the report went to the proxy instead of the hub');
    } finally {
      rec.server.close();
    }
  });

  it('sends nothing when the discovery file names a pid that is gone', async function () {
    if (!hasPython) this.skip();
    const rec = await recorder();
    try {
      const hub = path.join(dir, 'stale.json');
      writeDiscovery(hub, { v: 1, port: rec.port, token: TOKEN, pid: deadPid() });
      const r = await run('python3', ['-B', HOST, PLUGIN, path.join(dir, 'script.json')], { AGENT_LENS_HUB: hub });
      assert.deepStrictEqual([r.code, r.stdout, r.stderr, rec.got.length], [0, '', '', 0]);
    } finally {
      rec.server.close();
    }
  });
});
