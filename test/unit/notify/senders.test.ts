import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ChannelSchema } from '../../../src/notify/config';
import { messageOf, type NotifyEvent } from '../../../src/notify/message';
import { senderFor } from '../../../src/notify/senders';
import { recordingServer } from './loopback';

const WAIT: NotifyEvent = {
  kind: 'wait',
  id: 'w-1',
  agent: 'claude-code',
  terminal: 'api server',
  folder: '/home/u/shop',
  waitKind: 'permission',
  detail: 'rm -rf build',
  openedAt: 1_000,
  at: 16_000,
};
const FAST = { timeoutMs: 2000, retries: 2, backoffMs: () => 0 };
const quiet = { post: FAST, output: () => undefined };

describe('push channels, against loopback servers speaking their wire protocols', () => {
  it('ntfy: a JSON publish to the server root with the topic, title, message, priority, tags and the token as a Bearer header', async () => {
    const srv = await recordingServer();
    try {
      const ch = ChannelSchema.parse({ kind: 'ntfy', url: `${srv.url}/agents-7f3k`, token: 'tk_secret' });
      await senderFor(ch, quiet)(messageOf(WAIT, false));
      assert.strictEqual(srv.seen.length, 1);
      const [r] = srv.seen;
      assert.deepStrictEqual(
        [r.method, r.path, r.headers['content-type'], r.headers.authorization],
        ['POST', '/', 'application/json', 'Bearer tk_secret'],
      );
      assert.deepStrictEqual(JSON.parse(r.body), {
        topic: 'agents-7f3k',
        title: 'Claude Code needs you: waiting for approval',
        message: 'in api server · shop, for 15s',
        priority: 4,
        tags: ['bell'],
      });
    } finally {
      await srv.close();
    }
  });

  it('ntfy on a self-hosted server under a path keeps that path; details on send the command', async () => {
    const srv = await recordingServer();
    try {
      const ch = ChannelSchema.parse({ kind: 'ntfy', url: `${srv.url}/ntfy/team`, details: true });
      await senderFor(ch, quiet)(messageOf(WAIT, true));
      assert.strictEqual(srv.seen[0].path, '/ntfy/');
      assert.strictEqual(srv.seen[0].headers.authorization, undefined, 'no token, no header');
      assert.strictEqual(
        JSON.parse(srv.seen[0].body).message,
        'in api server · /home/u/shop, for 15s\nrm -rf build',
        'with details, the whole folder',
      );
    } finally {
      await srv.close();
    }
  });

  it('Slack and Discord bodies: outside text in a code block, no mentions, no link previews, Slack markup escaped', async () => {
    const srv = await recordingServer();
    try {
      const hostile: NotifyEvent = { ...WAIT, terminal: '<!channel> `x` <https://evil.example|Open> @everyone' };
      await senderFor(ChannelSchema.parse({ kind: 'webhook', url: `${srv.url}/slack`, format: 'slack' }), quiet)(messageOf(hostile, false));
      await senderFor(
        ChannelSchema.parse({ kind: 'webhook', url: `${srv.url}/discord`, format: 'discord' }),
        quiet,
      )(messageOf(hostile, false));
      await senderFor(ChannelSchema.parse({ kind: 'webhook', url: `${srv.url}/json` }), quiet)(messageOf(hostile, false));
      const [slack, discord, json] = srv.seen.map((s) => JSON.parse(s.body) as Record<string, unknown>);
      assert.ok(!/<!channel>|<https/.test(slack.text as string), slack.text as string);
      assert.match(slack.text as string, /```in &lt;!channel&gt; ˋxˋ &lt;https\[:\]\/\/evil\.example\|Open&gt; @everyone/);
      assert.deepStrictEqual([discord.allowed_mentions, discord.flags], [{ parse: [] }, 4]);
      assert.match(discord.content as string, /\n```\nin <!channel> ˋxˋ <https\[:\]\/\/evil\.example\|Open> @everyone/);
      assert.deepStrictEqual(Object.keys(json), ['source', 'event', 'title', 'body', 'count']);
    } finally {
      await srv.close();
    }
  });

  it('retries a 503 and a 429, but never a 401; a redirect is not followed (the token stays with its server)', async () => {
    const srv = await recordingServer([503, 429]);
    try {
      const send = senderFor(ChannelSchema.parse({ kind: 'ntfy', url: `${srv.url}/t`, token: 'tk_secret' }), quiet);
      await send(messageOf(WAIT, false));
      assert.strictEqual(srv.seen.length, 3, 'two retries, then 200');
    } finally {
      await srv.close();
    }
    const denied = await recordingServer([401, 200]);
    try {
      const send = senderFor(ChannelSchema.parse({ kind: 'ntfy', url: `${denied.url}/t`, token: 'tk_secret' }), quiet);
      await assert.rejects(send(messageOf(WAIT, false)), (e: Error & { kind: string }) => {
        assert.strictEqual(e.kind, 'http 401');
        assert.ok(!e.message.includes('tk_secret') && !e.message.includes(denied.url), e.message);
        return true;
      });
      assert.strictEqual(denied.seen.length, 1);
    } finally {
      await denied.close();
    }
    const moved = await recordingServer([302]);
    try {
      const send = senderFor(ChannelSchema.parse({ kind: 'webhook', url: `${moved.url}/hook` }), quiet);
      await assert.rejects(send(messageOf(WAIT, false)), /302 \(a redirect, not followed\)/);
      assert.strictEqual(moved.seen.length, 1);
    } finally {
      await moved.close();
    }
  });

  it('a server that is down: bounded attempts, then a network failure', async () => {
    const srv = await recordingServer();
    const url = srv.url;
    await srv.close();
    const started = Date.now();
    await assert.rejects(
      senderFor(ChannelSchema.parse({ kind: 'ntfy', url: `${url}/t` }), quiet)(messageOf(WAIT, false)),
      (e: Error & { kind: string }) => e.kind === 'network',
    );
    assert.ok(Date.now() - started < 10_000);
  });

  it('command: argv without a shell, the message in the environment and as JSON on stdin, output to the log only', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-notify-cmd-'));
    try {
      const out = path.join(dir, 'got.json');
      const script = `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{require('fs').writeFileSync(${JSON.stringify(out)},JSON.stringify({stdin:JSON.parse(s),env:{e:process.env.AGENT_LENS_EVENT,t:process.env.AGENT_LENS_TITLE},argv:process.argv.slice(1)}));console.log('sent to pager')})`;
      const printed: string[] = [];
      const ch = ChannelSchema.parse({ kind: 'command', argv: [process.execPath, '-e', script, '$(touch pwned)', '; echo'] });
      await senderFor(ch, { post: FAST, output: (t) => printed.push(t) })(messageOf(WAIT, false));
      const got = JSON.parse(fs.readFileSync(out, 'utf8'));
      assert.deepStrictEqual(got.argv, ['$(touch pwned)', '; echo'], 'arguments reach the program as given, no shell');
      assert.deepStrictEqual(got.env, { e: 'wait', t: 'Claude Code needs you: waiting for approval' });
      assert.deepStrictEqual(got.stdin, {
        source: 'agent-lens',
        event: 'wait',
        title: got.env.t,
        body: 'in api server · shop, for 15s',
        count: 1,
      });
      assert.deepStrictEqual(printed, ['sent to pager']);
      assert.ok(!fs.existsSync(path.join(process.cwd(), 'pwned')));
      const slow = ChannelSchema.parse({ kind: 'command', argv: [process.execPath, '-e', 'setTimeout(()=>{},60000)'], timeoutSeconds: 1 });
      await assert.rejects(senderFor(slow, quiet)(messageOf(WAIT, false)), (e: Error & { kind: string }) => e.kind === 'timeout');
      const failing = ChannelSchema.parse({ kind: 'command', argv: [process.execPath, '-e', 'process.exit(3)'] });
      await assert.rejects(senderFor(failing, quiet)(messageOf(WAIT, false)), /exited with 3/);
      const missing = ChannelSchema.parse({ kind: 'command', argv: [path.join(dir, 'no-such-program')] });
      await assert.rejects(senderFor(missing, quiet)(messageOf(WAIT, false)), /could not run/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
