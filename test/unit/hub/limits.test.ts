/**
 * Regression tests for the hub's exposure and for what outlives the extension (SECURITY-GAPS 12, 13, 14):
 * connection and header limits (a slowloris client is cut off), the hub's port marked "do not auto-forward"
 * where VS Code allows it, and `vscode:uninstall` removing every hook Agent Lens installed.
 */
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { uninstallAll } from '../../../src/integrations/install/uninstallAll';
import { hookTargets } from '../../../src/integrations/install/targets';
import { HUB_LIMITS, Hub } from '../../../src/hub/hub';
import { ignorePortForwarding, PORT_AUTO_FORWARD_IGNORE, type PortAttributesApi } from '../../../src/hub/portForwarding';
import { ROOT } from '../helpers';
import { logTo } from '../../../src/common/log';

/** Resolves with how long the server took to close a connection that sent `first` and then trickled a header line every 100 ms. */
function slowloris(port: number, first: string, giveUpMs: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const s = net.connect(port, '127.0.0.1', () => s.write(first));
    const drip = setInterval(() => s.writable && s.write(`x-drip-${Date.now()}: 1\r\n`), 100);
    const done = (v: number | undefined) => {
      clearInterval(drip);
      clearTimeout(limit);
      s.destroy();
      resolve(v);
    };
    const limit = setTimeout(() => done(undefined), giveUpMs);
    s.on('data', () => undefined);
    s.on('error', () => undefined);
    s.on('close', () => done(Date.now() - t0));
  });
}

describe('hub limits: connections, headers, requests', function () {
  this.timeout(30_000);

  it('sets the cap, the other users’ share, the first-byte deadline and the header / request / keep-alive timeouts', async () => {
    const hub = new Hub({ bodyLimit: 1024 });
    await hub.listen();
    try {
      const s = hub.httpServer!;
      assert.deepStrictEqual([s.headersTimeout, s.requestTimeout, s.keepAliveTimeout], [5000, 10_000, 1000]);
      const { maxConnections, firstByteMs, perOtherUser, otherUsers, checkIntervalMs } = HUB_LIMITS;
      assert.deepStrictEqual(
        { maxConnections, firstByteMs, perOtherUser, otherUsers, checkIntervalMs },
        { maxConnections: 256, firstByteMs: 1000, perOtherUser: 16, otherUsers: 64, checkIntervalMs: 1000 },
      );
      assert.strictEqual(s.maxConnections, 4 * 256, 'Node’s own limit counts sockets before they are placed: only a backstop');
    } finally {
      await hub.close();
    }
  });

  it('cuts off a client that never finishes its headers (slowloris)', async () => {
    const hub = new Hub({ bodyLimit: 1024, limits: { headersTimeoutMs: 300, requestTimeoutMs: 600, checkIntervalMs: 100 } });
    const port = await hub.listen();
    try {
      const ms = await slowloris(port, `POST /v1/hooks HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`, 5000);
      assert.ok(ms !== undefined, 'the connection was still open after 5 s');
      console.log(`      slowloris connection closed after ${ms} ms`);
    } finally {
      await hub.close();
    }
  });

  it('closes connections over maxConnections at once', async () => {
    const hub = new Hub({ bodyLimit: 1024, limits: { maxConnections: 2 } });
    const port = await hub.listen();
    const sockets: net.Socket[] = [];
    try {
      const open = () =>
        new Promise<net.Socket>((resolve) => {
          const s = net.connect(port, '127.0.0.1', () => resolve(s));
          s.on('error', () => undefined);
          sockets.push(s);
        });
      await open();
      await open();
      await new Promise((r) => setTimeout(r, 100)); // the server has accepted both
      const third = await open();
      const closed = await new Promise<boolean>((resolve) => {
        third.on('close', () => resolve(true));
        setTimeout(() => resolve(false), 2000);
      });
      assert.ok(closed, 'a third connection stayed open with maxConnections 2');
    } finally {
      sockets.forEach((s) => s.destroy());
      await hub.close();
    }
  });
});

describe('the hub port is marked "do not auto-forward" (remote windows)', () => {
  const fake = (throws?: string) => {
    const calls: {
      selector: { portRange?: [number, number] };
      provider: {
        providePortAttributes: (attrs: number | { port?: number; pid?: number; commandLine?: string }, ...rest: unknown[]) => unknown;
      };
    }[] = [];
    const api: PortAttributesApi = {
      registerPortAttributesProvider: (selector, provider) => {
        if (throws) throw new Error(throws);
        calls.push({ selector, provider });
        return { dispose: () => calls.splice(0) };
      },
    };
    return { api, calls };
  };

  it('registers Ignore for exactly the hub port, with the current and the older provider signature', () => {
    const { api, calls } = fake();
    const d = ignorePortForwarding(api, 40123, undefined);
    assert.ok(d);
    assert.deepStrictEqual(calls[0].selector, { portRange: [40123, 40124] });
    const p = calls[0].provider;
    assert.deepStrictEqual(p.providePortAttributes({ port: 40123, pid: 1, commandLine: 'node' }, {}), {
      autoForwardAction: PORT_AUTO_FORWARD_IGNORE,
    });
    assert.deepStrictEqual(p.providePortAttributes(40123, 1, 'node', {}), { autoForwardAction: PORT_AUTO_FORWARD_IGNORE });
    assert.strictEqual(p.providePortAttributes({ port: 3000 }, {}), undefined, 'other ports are none of our business');
    assert.strictEqual(PORT_AUTO_FORWARD_IGNORE, 5);
    const other = fake();
    ignorePortForwarding(other.api, 1, 6);
    assert.deepStrictEqual(
      other.calls[0].provider.providePortAttributes({ port: 1 }),
      { autoForwardAction: 6 },
      'the enum VS Code exposes wins',
    );
    d!.dispose();
    assert.strictEqual(calls.length, 0);
  });

  it('never throws where the API is proposed-only (stable VS Code refuses it) or absent, and says what to set instead', () => {
    const logs: string[] = [];
    assert.strictEqual(
      ignorePortForwarding(
        fake("Extension 'agent-lens.agent-lens' CANNOT use API proposal: portsAttributes").api,
        40123,
        undefined,
        logTo((_l, m) => void logs.push(m)),
      ),
      undefined,
    );
    assert.strictEqual(
      ignorePortForwarding(
        {},
        40123,
        undefined,
        logTo((_l, m) => void logs.push(m)),
      ),
      undefined,
    );
    assert.strictEqual(logs.length, 2);
    for (const l of logs) assert.match(l, /remote\.autoForwardPorts/);
  });
});

