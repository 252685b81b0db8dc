import * as assert from 'assert';
import {
  channelWhere,
  makeChannel,
  parseArgv,
  parseChannelList,
  parseQuietHours,
  serializeChannelList,
} from '../../../src/notify/channelList';
import { channelPick, topPicks } from '../../../src/notify/channelPicks';

describe('the phone and chat channels kept in secret storage', () => {
  const ntfy = makeChannel({ kind: 'ntfy', url: 'https://ntfy.sh/agents-7f3c', token: 'tk_SECRET', events: ['wait', 'turn-failed'] });
  const slack = makeChannel({ kind: 'webhook', format: 'slack', url: 'https://hooks.slack.com/services/T0/B0/SECRETPATH' });
  const cmd = makeChannel({ kind: 'command', argv: ['/usr/local/bin/notify-me', '--quiet'] });

  it('round-trips every channel with its secrets and defaults', () => {
    const back = parseChannelList(serializeChannelList([ntfy, slack, cmd]));
    assert.deepStrictEqual(back, [ntfy, slack, cmd]);
    assert.strictEqual(back[0].kind === 'ntfy' && back[0].token, 'tk_SECRET');
    assert.deepStrictEqual(
      back.map((c) => [c.events, c.minIntervalSeconds, c.details]),
      [
        [['wait', 'turn-failed'], 30, false],
        [['wait'], 30, false],
        [['wait'], 30, false],
      ],
    );
  });

  it('nothing stored is no channel; a stored value that does not parse is an error that says where', () => {
    assert.deepStrictEqual(parseChannelList(undefined), []);
    assert.throws(() => parseChannelList('{'), /not JSON.*Configure Notifications/);
    assert.throws(
      () => parseChannelList(JSON.stringify({ version: 1, channels: [{ kind: 'ntfy', url: 'http://ntfy.example.com/t' }] })),
      /channels\.0\.url must be https/,
    );
    assert.throws(
      () => parseChannelList(JSON.stringify({ version: 1, channels: [{ kind: 'desktop' }] })),
      /desktop is set in the settings/,
    );
    assert.throws(() => parseChannelList(JSON.stringify({ version: 2, channels: [] })), /version/);
  });

  it('a new channel from what was typed: refused with the field named', () => {
    assert.throws(() => makeChannel({ kind: 'ntfy', url: 'https://ntfy.sh/' }), /url must end in the topic/);
    assert.throws(() => makeChannel({ kind: 'webhook', url: 'http://example.com/hook' }), /url must be https/);
    assert.throws(() => makeChannel({ kind: 'command', argv: [] }), /argv needs the program to run/);
    assert.strictEqual(makeChannel({ kind: 'webhook', url: 'http://127.0.0.1:9/x' }).kind, 'webhook');
  });

  it('a list shows where a channel sends, never a token or a webhook path', () => {
    assert.strictEqual(channelWhere(ntfy), 'ntfy.sh/agents-7f3c');
    assert.strictEqual(channelWhere(slack), 'hooks.slack.com');
    assert.strictEqual(channelWhere(cmd), '/usr/local/bin/notify-me');
    const shown = JSON.stringify(topPicks({ windowOn: true, desktop: 'auto', turnEnds: 'off', channels: [ntfy, slack, cmd] }));
    assert.doesNotMatch(shown, /SECRET/);
    const p = channelPick(ntfy, 0);
    assert.match(p.label, /^ntfy: ntfy\.sh\/agents-7f3c$/);
    assert.match(p.detail ?? '', /dialog left open, a long turn failed/);
    assert.deepStrictEqual(p.action, { do: 'channel', index: 0 });
  });

  it('a command line: words, "quoted words" or a JSON array; never a shell', () => {
    assert.deepStrictEqual(parseArgv('notify-me --quiet'), ['notify-me', '--quiet']);
    assert.deepStrictEqual(parseArgv('"/opt/my tools/ping" -t "two words"'), ['/opt/my tools/ping', '-t', 'two words']);
    assert.deepStrictEqual(parseArgv('["a b", "$(rm -rf ~)"]'), ['a b', '$(rm -rf ~)']);
    assert.deepStrictEqual(parseArgv('echo $(id); rm'), ['echo', '$(id);', 'rm'], 'shell syntax stays words');
    assert.throws(() => parseArgv('   '), /type the program/);
    assert.throws(() => parseArgv('[1, 2]'), /JSON array of strings/);
  });

  it('quiet hours typed as from-to, wrapping midnight or not', () => {
    assert.deepStrictEqual(parseQuietHours('22:00-07:00'), { from: '22:00', to: '07:00' });
    assert.deepStrictEqual(parseQuietHours(' 9:05 - 17:30 '), { from: '09:05', to: '17:30' });
    assert.strictEqual(parseQuietHours(''), undefined);
    assert.throws(() => parseQuietHours('25:00-07:00'), /such as 22:00-07:00/);
    assert.throws(() => parseQuietHours('08:00-08:00'), /same time/);
  });
});
