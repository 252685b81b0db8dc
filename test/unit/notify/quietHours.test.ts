import * as assert from 'assert';
import { logTo } from '../../../src/common/log';
import { ChannelSchema, parseNotifySettings } from '../../../src/notify/config';
import { NotifyFanout } from '../../../src/notify/fanout';
import type { NotifyEvent } from '../../../src/notify/message';
import { inQuietHours } from '../../../src/notify/quietHours';
import { recordingServer } from './loopback';

/** A local time on a given day: what the person's clock shows, whatever the zone or daylight saving time. */
const local = (h: number, m: number, day = 15, month = 0) => new Date(2026, month, day, h, m, 0, 0);

describe('quiet hours', () => {
  it('a span across midnight: from included, to excluded', () => {
    const night = { from: '22:00', to: '07:00' };
    const table: [number, number, boolean][] = [
      [21, 59, false],
      [22, 0, true],
      [23, 59, true],
      [0, 0, true],
      [6, 59, true],
      [7, 0, false],
      [12, 0, false],
    ];
    for (const [h, m, want] of table) assert.strictEqual(inQuietHours(night, local(h, m)), want, `${h}:${m}`);
  });

  it('a span within a day, and the local hour on both sides of a daylight-saving change', () => {
    const lunch = { from: '12:30', to: '13:15' };
    assert.deepStrictEqual(
      [local(12, 29), local(12, 30), local(13, 14), local(13, 15)].map((d) => inQuietHours(lunch, d)),
      [false, true, true, false],
    );
    // Whatever the machine's zone, 23:30 on the last Sunday of March or October is read as 23:30.
    const night = { from: '23:00', to: '06:00' };
    for (const [day, month] of [
      [29, 2],
      [25, 9],
    ])
      assert.deepStrictEqual(
        [inQuietHours(night, local(23, 30, day, month)), inQuietHours(night, local(6, 0, day + 1, month))],
        [true, false],
      );
  });

  it('the file: HH:MM on the 24-hour clock, optional, and from = to refused with what to write', () => {
    const parse = (quietHours: unknown) =>
      parseNotifySettings(JSON.stringify({ channels: [{ kind: 'desktop', quietHours }] }), 'notify.json').channels[0].quietHours;
    const message = (quietHours: unknown) => {
      try {
        parse(quietHours);
      } catch (e) {
        return (e as Error).message;
      }
      return 'accepted';
    };
    assert.deepStrictEqual(parse({ from: '22:00', to: '07:00' }), { from: '22:00', to: '07:00' });
    assert.strictEqual(parse(undefined), undefined);
    assert.strictEqual(
      message({ from: '07:00', to: '07:00' }),
      'notify.json: channels.0.quietHours from and to are the same time: give the hours to stay silent, like {"from": "22:00", "to": "07:00"}',
    );
    assert.strictEqual(
      message({ from: '7:00', to: '08:00' }),
      'notify.json: channels.0.quietHours.from must be a time HH:MM on the 24-hour clock, like "22:00"',
    );
    assert.strictEqual(
      message({ from: '22:00', to: '24:00' }),
      'notify.json: channels.0.quietHours.to must be a time HH:MM on the 24-hour clock, like "22:00"',
    );
    assert.match(message({ from: '22:00' }), /^notify\.json: channels\.0\.quietHours\.to /);
  });

  it('the fan-out: nothing on a channel in its quiet hours (a debug line, no error); other channels and tests go', async () => {
    const srv = await recordingServer();
    const lines: string[] = [];
    let now = local(23, 0).getTime();
    const ch = (path: string, quietHours?: object) =>
      ChannelSchema.parse({ kind: 'webhook', url: `${srv.url}${path}`, minIntervalSeconds: 0, quietHours });
    const fan = new NotifyFanout(
      [ch('/night', { from: '22:00', to: '07:00' }), ch('/always')],
      logTo((level, m) => void lines.push(`${level}: ${m}`)),
      {
        clock: { now: () => now },
      },
    );
    const wait: NotifyEvent = { kind: 'wait', id: 'w', agent: 'codex', terminal: 'api', waitKind: 'permission', openedAt: 0, at: 15_000 };
    try {
      fan.notify(wait);
      await fan.settled();
      assert.deepStrictEqual(
        srv.seen.map((s) => s.path),
        ['/always'],
      );
      assert.deepStrictEqual(lines, [`debug: notification: wait not sent in the quiet hours of webhook ${new URL(srv.url).host}`]);
      assert.deepStrictEqual(await fan.test(), []);
      assert.strictEqual(srv.seen.length, 3, 'a test message goes on every channel, quiet or not');
      now = local(7, 0, 16).getTime();
      fan.notify({ ...wait, id: 'w2' });
      await fan.settled();
      assert.deepStrictEqual(
        srv.seen
          .slice(3)
          .map((s) => s.path)
          .sort(),
        ['/always', '/night'],
      );
    } finally {
      fan.dispose();
      await srv.close();
    }
  });
});
