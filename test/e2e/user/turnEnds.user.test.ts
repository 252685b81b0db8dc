import * as assert from 'assert';
import type { DesktopServer } from '../../unit/notify/desktopServer';
import { recordingServer } from '../../unit/notify/loopback';
import type { UserMachine } from './agents';
import { addNtfyChannel } from './notifySetup';
import { sleep, waitUntil, type Workbench } from './workbench';
import { type DesktopUser, desktopUser } from './desktopUser';

/**
 * "Tell me when it's done": a user asked to hear of long turns that end (`agentLens.notifications.turnEnded:
 * all`, the 60-s threshold left at its default) in the window and on the desktop (`desktop: on`, as in
 * desktop.user.test.ts: code-server has the DISPLAY and the D-Bus session of a real notification server), and
 * added their phone (an ntfy topic on a loopback server that records each request) for dialogs only. A turn of
 * about 66 s completes while they look at another browser tab: one desktop notification, and nothing on the phone.
 */
describe('a user away from the window hears of a long turn only where they asked to', function () {
  this.timeout(900_000);
  const TERMINAL = 'api-agent';
  const TURN_MS = 66_000;
  let desk: DesktopServer | undefined;
  let phone: Awaited<ReturnType<typeof recordingServer>> | undefined;
  let m: UserMachine;
  let wb: Workbench;

  let user: DesktopUser | undefined;
  before(async function () {
    user = await desktopUser(this, 'turn-ends', { 'agentLens.notifications.desktop': 'on', 'agentLens.notifications.turnEnded': 'all' });
    if (!user) return;
    ({ desk, m, wb } = user);
    phone = await recordingServer();
  });
  after(async () => {
    await phone?.close();
    await user?.close();
  });

  it('adds the phone for dialogs only from Configure Notifications…, and its test push arrives', async () => {
    const topic = `${phone!.url}/agent-lens-e2e`;
    const added = await addNtfyChannel(wb, topic, phone!.seen);
    console.log(`      events offered: ${JSON.stringify(added.events)}`);
    console.log(`      the new channel: ${added.channelLine}; notice: ${added.notice}`);
    const { method, path, body } = added.test;
    console.log(`      test push: ${method} ${path} ${body}`);
    assert.strictEqual(method, 'POST');
    assert.strictEqual(path, '/');
    const sent = JSON.parse(body) as { topic: string; title: string };
    assert.strictEqual(sent.topic, 'agent-lens-e2e');
    assert.strictEqual(sent.title, 'Agent Lens: test notification');
    assert.strictEqual(phone!.seen.length, 1, 'one request: the test push');
    assert.match(added.channelLine, /a dialog left open/);
    assert.doesNotMatch(added.channelLine, /long turn|ends with a question/);
    assert.match(added.notice, /Test notification sent on 1 channel/);
  });

  /** The rows at rest after a turn, with when each was first seen; and when the desktop's count first grew. */
  const watchEnd = async (deskBefore: number) => {
    let rest: { aria: string; at: number } | undefined;
    let notifiedAt: number | undefined;
    await waitUntil(
      'the turn to end and a desktop notification',
      async () => {
        const row = rest
          ? undefined
          : (await wb.rows()).find((r) => r.aria.startsWith(`${TERMINAL}: Claude Code · `) && !/working/.test(r.aria));
        if (row) rest = { aria: row.aria, at: Date.now() };
        if (notifiedAt === undefined && desk!.count() > deskBefore) notifiedAt = Date.now();
        return rest !== undefined && notifiedAt !== undefined;
      },
      TURN_MS + 90_000,
      () => `row at rest: ${JSON.stringify(rest)}; desktop notified: ${notifiedAt !== undefined}`,
    );
    return { rest: rest!, notifiedAt: notifiedAt! };
  };

  /** The window's own notice of the turn, read from the page while the user is still away. */
  const checkWindowToast = async () => {
    const toast = await wb.waitToast('the turn notice in the window', (t) => /after .* of work/.test(t.text), 10_000);
    console.log(`      in the window: ${toast.severity}: ${toast.text} [${toast.buttons.join(', ')}]`);
    assert.strictEqual(toast.severity, 'info');
    assert.match(toast.text, new RegExp(`Claude Code in “${TERMINAL}”: completed after 1m \\d+s of work\\.`));
  };

  it('a 66-s turn that completes while away: one desktop notification, nothing on the phone (not opted in)', async () => {
    const deskBefore = desk!.count();
    const pushesBefore = phone!.seen.length;
    await wb.newTerminal();
    await wb.renameTerminal(TERMINAL);
    await wb.typeInTerminal('claude');
    await wb.waitRow('Claude Code idle', (r) => r.aria.startsWith(`${TERMINAL}: Claude Code · idle`), 60_000);
    await sleep(2500);
    await wb.clearToasts().catch(() => undefined);
    const lines = Array.from({ length: 60 }, (_, i) => `Migration step ${i + 1} done.\n`).join('');
    m.mocks.claude.setScript({ title: 'Migrate', turns: [{ type: 'text', text: lines, chunks: 'lines', durationMs: TURN_MS }] });
    await wb.typeInTerminal('migrate the database schema');
    const typedAt = Date.now();
    await wb.waitRow('Claude Code working', (r) => r.aria.startsWith(`${TERMINAL}: Claude Code · working`), 30_000);
    await wb.focus.lookAway();
    const awayAt = Date.now();
    assert.deepStrictEqual(await wb.focus.windowFocus(), { page: false, titlebar: 'inactive' });
    console.log(`      looked away ${((awayAt - typedAt) / 1000).toFixed(1)} s after the prompt was sent`);
    const { rest, notifiedAt } = await watchEnd(deskBefore);
    console.log(`      the row at rest ${((rest.at - typedAt) / 1000).toFixed(1)} s after the prompt: ${rest.aria}`);
    console.log(`      desktop notification ${((notifiedAt - rest.at) / 1000).toFixed(1)} s after the row turned completed`);
    assert.match(rest.aria, /Claude Code · completed/);
    assert.ok(notifiedAt - rest.at < 5000, 'the desktop notification within 5 s of the row turning completed');
    await checkWindowToast();
    // Anything else would come at once: the desktop and the phone are given 20 s more.
    await sleep(20_000);
    assert.strictEqual(desk!.count() - deskBefore, 1, 'exactly one desktop notification for the turn');
    const [n] = desk!.history();
    console.log(`      dunst: ${JSON.stringify(n)}`);
    assert.strictEqual(n.appname, 'Agent Lens');
    assert.strictEqual(n.summary, 'Claude Code: turn completed');
    assert.match(n.body, /after 1m \d+s of work/);
    assert.ok(n.body.includes(TERMINAL), `the notification names the terminal ${TERMINAL}`);
    const extra = phone!.seen.slice(pushesBefore);
    console.log(`      phone: ${extra.length} request(s) since the test push`);
    assert.deepStrictEqual(
      extra.map((s) => `${s.method} ${s.path} ${s.body}`),
      [],
      'nothing on the phone: its channel did not opt in to turn ends',
    );
    await wb.focus.lookBack();
  });
});
