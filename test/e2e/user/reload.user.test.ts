import * as assert from 'assert';
import { CREATE_NOTES, userMachine, type UserMachine } from './agents';
import { sleep, waitUntil, Workbench } from './workbench';

/**
 * Reload Window with VS Code's default persistent terminal sessions: the terminals come back with their agents
 * still running, and Agent Lens must find them again — the rows with their names, the state, a dialog that was
 * waiting (under Needs you, and notified by the same 15-s rule), and a question asked after the reload.
 */
describe('a user reloads the window while agents run', function () {
  this.timeout(900_000);
  let m: UserMachine;
  let wb: Workbench;

  before(async () => {
    m = await userMachine('reload');
    wb = await Workbench.start({ name: 'reload', home: m.home, workspace: m.workspace, env: m.env });
    await wb.installHooks();
  });
  after(async () => {
    await wb?.close();
    await m?.dispose();
  });

  const long = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}.\n`).join('');

  it('Claude streaming and OpenCode at its prompt are both found again after Reload Window', async () => {
    m.mocks.opencode.setScript({ title: 'Hello', turns: [{ type: 'text', text: 'Hello from OpenCode.\n' }] });
    await wb.newTerminal();
    await wb.typeInTerminal('opencode');
    await wb.waitRow('OpenCode idle', (r) => /OpenCode · idle/.test(r.aria), 60_000);
    m.mocks.claude.setScript({
      title: 'Long answer',
      turns: [{ type: 'text', text: long('Long', 90), chunks: 'lines', durationMs: 90_000 }],
    });
    await wb.newTerminal();
    await wb.typeInTerminal('claude');
    await wb.waitRow('Claude Code idle', (r) => /Claude Code · idle/.test(r.aria), 60_000);
    await sleep(2500);
    await wb.typeInTerminal('write a long answer');
    await wb.waitRow('Claude Code working', (r) => /Claude Code · working/.test(r.aria), 30_000);
    await wb.waitTerminalText(/Long line 3\./, 30_000);
    await wb.screenshot('before-reload');
    await wb.reload();
    const claude = await wb.waitRow('Claude Code working after the reload', (r) => /Claude Code · working/.test(r.aria), 30_000);
    const opencode = await wb.waitRow('OpenCode after the reload', (r) => /OpenCode/.test(r.aria), 30_000);
    await wb.screenshot('after-reload');
    for (const r of [claude, opencode]) assert.doesNotMatch(r.aria, /^: /, `every row has a name: ${r.aria}`);
    await wb.waitRow('Claude Code at rest when its answer ends', (r) => /Claude Code · (completed|stopped|idle)/.test(r.aria), 120_000);
  });

  it('a permission dialog open at the reload is back under Needs you and notified', async () => {
    m.mocks.claude.setScript(CREATE_NOTES);
    await wb.clickRow(/Claude Code/);
    await sleep(500);
    await wb.typeInTerminal('create the notes file');
    await wb.waitRow('the approval under Needs you', (r) => /Claude Code · waiting for approval/.test(r.aria), 60_000);
    const opened = Date.now();
    await wb.reload();
    await wb.waitRow('the approval under Needs you after the reload', (r) => /Claude Code · waiting for approval/.test(r.aria), 30_000);
    await wb.newTerminal(); // looking elsewhere: the wait is notified 15 s after the dialog appeared
    const toast = await wb.waitToast('the notification', (t) => /waiting for approval/.test(t.text), 40_000);
    const after = (Date.now() - opened) / 1000;
    console.log(`      notified ${after.toFixed(1)} s after the dialog appeared (reload included)`);
    assert.match(toast.text, /Claude Code/);
    // The row's click shows the terminal with the keyboard in it (clicked again if the busy workbench, a toast just
    // shown, did not act on it); the user then answers the dialog there.
    await wb.clickRowToTerminal(/Claude Code · waiting for approval/);
    await sleep(300);
    await wb.press('Enter');
    await wb.waitRow('Claude at rest after the approval', (r) => /Claude Code · (completed|stopped|idle)/.test(r.aria), 60_000);
  });

  it('a question Claude asks after a reload appears under Needs you', async () => {
    await wb.reload();
    await wb.waitRow('Claude Code after the reload', (r) => /Claude Code/.test(r.aria), 30_000);
    m.mocks.claude.setScript({
      title: 'Format',
      turns: [{ type: 'text', text: 'I can write it as JSON or YAML.\n\nWhich format do you want?\n', chunks: 'lines' }],
    });
    await wb.clickRow(/Claude Code/);
    await sleep(500);
    await wb.typeInTerminal('write the config');
    await wb.waitRow('the question under Needs you', (r) => /Claude Code · asked a question/.test(r.aria), 60_000);
    await waitUntil('the badge', async () => (await wb.statusItems()).some((s) => /1 waiting/.test(s)), 10_000);
  });
});
