import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { hookTargets } from '../../../../src/integrations/install/targets';
import { HookMapper } from '../../../../src/hooks/mapping/mapReport';
import type { WireReport } from '../../../../src/hooks/wire';
import { writeDiscovery } from '../../../../src/hub/discovery';
import { ROOT } from '../../helpers';

const PLUGIN = path.join(ROOT, 'resources/hermes/agent-lens');
const HOST = path.join(ROOT, 'test/hermes/standin_host.py');

/** Hermes hooks with the keyword arguments the plugin relies on (seed 001's table; unverified against Hermes). */
const SCRIPT: [string, Record<string, unknown>][] = [
  ['pre_llm_call', { session_id: 'h1', user_message: 'set up tests' }],
  ['pre_tool_call', { session_id: 'h1', tool_name: 'clarify', args: { question: 'Which runner?', choices: ['pytest', 'unittest'] } }],
  ['post_tool_call', { session_id: 'h1', tool_name: 'clarify', args: {}, result: 'pytest' }],
  ['pre_approval_request', { session_id: 'h1', command: 'rm -rf build', description: 'clean' }],
  ['post_approval_response', { session_id: 'h1', approved: true }],
  ['post_llm_call', { session_id: 'h1', assistant_response: 'Done. Shall I add CI too?' }],
  ['on_session_end', { session_id: 'h1', interrupted: false }],
  ['on_session_end', { session_id: 'h1', interrupted: true }],
];

function python(): string | undefined {
  const r = spawnSync('python3', ['--version']);
  return r.status === 0 ? 'python3' : undefined;
}

describe('Hermes plugin (stand-in host; Hermes itself cannot be installed here)', function () {
  this.timeout(60_000);
  let server: http.Server;
  let port: number;
  const token = 'a'.repeat(64);
  const got: WireReport[] = [];
  let dir: string;

  before(async function () {
    if (!python()) this.skip();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-hermes-'));
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.headers.authorization !== `Bearer ${token}`) return res.writeHead(403).end();
        got.push(JSON.parse(Buffer.concat(chunks).toString()) as WireReport);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as { port: number }).port;
    fs.writeFileSync(path.join(dir, 'script.json'), JSON.stringify(SCRIPT));
  });
  after(() => {
    server?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => (got.length = 0));

  // Async: the hub in this process must answer while the host runs.
  const run = (env: NodeJS.ProcessEnv) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const p = spawn('python3', ['-B', HOST, PLUGIN, path.join(dir, 'script.json')], { env: { PATH: process.env.PATH, ...env } });
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (c) => (stdout += c));
      p.stderr.on('data', (c) => (stderr += c));
      p.on('close', (status) => resolve({ status, stdout, stderr }));
    });

  it('sends every hook, in order, silently, and the mapping reads them as seed 001 says', async () => {
    const hub = path.join(dir, 'hub.json');
    writeDiscovery(hub, { v: 1, port, token, pid: 1 });
    const r = await run({ AGENT_LENS_HUB: hub });
    assert.deepStrictEqual([r.status, r.stdout, r.stderr], [0, '', '']);
    assert.deepStrictEqual(
      got.map((g) => g.payload.hook),
      SCRIPT.map(([h]) => h),
    );
    assert.ok(got.every((g) => g.agent === 'hermes' && g.pid && Array.isArray(g.ancestry)));
    const m = new HookMapper();
    const words = got
      .map((g) => m.map(g).word)
      .map((w) => (w ? `${w.state}${w.wait ? `/${w.wait.kind}` : ''}${w.reason ? `/${w.reason}` : ''}` : '-'));
    assert.deepStrictEqual(words, [
      'working',
      'waiting/question',
      'working',
      'waiting/permission',
      'working',
      'waiting/reply-question',
      '-',
      'failed/interrupted',
    ]);
    assert.deepStrictEqual(m.map(got[1]).word?.wait, { kind: 'question', question: 'Which runner?', options: ['pytest', 'unittest'] });
  });

  it('does nothing outside VS Code, and exits 0 silently when the hub is down or refuses', async () => {
    let r = await run({});
    assert.deepStrictEqual([r.status, r.stdout, r.stderr, got.length], [0, '', '', 0]);
    const dead = path.join(dir, 'dead.json');
    writeDiscovery(dead, { v: 1, port: 1, token, pid: 1 });
    const t0 = Date.now();
    r = await run({ AGENT_LENS_HUB: dead });
    assert.deepStrictEqual([r.status, r.stdout, r.stderr], [0, '', '']);
    console.log(`      hub down: the host finished after ${Date.now() - t0} ms`);
    const wrong = path.join(dir, 'wrong.json');
    writeDiscovery(wrong, { v: 1, port, token: 'b'.repeat(64), pid: 1 });
    r = await run({ AGENT_LENS_HUB: wrong });
    assert.deepStrictEqual([r.status, r.stdout, r.stderr, got.length], [0, '', '', 0]);
  });

  it('installs into HERMES_HOME/plugins/agent-lens and uninstalls to nothing', () => {
    const hermesHome = path.join(dir, 'hermes-home');
    const sources = fs
      .readdirSync(PLUGIN)
      .filter((f) => /\.(py|yaml)$/.test(f))
      .map((f) => path.join(PLUGIN, f));
    const [t] = hookTargets(
      {
        env: { AGENT_LENS_HOME: path.join(dir, 'al') },
        home: dir,
        reporter: '/x/agent-lens-report',
        opencodePluginSource: path.join(ROOT, 'dist/opencode-plugin.js'),
        hermesSources: sources,
      },
      { hermes: hermesHome },
    ).filter((x) => x.agent === 'hermes');
    assert.strictEqual(t.status().state, 'absent');
    t.install();
    assert.strictEqual(t.status().state, 'installed');
    assert.deepStrictEqual(fs.readdirSync(path.join(hermesHome, 'plugins', 'agent-lens')).sort(), ['__init__.py', 'plugin.yaml']);
    t.uninstall();
    assert.strictEqual(t.status().state, 'absent');
    assert.ok(!fs.existsSync(path.join(hermesHome, 'plugins', 'agent-lens')));
  });
});
