import * as assert from 'assert';
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { type ContractHost, doorbellContract } from '../handoffContract';

const CLI = path.resolve('dist/cli.js');

async function until<T>(probe: () => T | undefined, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * `agent-lens serve` as a black box: a real process, real HTTP, real files, and a real tmux server (its own
 * socket folder) whose pane receives the dispatch through `tmux send-keys`.
 */
describe('agent-lens serve (headless hub, real tmux)', function () {
  this.timeout(60_000);
  let tmp: string;
  let child: ChildProcess;
  let info: { port: number; token: string };
  let stderr = '';
  const env = () => ({ ...process.env, TMUX_TMPDIR: tmp, TMUX: '' });
  const infoFile = () => path.join(tmp, 'run', 'hub.json');

  async function startServe(): Promise<void> {
    fs.rmSync(infoFile(), { force: true });
    child = spawn(process.execPath, [CLI, 'serve', '--root', path.join(tmp, 'handoff'), '--info-file', infoFile()], {
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout!.on('data', (c: Buffer) => (stderr += `[stdout] ${c.toString()}`));
    info = await until(() => {
      try {
        return JSON.parse(fs.readFileSync(infoFile(), 'utf8'));
      } catch {
        return undefined;
      }
    }, `the info file (${stderr})`);
  }

  async function stopServe(): Promise<number | null> {
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    return exited;
  }

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-serve-'));
    fs.mkdirSync(path.join(tmp, 'handoff'));
    fs.writeFileSync(path.join(tmp, 'handoff', 'team.toml'), '[worker]\nmode = "background"\nprocess = "cat"\ntmux = "agents:0.0"\n');
    execFileSync(
      'tmux',
      ['new-session', '-d', '-s', 'agents', '-x', '200', '-y', '50', `sh -c 'stty -echo; exec cat > ${path.join(tmp, 'typed.txt')}'`],
      { env: env() },
    );
    await startServe();
  });
  after(async () => {
    if (child.exitCode === null) await stopServe();
    spawnSync('tmux', ['kill-server'], { env: env() });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('writes {port, token} with mode 0600 and never prints the token', () => {
    assert.strictEqual(fs.statSync(infoFile()).mode & 0o777, 0o600);
    assert.ok(Number.isInteger(info.port) && info.token.length >= 32);
    assert.ok(!stderr.includes(info.token), 'the token is not in the log');
  });

  const host: ContractHost = {
    get port() {
      return info.port;
    },
    get token() {
      return info.token;
    },
    get root() {
      return path.join(tmp, 'handoff');
    },
    agent: 'worker',
    restart: async () => {
      assert.strictEqual(await stopServe(), 0, 'SIGTERM stops it cleanly');
      assert.ok(!fs.existsSync(infoFile()), 'the info file is removed on exit');
      await startServe();
      return info;
    },
    typed: async () => {
      // The pane's cat writes each line once Enter reaches it.
      await until(
        () =>
          fs.existsSync(path.join(tmp, 'typed.txt')) && fs.readFileSync(path.join(tmp, 'typed.txt'), 'utf8').includes('execute it.')
            ? true
            : undefined,
        'the typed line in the tmux pane',
      );
      return fs.readFileSync(path.join(tmp, 'typed.txt'), 'utf8');
    },
  };
  doorbellContract(() => host);

  it('serves the hook endpoint too (Bearer token, like the reporter)', async () => {
    const { send } = await import('../handoffContract');
    const report = JSON.stringify({
      v: 1,
      agent: 'claude-code',
      at: Date.now(),
      pid: 1,
      payload: { hook_event_name: 'Stop', session_id: 's1', last_assistant_message: 'Done.' },
    });
    assert.strictEqual((await send(info.port, 'POST', '/v1/hooks', { bearer: info.token, body: report })).status, 204);
    assert.strictEqual((await send(info.port, 'POST', '/v1/hooks', { bearer: 'nope', body: report })).status, 403);
  });

  it('the CLI reports, cancels, dispatches and shows status through AGENT_LENS_HUB, never a token in argv', () => {
    const cli = (args: string[], extra: Record<string, string> = { AGENT_LENS_HUB: infoFile() }) =>
      spawnSync(process.execPath, [CLI, ...args], { env: { ...env(), ...extra }, encoding: 'utf8' });
    const brief = path.join(tmp, 'brief.md');
    fs.writeFileSync(brief, 'Say hello.\n');
    const d = cli(['dispatch', '--agent', 'worker', '--task-id', '0201-01', '--brief', brief]);
    assert.strictEqual(d.status, 0, d.stderr);
    assert.strictEqual(JSON.parse(d.stdout).delivered, true);
    const busy = cli(['dispatch', '--agent', 'worker', '--task-id', '0201-02', '--brief', brief]);
    assert.strictEqual(busy.status, 1);
    assert.match(busy.stderr, /409: .*in flight.*cancel/);
    const r = cli(['task', 'report', '--id', 'worker::0201-01', '--status', 'progress', '--summary', '半程']);
    assert.strictEqual(r.status, 0, r.stderr);
    const s = cli(['status', '--json']);
    const b = JSON.parse(s.stdout).boards.find((x: { agent: string }) => x.agent === 'worker');
    assert.deepStrictEqual([b.state, b.task_id, b.progress.summary], ['in_progress', '0201-01', '半程']);
    assert.match(cli(['status']).stdout, /^worker\tin_progress\t0201-01\tprogress: 半程/m);
    assert.strictEqual(cli(['task', 'cancel', '--id', 'worker::0201-01', '--reason', 'not needed']).status, 0);
    assert.strictEqual(JSON.parse(fs.readFileSync(path.join(tmp, 'handoff', 'worker', 'status.json'), 'utf8')).state, 'cancelled');
    const none = cli(['task', 'report', '--id', 'worker::0201-01', '--status', 'done', '--summary', 's'], { AGENT_LENS_HUB: '' });
    assert.strictEqual(none.status, 2);
    assert.strictEqual(none.stderr.trim().split('\n').length, 1);
    assert.match(none.stderr, /AGENT_LENS_HUB is not set/);
    assert.match(cli(['task', 'report', '--id', 'x', '--token', 'abc']).stderr, /unknown argument --token/);
  });
});