describe('vscode:uninstall removes every hook Agent Lens installed, and nothing else', function () {
  this.timeout(30_000);
  let home: string;
  let env: NodeJS.ProcessEnv;
  const hermesDir = path.join(ROOT, 'resources/hermes/agent-lens');
  const hermesSources = fs
    .readdirSync(hermesDir)
    .filter((f) => /\.(py|yaml)$/.test(f))
    .map((f) => path.join(hermesDir, f));
  const USER = { model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] } };

  /** Installs every user-level target into `home` (and Claude Code once more into a custom config folder). */
  function installAll(): { claude: string; custom: string; other: string } {
    const claude = path.join(home, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(claude), { recursive: true });
    fs.writeFileSync(claude, `${JSON.stringify(USER, null, 2)}\n`);
    const ctx = {
      env,
      home,
      reporter: path.join(home, '.agent-lens/bin/agent-lens-report'),
      opencodePluginSource: path.join(ROOT, 'dist/opencode-plugin.js'),
      hermesSources,
    };
    for (const t of hookTargets(ctx).filter((t) => t.scope === 'user')) assert.strictEqual(t.install(), true, t.path);
    const customDir = path.join(home, 'claude-alt');
    const [alt] = hookTargets(ctx, { 'claude-code': customDir }).filter((t) => t.agent === 'claude-code');
    alt.install();
    const other = path.join(home, '.config', 'opencode', 'plugin', 'mine.js');
    fs.writeFileSync(other, '// the user’s own plugin\n');
    return { claude, custom: path.join(customDir, 'settings.json'), other };
  }

  function assertClean(files: { claude: string; custom: string; other: string }): void {
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(files.claude, 'utf8')), USER, 'the user’s settings and own hook stay');
    assert.ok(!fs.existsSync(files.custom), 'the custom folder’s file did not exist before');
    assert.ok(!fs.existsSync(path.join(home, '.codex', 'hooks.json')));
    assert.ok(!fs.existsSync(path.join(home, '.gemini', 'settings.json')));
    assert.ok(!fs.existsSync(path.join(home, '.config', 'opencode', 'plugin', 'agent-lens.js')));
    assert.ok(!fs.existsSync(path.join(home, '.hermes', 'plugins', 'agent-lens')));
    assert.strictEqual(fs.readFileSync(files.other, 'utf8'), '// the user’s own plugin\n');
  }

  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'al-uninst-'));
    env = { HOME: home, AGENT_LENS_HOME: path.join(home, '.agent-lens') };
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('uninstallAll: recorded and default places, the user’s other settings kept, a changed file edited structurally', () => {
    const files = installAll();
    // The user changes their Claude settings after the install: the removal keeps that change.
    const changed = JSON.parse(fs.readFileSync(files.claude, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(files.claude, JSON.stringify({ ...changed, theme: 'dark' }));
    const r = uninstallAll(env, home, hermesSources);
    assert.deepStrictEqual(r.failed, []);
    const claude = JSON.parse(fs.readFileSync(files.claude, 'utf8')) as Record<string, unknown>;
    assert.strictEqual(claude.theme, 'dark');
    assert.ok(JSON.stringify(claude).includes('say done'), 'the user’s own hook went too');
    assert.ok(!JSON.stringify(claude).includes('agent-lens-report'));
    fs.writeFileSync(files.claude, `${JSON.stringify(USER, null, 2)}\n`);
    assertClean(files);
    assert.deepStrictEqual(uninstallAll(env, home, hermesSources), { removed: [], failed: [] }, 'a second run finds nothing');
  });

  it('the bundled dist/uninstall.js (what package.json names) does it with Node alone and exits 0', () => {
    const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    assert.strictEqual(scripts['vscode:uninstall'], 'node ./dist/uninstall.js');
    const files = installAll();
    const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/uninstall.js')], {
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
    });
    assert.strictEqual(r.status, 0, r.stderr);
    assert.strictEqual(r.stderr, '');
    assertClean(files);
    assert.match(r.stdout, /removed Agent Lens hooks from .*settings\.json/);
  });

  it('never throws or exits non-zero, even with a garbled record and a settings file it cannot read as text', () => {
    const records = path.join(home, '.agent-lens', 'installs');
    fs.mkdirSync(records, { recursive: true });
    fs.writeFileSync(path.join(records, 'x.json'), '{garbled');
    const claude = path.join(home, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(claude), { recursive: true });
    fs.writeFileSync(claude, Buffer.from([0x7b, 0xff, 0xfe, 0x7d])); // not UTF-8: the installers refuse to touch it
    const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/uninstall.js')], {
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
    });
    assert.strictEqual(r.status, 0);
    assert.match(r.stderr, /could not remove Agent Lens hooks from .*settings\.json: .*not UTF-8/);
    assert.deepStrictEqual([...fs.readFileSync(claude)], [0x7b, 0xff, 0xfe, 0x7d]);
  });
});
