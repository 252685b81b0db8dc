import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { logTo } from '../../../src/common/log';
import { ChannelSchema } from '../../../src/notify/config';
import { bodyMarkup, desktopArgv, gvariant, toastScript } from '../../../src/notify/desktop';
import { NotifyFanout } from '../../../src/notify/fanout';
import type { NotifyEvent } from '../../../src/notify/message';
import { type DesktopServer, haveDesktopServer, startDesktopServer } from './desktopServer';

const HOSTILE = { title: `it's "quoted" $(rm -rf ~) \`x\` 中文 ✓`, body: `line 1\nline 2 'a' "b" & <c> %PATH% ‘smart’` };
const has =
  (...programs: string[]) =>
  (p: string) =>
    programs.includes(p);

/**
 * A real notification server (Xvfb, D-Bus, dunst) for the suite it is called in: started before its tests, stopped
 * after. CI installs them (.ci/run); elsewhere the suite is skipped unless AGENT_LENS_REQUIRE_DESKTOP=1
 * (apt-get install xvfb dunst libnotify-bin dbus).
 */
function realDesktopServer(): () => DesktopServer {
  let server: DesktopServer | undefined;
  before(async function () {
    if (!haveDesktopServer()) {
      if (process.env.AGENT_LENS_REQUIRE_DESKTOP === '1') throw new Error('Xvfb, dunst or dbus-daemon is missing');
      this.skip();
    }
    server = await startDesktopServer();
  });
  after(async () => server?.stop());
  return () => server!;
}

describe('desktop notifications: the command each platform runs', () => {
  it("Linux: notify-send with the texts as its last arguments, after --; the body's markup characters as entities", () => {
    assert.deepStrictEqual(desktopArgv('linux', HOSTILE, { has: has('notify-send'), sound: false }), [
      'notify-send',
      '--app-name=Agent Lens',
      '--urgency=normal',
      '--',
      HOSTILE.title,
      `line 1\nline 2 'a' "b" &amp; &lt;c&gt; %PATH% ‘smart’`,
    ]);
  });

  it('Linux without libnotify: gdbus to the freedesktop service, every text a GVariant string', () => {
    const argv = desktopArgv('linux', HOSTILE, { has: has(), sound: true })!;
    assert.strictEqual(argv[0], 'gdbus');
    assert.strictEqual(argv[9], gvariant(HOSTILE.title));
    assert.strictEqual(argv[10], gvariant(bodyMarkup(HOSTILE.body)));
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

  it('a click URI: notify-send reports the click (only where it takes --action), terminal-notifier opens it, a toast launches it', () => {
    const CLICK = 'vscode://agent-lens.agent-lens/show-terminal?id=term-1&x=\'"<>';
    const t = { ...HOSTILE, click: CLICK };
    const linux = desktopArgv('linux', t, { has: has('notify-send'), sound: false, actions: true })!;
    assert.deepStrictEqual(linux.slice(3, 5), ['--action=default=Show terminal', '--']);
    assert.ok(!linux.includes(CLICK), 'the URI itself is not on notify-send’s command line');
    const old = desktopArgv('linux', t, { has: has('notify-send'), sound: false, actions: false })!;
    assert.ok(!old.some((a) => a.startsWith('--action')), 'an older notify-send would refuse --action');
    const tn = desktopArgv('darwin', t, { has: has('terminal-notifier'), sound: false })!;
    assert.deepStrictEqual(tn.slice(7), ['-open', CLICK]);
    const script = toastScript(t, { sound: false });
    assert.ok(
      script.includes(
        `$launch = [System.Security.SecurityElement]::Escape('vscode://agent-lens.agent-lens/show-terminal?id=term-1&x=''"<>')`,
      ),
    );
    assert.ok(script.includes(`activationType='protocol' launch='$launch'`));
    assert.ok(toastScript(HOSTILE, { sound: false }).includes(`Escape('')`), 'no click URI: an empty launch, no activation');
  });

  it('no other platform has one', () => {
    assert.strictEqual(desktopArgv('freebsd', HOSTILE, { has: has('notify-send'), sound: false }), undefined);
  });
});

describe('desktop notifications on a real notification server (Xvfb, D-Bus, dunst)', function () {
  this.timeout(30_000);
  const desktop = realDesktopServer();

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
      { env: desktop().env, platform: 'linux' },
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
          env: { ...desktop().env, PATH: onlyGdbus },
          platform: 'linux',
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
      shown = desktop().history();
    }
    assert.deepStrictEqual(shown.map((n) => [n.appname, n.summary, n.body]).sort(), [
      ['Agent Lens', 'Claude Code needs you: waiting for an answer', 'in it\'s "mine" 中文, for 15s'],
      ['Agent Lens', 'Claude Code needs you: waiting for approval', 'in it\'s "mine" 中文, for 15s'],
    ]);
  });
});

describe('desktop notifications: markup in outside text stays text on a real server', function () {
  this.timeout(30_000);
  const desktop = realDesktopServer();

  it('a terminal named with <i>, <u> and <a href> shows those characters, not italics, underline or a link', async () => {
    const fan = new NotifyFanout(
      [ChannelSchema.parse({ kind: 'desktop', minIntervalSeconds: 0 })],
      logTo(() => undefined),
      {
        env: desktop().env,
        platform: 'linux',
      },
    );
    fan.notify({
      kind: 'wait',
      id: 'w-markup',
      agent: 'codex',
      terminal: '<i>ops</i> & <u>x</u> <a href="https://evil.example/">click</a>',
      waitKind: 'permission',
      openedAt: 0,
      at: 15_000,
    });
    await fan.settled();
    let shown: ReturnType<DesktopServer['history']> = [];
    for (let i = 0; i < 40 && !shown.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      shown = desktop().history();
    }
    assert.strictEqual(shown.length, 1);
    // What dunst draws (Pango markup): its own bold summary, then the body with every < as an entity, so no tag.
    const [bold, ...rest] = shown[0].message.split('\n');
    assert.strictEqual(bold, '<b>Codex needs you: waiting for approval</b>');
    assert.doesNotMatch(rest.join('\n'), /</, shown[0].message);
    assert.match(rest.join('\n'), /&lt;i&gt;ops&lt;\/i&gt; &amp; &lt;u&gt;x/);
  });
});

describe('desktop notifications: a click on a real server (Xvfb, D-Bus, dunst)', function () {
  this.timeout(30_000);
  const desktop = realDesktopServer();

  it('clicking the notification (dunst’s default action) hands its URI to the window, once', async () => {
    const clicked: string[] = [];
    const fan = new NotifyFanout(
      [ChannelSchema.parse({ kind: 'desktop', minIntervalSeconds: 0 })],
      logTo(() => undefined),
      {
        env: desktop().env,
        platform: 'linux',
        onClick: (uri) => clicked.push(uri),
      },
    );
    const click = 'vscode://agent-lens.agent-lens/show-terminal?id=term-42';
    fan.notify({
      kind: 'wait',
      id: 'w-click',
      agent: 'claude-code',
      terminal: 'api',
      waitKind: 'permission',
      openedAt: 0,
      at: 15_000,
      click,
    });
    await fan.settled();
    for (let i = 0; i < 40 && desktop().count() < 1; i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepStrictEqual(clicked, [], 'nothing before the click');
    const r = spawnSync('dunstctl', ['action', '0'], { env: desktop().env, encoding: 'utf8' });
    assert.strictEqual(r.status, 0, r.stderr);
    for (let i = 0; i < 40 && !clicked.length; i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepStrictEqual(clicked, [click]);
    fan.dispose();
  });
});
