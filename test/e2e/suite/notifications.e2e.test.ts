import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { recordingServer } from '../../unit/notify/loopback';
import { answer, placeholder, within } from './walkthroughDriver';
import { api, QUICK_INPUT, QUICK_INPUT_FIELD, ROOT, shellTerminal, sleep, ui, UI_DRIVER, waitFor, waitState } from './util';

const FAKE_BIN = path.join(ROOT, 'test', 'e2e', 'fake-agent');
const rec = (agent: string, scenario: string) => path.join(ROOT, 'test', 'fixtures', 'recordings', agent, scenario, 'session.cast');
const TOKEN = 'tk_e2e_SECRET_9f2';

/** Every file below `dir` whose bytes hold `needle` (the user's settings, the logs, state). */
function filesHolding(dir: string, needle: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && fs.statSync(p).size < 20_000_000 && fs.readFileSync(p).includes(needle)) out.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

/**
 * *Configure Notifications…* as a user runs it: an ntfy channel added through the quick pick and input boxes, its
 * test push received by a loopback server speaking ntfy's publish API, the token nowhere but in the secret
 * storage; then a dialog left open in a terminal not looked at reaches the phone channel once.
 */
describe('notifications to a phone channel, configured from the palette', function () {
  this.timeout(180_000);

  it('adds an ntfy channel, sends its test, and pushes a dialog left open once, with no command text', async function () {
    if (!UI_DRIVER) this.skip();
    const a = await api();
    const server = await recordingServer();
    const topic = `${server.url}/agents-e2e`;
    const run = Promise.resolve(vscode.commands.executeCommand('agentLens.configureNotifications'));
    await ui('notify-add-ntfy', {
      actions: [
        ...answer({ hasText: 'Configure Notifications', text: 'Add ntfy' }),
        ...answer({ field: placeholder('https://ntfy.sh/TOPIC'), text: topic }),
        ...answer({ hasText: 'access token', text: TOKEN }),
        // The events: "a dialog left open" comes ticked; accept.
        ...answer({ hasText: 'Notify this channel of' }),
        { waitFor: QUICK_INPUT, hasText: 'ntfy: 127.0.0.1' },
      ],
      shot: false,
    });
    await ui('notify-configure', { clip: QUICK_INPUT, pad: 8, after: [{ press: 'Escape', selector: QUICK_INPUT_FIELD }] });
    await within(run, 30_000, 'Configure Notifications to close');
    const test = await waitFor('the test push', () => server.seen[0], 15_000);
    assert.strictEqual(test.method, 'POST');
    assert.strictEqual(test.path, '/');
    assert.strictEqual(test.headers.authorization, `Bearer ${TOKEN}`);
    assert.strictEqual(test.headers['content-type'], 'application/json');
    const body = JSON.parse(test.body) as { topic: string; title: string };
    assert.deepStrictEqual([body.topic, body.title], ['agents-e2e', 'Agent Lens: test notification']);

    // A permission dialog in a terminal the user is not looking at: one push after the (shortened) delay.
    await vscode.workspace.getConfiguration('agentLens').update('notifications.delaySeconds', 2, vscode.ConfigurationTarget.Global);
    const t = await shellTerminal('phone claude', {
      PATH: `${FAKE_BIN}:${process.env.PATH}`,
      AGENT_LENS_FAKE_CAST: rec('claude-code', '04-bash-permission-approve'),
    });
    const other = await shellTerminal('elsewhere');
    other.show();
    t.shellIntegration!.executeCommand('claude');
    const waiting = await waitState(a, t, 'claude-code', 'waiting', 30_000);
    const opened = Date.now();
    const push = await waitFor('the push for the dialog', () => server.seen.find((s) => s !== test), 15_000, 50);
    console.log(`      push received ${((Date.now() - opened) / 1000).toFixed(1)} s after the dialog was seen (delay 2 s)`);
    const p = JSON.parse(push.body) as { title: string; message: string; tags: string[] };
    assert.match(p.title, /^Claude Code needs you/);
    assert.match(p.message, /phone claude/);
    assert.doesNotMatch(push.body, /rm -rf|touch|npm|Bash:/, 'details are off: no command text leaves the machine');
    assert.deepStrictEqual(p.tags, ['bell']);
    await sleep(3000);
    assert.strictEqual(server.seen.length, 2, `one push per wait: ${server.seen.map((s) => s.body).join('\n')}`);
    // The screen may read the dialog as a generic prompt before its permission hint settles: either is a dialog.
    assert.match(waiting.waitKind ?? '', /^(permission|prompt)$/);

    // The token is in no settings file and no log line.
    const userData = path.join(path.dirname(process.env.HOME ?? ''), 'user-data');
    const settings = path.join(userData, 'User', 'settings.json');
    assert.ok(fs.existsSync(settings), `the user settings are at ${settings}`);
    assert.doesNotMatch(fs.readFileSync(settings, 'utf8'), /tk_e2e|agents-e2e/);
    assert.deepStrictEqual(filesHolding(path.join(userData, 'logs'), TOKEN), [], 'the token is in no log');

    await removeChannel();
    await vscode.workspace.getConfiguration('agentLens').update('notifications.delaySeconds', undefined, vscode.ConfigurationTarget.Global);
    t.dispose();
    other.dispose();
    await server.close();
  });
});

/** Removes the channel again, through the same quick picks. */
async function removeChannel(): Promise<void> {
  const run = Promise.resolve(vscode.commands.executeCommand('agentLens.configureNotifications'));
  await ui('notify-remove-ntfy', {
    actions: [
      ...answer({ hasText: 'Configure Notifications', text: 'ntfy: 127.0.0.1' }),
      ...answer({ hasText: 'Notification channel', text: 'Remove this channel' }),
      { waitFor: QUICK_INPUT, hasText: 'Add ntfy' },
    ],
    shot: false,
    after: [{ press: 'Escape', selector: QUICK_INPUT_FIELD }],
  });
  await within(run, 30_000, 'Configure Notifications to close');
}
