import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { allowedUrl, parseNotifySettings, readNotifyFile } from '../../../src/notify/config';

describe('notification settings (agent-lens serve --notify FILE)', () => {
  it('reads the example of the documentation, with every default filled in', () => {
    const s = parseNotifySettings(
      JSON.stringify({
        delaySeconds: 15,
        channels: [
          { kind: 'ntfy', url: 'https://ntfy.sh/TOPIC', token: 'tk_x', details: false },
          { kind: 'webhook', url: 'https://hooks.slack.com/services/T/B/X', format: 'slack' },
          { kind: 'command', argv: ['notify-send', 'Agent Lens'] },
        ],
      }),
      'n.json',
    );
    assert.strictEqual(s.turnSeconds, 60);
    assert.deepStrictEqual(
      s.channels.map((c) => [c.kind, c.events, c.minIntervalSeconds, c.details]),
      [
        ['ntfy', ['wait'], 30, false],
        ['webhook', ['wait'], 30, false],
        ['command', ['wait'], 30, false],
      ],
    );
  });

  it('names the field that is wrong', () => {
    const bad = (o: unknown) =>
      assert.throws(
        () => parseNotifySettings(JSON.stringify(o), 'n.json'),
        (e: Error) => (void assert.match(e.message, /^n\.json: /), true),
      );
    bad({ channels: [{ kind: 'ntfy', url: 'http://ntfy.example.com/t' }] });
    assert.throws(
      () => parseNotifySettings('{"channels":[{"kind":"ntfy","url":"http://ntfy.example.com/t"}]}', 'n.json'),
      /channels\.0\.url must be https/,
    );
    assert.throws(() => parseNotifySettings('{"channels":[{"kind":"ntfy","url":"https://ntfy.sh/"}]}', 'n.json'), /must end in the topic/);
    assert.throws(
      () => parseNotifySettings('{"channels":[{"kind":"command","argv":[]}]}', 'n.json'),
      /channels\.0\.argv needs the program/,
    );
    assert.throws(() => parseNotifySettings('{"channels":[{"kind":"pager"}]}', 'n.json'), /channels\.0\.kind/);
    assert.throws(() => parseNotifySettings('{', 'n.json'), /n\.json: not JSON/);
  });

  it('https everywhere; plain http to this machine only', () => {
    assert.deepStrictEqual(
      [
        'https://ntfy.sh/t',
        'http://127.0.0.1:8080/t',
        'http://localhost/t',
        'http://[::1]:1/t',
        'http://ntfy.sh/t',
        'http://127.0.0.1.evil.com/t',
        'file:///etc/passwd',
        'nonsense',
        'https://user:tk_secret@ntfy.sh/t',
      ].map(allowedUrl),
      [true, true, true, true, false, false, false, false, false],
      'a user:password in the address is refused: fetch would quote it in its errors',
    );
    assert.throws(
      () => parseNotifySettings('{"channels":[{"kind":"ntfy","url":"https://ntfy.sh/t","token":tk_secret_1234}]}', 'n.json'),
      (e: Error) => (
        void assert.doesNotMatch(e.message, /tk_secret|secret_1234/),
        void assert.match(e.message, /^n\.json: not JSON/),
        true
      ),
      'a JSON error does not quote the text around it (it holds the token)',
    );
  });

  it('refuses a file others may read (it holds tokens) and names the fix', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-notify-'));
    try {
      const f = path.join(dir, 'notify.json');
      fs.writeFileSync(f, '{"channels":[]}', { mode: 0o644 });
      fs.chmodSync(f, 0o644);
      assert.throws(() => readNotifyFile(f), new RegExp(`chmod 600 ${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      fs.chmodSync(f, 0o600);
      assert.deepStrictEqual(readNotifyFile(f).channels, []);
      assert.throws(() => readNotifyFile(dir), /is not a file/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
