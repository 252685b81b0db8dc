import * as assert from 'assert';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { send } from '../handoffContract';
import { recordingServer } from '../notify/loopback';
import { CLI, type ServeChild, startServe } from '../serveChild';

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
    assert.match(body.message, /^in shop · \/home\/u\/shop, for \d+s$/);
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
