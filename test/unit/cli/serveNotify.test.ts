import * as assert from 'assert';
import { execFile, execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { send } from '../handoffContract';
import { recordingServer } from '../notify/loopback';
import { CLI, DIST, type ServeChild, startServe } from '../serveChild';

/**
 * `agent-lens serve --notify FILE` as a user runs it over SSH: a Claude Code permission dialog reported by its
 * hooks reaches a loopback ntfy server once, after the delay; one answered within the delay reaches nothing.
 */
describe('agent-lens serve --notify: dialogs reported by hooks reach the phone', function () {
  this.timeout(60_000);
  let tmp: string;
  let ntfy: Awaited<ReturnType<typeof recordingServer>>;
  let serve: ServeChild | undefined;
  const hook = (info: { port: number; token: string }, payload: Record<string, unknown>) =>
    send(info.port, 'POST', '/v1/hooks', {
      bearer: info.token,
      body: JSON.stringify({
        v: 1,
        agent: 'claude-code',
        at: Date.now(),
        cwd: '/home/u/shop',
        payload: { session_id: 's-1', cwd: '/home/u/shop', ...payload },
      }),
    });
  const permission = { hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'rm -rf build' } };

  beforeEach(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-serve-notify-'));
    ntfy = await recordingServer();
  });
  afterEach(async () => {
    await serve?.stop();
    serve = undefined;
    await ntfy.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const start = (settings: unknown): ServeChild => {
    const file = path.join(tmp, 'notify.json');
    fs.writeFileSync(file, JSON.stringify(settings), { mode: 0o600 });
    return (serve = startServe(['--root', path.join(tmp, 'root'), '--notify', file], path.join(tmp, 'hub.json')));
  };

  it('one push, after the delay, naming the agent, its folder and the kind of wait — not the command', async () => {
    const s = start({ delaySeconds: 1, channels: [{ kind: 'ntfy', url: `${ntfy.url}/agents`, token: 'tk_secret' }] });
    const info = await s.info();
    const opened = Date.now();
    assert.strictEqual((await hook(info, permission)).status, 204);
    await hook(info, { hook_event_name: 'Notification', notification_type: 'permission_prompt' });
    while (ntfy.seen.length === 0 && Date.now() - opened < 10_000) await new Promise((r) => setTimeout(r, 50));
    const after = Date.now() - opened;
    await new Promise((r) => setTimeout(r, 1500));
    assert.strictEqual(ntfy.seen.length, 1, 'once per wait');
    assert.ok(after >= 1000, `pushed ${after} ms after the dialog opened`);
    const body = JSON.parse(ntfy.seen[0].body);
    assert.deepStrictEqual([body.topic, body.title], ['agents', 'Claude Code needs you: waiting for approval']);
    assert.match(body.message, /^in shop, for \d+s$/);
    assert.strictEqual(ntfy.seen[0].headers.authorization, 'Bearer tk_secret');
    assert.ok(!s.stderr().includes('tk_secret'), 'the token is in no log line');
    console.log(`      pushed ${after} ms after the dialog opened (delay 1 s)`);
  });

  it('a dialog answered within the delay is never pushed', async () => {
    const s = start({ delaySeconds: 2, channels: [{ kind: 'ntfy', url: `${ntfy.url}/agents` }] });
    const info = await s.info();
    await hook(info, permission);
    await new Promise((r) => setTimeout(r, 500));
    await hook(info, { hook_event_name: 'PostToolUse', tool_name: 'Bash' });
    await new Promise((r) => setTimeout(r, 3000));
    assert.strictEqual(ntfy.seen.length, 0);
  });

  const until = async (done: () => boolean, ms: number) => {
    const from = Date.now();
    while (!done() && Date.now() - from < ms) await new Promise((r) => setTimeout(r, 50));
  };
  const pushed = () => ntfy.seen.map((r) => JSON.parse(r.body) as { topic: string; title: string; message: string });

  it('a long turn that completed: one push to the channel that asked for turn ends, none to the one for waits', async () => {
    const s = start({
      turnSeconds: 1,
      channels: [
        { kind: 'ntfy', url: `${ntfy.url}/done`, events: ['turn-completed'], minIntervalSeconds: 0 },
        { kind: 'ntfy', url: `${ntfy.url}/waits`, events: ['wait'], minIntervalSeconds: 0 },
      ],
    });
    const info = await s.info();
    // A short turn first (not worth telling), then one of 1.5 s.
    await hook(info, { hook_event_name: 'UserPromptSubmit', prompt: 'hi' });
    await hook(info, { hook_event_name: 'Stop', last_assistant_message: 'Hello.' });
    await hook(info, { hook_event_name: 'UserPromptSubmit', prompt: 'build it' });
    await new Promise((r) => setTimeout(r, 1500));
    await hook(info, { hook_event_name: 'Stop', last_assistant_message: 'Built.' });
    await until(() => ntfy.seen.length > 0, 10_000);
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepStrictEqual(
      pushed().map((b) => [b.topic, b.title]),
      [['done', 'Claude Code: turn completed']],
    );
    assert.match(pushed()[0].message, /^in shop, after [12]s of work$/);
  });

  it('under tmux: a wait from an agent in a pane is named by that pane', async function () {
    try {
      execFileSync('tmux', ['-V']);
    } catch {
      return this.skip(); // no tmux on this machine
    }
    // A tmux server of this test's own (its socket under tmp), which serve finds as the user's default one.
    const saved = { TMUX: process.env.TMUX, TMUX_TMPDIR: process.env.TMUX_TMPDIR };
    delete process.env.TMUX;
    process.env.TMUX_TMPDIR = tmp;
    const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
    try {
      const s = start({ delaySeconds: 1, channels: [{ kind: 'ntfy', url: `${ntfy.url}/agents`, minIntervalSeconds: 0 }] });
      await s.info();
      // The agent: a process below the pane's shell that runs the real reporter as Claude Code runs a hook.
      const agent = path.join(tmp, 'agent.js');
      fs.writeFileSync(agent, AGENT);
      tmux('new-session', '-d', '-s', 'work', '-x', '100', '-y', '30', '--', 'sleep', '600');
      const cmd = [process.execPath, agent, path.join(DIST, 'agent-lens-report.js'), path.join(tmp, 'hub.json')]
        .map((a) => `'${a}'`)
        .join(' ');
      tmux('split-window', '-d', '-t', 'work:0', '--', 'sh', '-c', `${cmd}; true`);
      await until(() => ntfy.seen.length > 0, 15_000);
      const [b] = pushed();
      assert.strictEqual(b?.title, 'Claude Code needs you: waiting for approval', s.stderr());
      assert.match(b.message, /^in work:0\.1 · shop, for \d+s$/);
    } finally {
      try {
        tmux('kill-server');
      } catch {
        /* already gone */
      }
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  });

  // Asynchronously: the loopback server answering the test message runs in this process.
  const cli = (args: string[]) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [CLI, ...args], { encoding: 'utf8' }, (e, stdout, stderr) =>
        resolve({ status: e ? Number((e as { code?: number }).code) : 0, stdout, stderr }),
      ),
    );

  it('notify test: a line per failing channel, exit 1; a file others may read is refused', async () => {
    const file = path.join(tmp, 'notify.json');
    const settings = {
      channels: [
        { kind: 'ntfy', url: `${ntfy.url}/agents` },
        { kind: 'command', argv: [process.execPath, '-e', 'process.exit(4)'] },
      ],
    };
    fs.writeFileSync(file, JSON.stringify(settings), { mode: 0o600 });
    const r = await cli(['notify', 'test', '--notify', file]);
    assert.strictEqual(r.status, 1, r.stderr);
    assert.match(r.stderr, /exited with 4/);
    assert.match(r.stdout, /^1 of 2 channel\(s\) sent the test message/);
    fs.chmodSync(file, 0o644);
    const open = await cli(['notify', 'test', '--notify', file]);
    assert.strictEqual(open.status, 2);
    assert.match(open.stderr, /chmod 600/);
  });
});

/** A stand-in agent: runs the reporter (argv[2]) with a permission dialog's hook payload, then stays, as an agent does. */
const AGENT = `
const { spawn } = require('child_process');
const [reporter, hub] = process.argv.slice(2);
const payload = { session_id: 's-tmux', cwd: '/home/u/shop', hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'rm -rf build' } };
const c = spawn(process.execPath, [reporter, 'claude-code'], { env: { ...process.env, AGENT_LENS_HUB: hub }, stdio: ['pipe', 'ignore', 'inherit'] });
c.stdin.end(JSON.stringify(payload));
setTimeout(() => undefined, 60000);
`;
