import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { logTo } from '../../../src/common/log';
import { ChannelSchema } from '../../../src/notify/config';
import { desktopArgv, gvariant, toastScript } from '../../../src/notify/desktop';
import { NotifyFanout } from '../../../src/notify/fanout';
import type { NotifyEvent } from '../../../src/notify/message';
import { type DesktopServer, haveDesktopServer, startDesktopServer } from './desktopServer';

const HOSTILE = { title: `it's "quoted" $(rm -rf ~) \`x\` 中文 ✓`, body: `line 1\nline 2 'a' "b" & <c> %PATH% ‘smart’` };
const has =
  (...programs: string[]) =>
  (p: string) =>
    programs.includes(p);

describe('desktop notifications: the command each platform runs', () => {
  it('Linux: notify-send with the texts as its last arguments, after --', () => {
    assert.deepStrictEqual(desktopArgv('linux', HOSTILE, { has: has('notify-send'), sound: false }), [
      'notify-send',
      '--app-name=Agent Lens',
      '--urgency=normal',
      '--',
      HOSTILE.title,
      HOSTILE.body,
    ]);
  });

  it('Linux without libnotify: gdbus to the freedesktop service, every text a GVariant string', () => {
    const argv = desktopArgv('linux', HOSTILE, { has: has(), sound: true })!;
    assert.strictEqual(argv[0], 'gdbus');
    assert.strictEqual(argv[9], gvariant(HOSTILE.title));
    assert.strictEqual(gvariant(`a'b\\c`), `'a\\'b\\\\c'`);
    assert.match(argv[12], /sound-name/);
  });

  it('macOS: terminal-notifier activates VS Code on a click; osascript reads the texts from its argv, not its script', () => {
    const tn = desktopArgv('darwin', HOSTILE, { has: has('terminal-notifier'), sound: false })!;
    assert.deepStrictEqual(tn.slice(0, 7), [
      'terminal-notifier',
      '-title',
      'Agent Lens',
      '-subtitle',
      HOSTILE.title,
      '-message',
      HOSTILE.body,
    ]);
    assert.deepStrictEqual(tn.slice(7), ['-activate', 'com.microsoft.VSCode']);
    const osa = desktopArgv('darwin', HOSTILE, { has: has(), sound: false })!;
    assert.deepStrictEqual(osa.slice(-2), [HOSTILE.title, HOSTILE.body]);
    assert.ok(!osa.slice(0, -2).some((a) => a.includes('quoted') || a.includes('line 1')), 'no text inside the AppleScript');
  });

  it('Windows: an encoded PowerShell script (no command-line quoting), quotes doubled, XML escaped at run time', () => {
    const argv = desktopArgv('win32', HOSTILE, { has: has(), sound: false })!;
    assert.deepStrictEqual(argv.slice(0, 6), [
      'powershell.exe',
      '-NoProfile',
      '-NonInteractive',
      '-ExecutionPolicy',
      'Bypass',
      '-EncodedCommand',
    ]);
    const script = Buffer.from(argv[6], 'base64').toString('utf16le');
    assert.strictEqual(script, toastScript(HOSTILE, { sound: false }));
    assert.ok(script.includes(`$title = [System.Security.SecurityElement]::Escape('it''s "quoted" $(rm -rf ~) \`x\` 中文 ✓')`), script);
    assert.ok(script.includes(`''a'' "b" & <c> %PATH% ‘‘smart’’`), 'every single quote, smart ones too, is doubled');
    assert.ok(!/wmic/i.test(script));
  });

  it('no other platform has one', () => {
    assert.strictEqual(desktopArgv('freebsd', HOSTILE, { has: has('notify-send'), sound: false }), undefined);
  });
});

describe('desktop notifications on a real notification server (Xvfb, D-Bus, dunst)', function () {
  this.timeout(30_000);
  let server: DesktopServer | undefined;
  before(async function () {
    if (!haveDesktopServer()) {
      // CI installs them (.ci/run); elsewhere this part needs: apt-get install xvfb dunst libnotify-bin dbus
      if (process.env.AGENT_LENS_REQUIRE_DESKTOP === '1') throw new Error('Xvfb, dunst or dbus-daemon is missing');
      this.skip();
    }
    server = await startDesktopServer();
  });
  after(async () => server?.stop());

  const wait: NotifyEvent = {
    kind: 'wait',
    id: 'w-1',
    agent: 'claude-code',
    terminal: 'it\'s "mine" 中文',
    waitKind: 'permission',
    openedAt: 0,
    at: 15_000,
  };

  it('through notify-send, and through gdbus where libnotify is missing: dunst shows the title and the body as sent', async () => {
    const fan = new NotifyFanout(
      [ChannelSchema.parse({ kind: 'desktop', minIntervalSeconds: 0 })],
      logTo(() => undefined),
      { env: server!.env },
    );
    fan.notify(wait);
    await fan.settled();
    const onlyGdbus = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-gdbus-'));
    try {
      fs.symlinkSync('/usr/bin/gdbus', path.join(onlyGdbus, 'gdbus'));
      const viaGdbus = new NotifyFanout(
        [ChannelSchema.parse({ kind: 'desktop', minIntervalSeconds: 0 })],
        logTo(() => undefined),
        {
          env: { ...server!.env, PATH: onlyGdbus },
        },
      );
      viaGdbus.notify({ ...wait, id: 'w-2', waitKind: 'question' });
      await viaGdbus.settled();
    } finally {
      fs.rmSync(onlyGdbus, { recursive: true, force: true });
    }
    let shown: ReturnType<DesktopServer['history']> = [];
    for (let i = 0; i < 40 && shown.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 100));
      shown = server!.history();
    }
    assert.deepStrictEqual(shown.map((n) => [n.appname, n.summary, n.body]).sort(), [
      ['Agent Lens', 'Claude Code needs you: waiting for an answer', 'in it\'s "mine" 中文, for 15s'],
      ['Agent Lens', 'Claude Code needs you: waiting for approval', 'in it\'s "mine" 中文, for 15s'],
    ]);
  });
});
