import * as assert from 'assert';
import { logTo } from '../../../src/common/log';
import { ChannelSchema } from '../../../src/notify/config';
import { NotifyFanout } from '../../../src/notify/fanout';
import { messageOf, type NotifyEvent } from '../../../src/notify/message';
import { recordingServer } from './loopback';

const wait = (i: number): NotifyEvent => ({
  kind: 'wait',
  id: `w-${i}`,
  agent: 'codex',
  terminal: `agent ${i}`,
  waitKind: 'permission',
  openedAt: 0,
  at: 15_000,
});
const FAST = { timeoutMs: 2000, retries: 1, backoffMs: () => 0 };

describe('the channels together', () => {
  it('a burst of ten waits is one push at once and one summary when the interval is over, not ten', async () => {
    const srv = await recordingServer();
    const fan = new NotifyFanout(
      [ChannelSchema.parse({ kind: 'ntfy', url: `${srv.url}/t`, minIntervalSeconds: 0.5 })],
      logTo(() => undefined),
      { post: FAST },
    );
    try {
      for (let i = 1; i <= 10; i++) fan.notify(wait(i));
      await fan.settled();
      assert.strictEqual(srv.seen.length, 1);
      await new Promise((r) => setTimeout(r, 700));
      await fan.settled();
      assert.strictEqual(srv.seen.length, 2);
      const summary = JSON.parse(srv.seen[1].body) as { title: string; message: string };
      assert.strictEqual(summary.title, 'Agent Lens: 9 agents need you or finished');
      assert.strictEqual(summary.message.split('\n').length, 9);
    } finally {
      fan.dispose();
      await srv.close();
    }
  });

  it('a held event no longer wanted when the summary goes (its dialog answered meanwhile) is left out of it', async () => {
    const srv = await recordingServer();
    const fan = new NotifyFanout(
      [ChannelSchema.parse({ kind: 'ntfy', url: `${srv.url}/t`, minIntervalSeconds: 0.3 })],
      logTo(() => undefined),
      { post: FAST },
    );
    try {
      const open = new Set([2, 3, 4]);
      for (let i = 1; i <= 4; i++) fan.notify(wait(i), () => open.has(i));
      open.delete(3);
      open.delete(4);
      await new Promise((r) => setTimeout(r, 500));
      await fan.settled();
      assert.deepStrictEqual(
        srv.seen.map((s) => (JSON.parse(s.body) as { title: string }).title),
        [messageOf(wait(1), false).title, messageOf(wait(2), false).title],
        'the first at once, then only the one still open (no summary of one)',
      );
      fan.dispose();
      fan.notify(wait(5));
      await fan.settled();
      assert.strictEqual(srv.seen.length, 2, 'a disposed fan-out sends nothing');
    } finally {
      fan.dispose();
      await srv.close();
    }
  });

  it('each channel gets only the events it asked for; a failing one is logged once and delays no other', async () => {
    const good = await recordingServer();
    const bad = await recordingServer([500, 500, 500, 500, 500, 500]);
    const logged: string[] = [];
    const fan = new NotifyFanout(
      [
        ChannelSchema.parse({ kind: 'webhook', url: `${bad.url}/h`, minIntervalSeconds: 0 }),
        ChannelSchema.parse({ kind: 'ntfy', url: `${good.url}/t`, minIntervalSeconds: 0, events: ['wait', 'turn-failed'] }),
        ChannelSchema.parse({ kind: 'webhook', url: `${good.url}/done`, minIntervalSeconds: 0, events: ['turn-completed'] }),
      ],
      logTo((level, msg) => void logged.push(`${level}: ${msg}`)),
      { post: FAST },
    );
    try {
      fan.notify(wait(1));
      fan.notify(wait(2));
      fan.notify({ kind: 'turn', id: 's-1', agent: 'codex', terminal: 'a', state: 'completed', workedMs: 90_000, at: 1 });
      await fan.settled();
      assert.deepStrictEqual(
        good.seen.map((s) => s.path),
        ['/', '/', '/done'],
      );
      assert.strictEqual(bad.seen.length, 4, 'two waits, each tried twice');
      assert.deepStrictEqual(logged, [
        `warn: notification channel webhook ${new URL(bad.url).host} failed: the server answered 500. Further failures like it are not logged.`,
      ]);
    } finally {
      fan.dispose();
      await good.close();
      await bad.close();
    }
  });

  it('agent-lens notify test: one test message per channel, one line per channel that failed', async () => {
    const good = await recordingServer();
    const fan = new NotifyFanout(
      [
        ChannelSchema.parse({ kind: 'ntfy', url: `${good.url}/t`, events: ['turn-completed'] }),
        ChannelSchema.parse({ kind: 'command', argv: [process.execPath, '-e', 'process.exit(2)'] }),
      ],
      logTo(() => undefined),
      { post: FAST },
    );
    try {
      assert.deepStrictEqual(await fan.test(), [`command ${process.execPath}: ${process.execPath} exited with 2`]);
      assert.strictEqual(JSON.parse(good.seen[0].body).title, 'Agent Lens: test notification');
    } finally {
      fan.dispose();
      await good.close();
    }
  });
});
