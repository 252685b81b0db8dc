import * as assert from 'assert';
import { userMachine, type UserMachine } from './agents';
import { sleep, waitUntil, Workbench } from './workbench';

/**
 * A user's ordinary day with Agent Lens and the real Claude Code, driven by keys and clicks only: answering a
 * question from the inline button, Escape on the pickers, renaming a terminal, typing ahead while Claude works,
 * a mistyped agent command, and the side bar before any terminal exists.
 */
describe('a user’s day: the inline Answer button, Escape, renames, typing ahead', function () {
  this.timeout(600_000);
  let m: UserMachine;
  let wb: Workbench;

  before(async () => {
    m = await userMachine('daily');
    wb = await Workbench.start({ name: 'daily', home: m.home, workspace: m.workspace, env: m.env });
  });
  after(async () => {
    await wb?.close();
    await m?.dispose();
  });

  const claudeRow = (state: RegExp) => (r: { aria: string }) => /Claude Code/.test(r.aria) && state.test(r.aria);

  it('before the first terminal, the side bar says how to start', async () => {
    await wb.waitRow('an empty-state hint', (r) => /open a terminal/i.test(r.aria), 15_000);
  });

  it('hooks installed from the palette, as the walkthrough suggests', async () => {
    await wb.installHooks();
  });

  it('the inline Answer… button on a Needs-you row opens an input box and the answer reaches Claude', async () => {
    m.mocks.claude.setScript({
      title: 'Config format',
      turns: [
        { type: 'text', text: 'I can write the config as JSON or as YAML.\n\nWhich format do you want?\n', chunks: 'lines' },
        { type: 'text', text: 'YAML it is.\n', chunks: 'lines' },
      ],
    });
    await wb.newTerminal();
    await wb.typeInTerminal('claude');
    await wb.waitRow('Claude Code idle', claudeRow(/idle/), 60_000);
    await sleep(2500);
    await wb.typeInTerminal('write the config');
    await wb.waitRow('the question under Needs you', claudeRow(/asked a question/), 60_000);
    const q = await wb.clickRowActionToQuickInput(/asked a question/, 'Answer…', 'the answer input box', (x) => x.visible);
    assert.match(`${q.title} ${q.message}`, /Which format do you want\?/);
    await wb.answerQuickInput('YAML please');
    await waitUntil(
      'Claude to send the answer to the model',
      () => m.mocks.claude.entries.some((e) => e.kind === 'agent' && String(e.last_user ?? '').includes('YAML please')),
      30_000,
    );
    assert.ok(!(await wb.toasts()).some((t) => /no longer open/.test(t.text)), 'no "no longer open" warning');
    await wb.screenshot('answered-inline');
  });

  it('Escape on the status-bar picker and on Focus Agent Terminal… shows no warning', async () => {
    await wb.clickStatusItem('summary');
    await wb.waitQuickInput('the terminal picker', (x) => x.visible && x.items.length > 0);
    await wb.press('Escape');
    await wb.palette('Agent Lens: Focus Agent Terminal…');
    await wb.waitQuickInput('the terminal picker', (x) => x.visible && x.items.length > 0);
    await wb.press('Escape');
    await sleep(1500);
    const toasts = await wb.toasts();
    assert.ok(!toasts.some((t) => /terminal is gone/.test(t.text)), `no warning after Escape: ${JSON.stringify(toasts)}`);
  });

  it('Escape on every Agent Lens picker and input box warns nothing', async () => {
    await wb.clearToasts();
    const titles = [
      'Install Agent Hooks…',
      'Uninstall Agent Hooks…',
      'Dispatch Brief…',
      'Cancel Task…',
      'Register External Agent…',
      'Initialize Handoff Folder',
      'Open Report',
      'First Handshake',
      'Add Routing Trigger…',
      'Record Terminal to .cast',
      'Answer…',
      'Show Handoff Status',
    ];
    const opened: string[] = [];
    for (const title of titles) {
      await wb.palette(`Agent Lens: ${title}`);
      const q = await wb.waitQuickInput(`a picker or box for ${title}`, (x) => x.visible, 3000).catch(() => undefined);
      if (q) {
        opened.push(title);
        await wb.press('Escape');
        await waitUntil(`${title}'s picker to close`, async () => !(await wb.quickInput()).visible, 5000);
      }
    }
    await sleep(1000);
    const bad = (await wb.toasts()).filter((t) => t.severity !== 'info');
    console.log(`      Escape on ${opened.length} pickers and boxes: ${opened.join(', ')}`);
    assert.deepStrictEqual(bad, [], 'no warning or error after Escape');
  });

  it('a renamed terminal shows its new name in its row and in the next notification', async () => {
    await wb.renameTerminal('api-agent');
    await wb.waitRow('the row named api-agent', (r) => /^api-agent: Claude Code/.test(r.aria), 10_000);
    m.mocks.claude.setScript({
      title: 'List files',
      turns: [
        {
          type: 'tool',
          name: 'Bash',
          text: 'I will list the files.',
          input: { command: 'touch notes.txt', description: 'Create notes.txt' },
        },
        { type: 'text', text: 'Listed.\n' },
      ],
    });
    await wb.typeInTerminal('list the files');
    await wb.waitRow('the approval under Needs you', (r) => /^api-agent: Claude Code · waiting for approval/.test(r.aria), 60_000);
    await wb.newTerminal(); // the user turns to other work: Claude's terminal is no longer the focused one
    const toast = await wb.waitToast('the notification', (t) => /waiting for approval/.test(t.text), 30_000);
    assert.match(toast.text, /“api-agent”/);
    await wb.screenshot('notified-renamed');
    // Clicking the row brings Claude's terminal forward, focused: Enter approves.
    await wb.clickRowToTerminal(/^api-agent: Claude Code · waiting for approval/);
    await sleep(300);
    await wb.press('Enter');
    await wb.waitRow('Claude at rest after the approval', (r) => /^api-agent: Claude Code · (completed|stopped|idle)/.test(r.aria), 60_000);
  });

  it('a message typed while Claude works starts a turn that shows working, not completed', async () => {
    const lines = (tag: string) => Array.from({ length: 15 }, (_, i) => `${tag} line ${i + 1}.\n`).join('');
    m.mocks.claude.setScript({
      title: 'Two turns',
      turns: [
        { type: 'text', text: lines('First'), chunks: 'lines', durationMs: 12_000 },
        { type: 'text', text: lines('Second'), chunks: 'lines', durationMs: 20_000 },
      ],
    });
    await wb.typeInTerminal('first task');
    await wb.waitRow('Claude Code working', claudeRow(/working/), 30_000);
    await wb.waitTerminalText(/First line 2\./, 30_000);
    await wb.typeInTerminal('second task, typed ahead');
    await wb.waitTerminalText(/Second line 2\./, 60_000);
    const seen: string[] = [];
    for (let i = 0; i < 20; i++) {
      const row = (await wb.rows()).find((r) => /Claude Code/.test(r.aria));
      if (row) seen.push(row.aria);
      await sleep(500);
    }
    assert.ok(
      seen.length > 0 && seen.every((s) => /working/.test(s)),
      `while the queued turn streams the row says working: ${JSON.stringify(seen)}`,
    );
  });

  it('an agent command that is not found is not listed as an agent', async () => {
    await wb.newTerminal();
    await wb.typeInTerminal('PATH=/usr/bin:/bin claude');
    await wb.waitTerminalText(/command not found/, 15_000);
    await sleep(1500);
    const rows = await wb.rows();
    assert.ok(
      !rows.some((r) => /Claude Code · exited/.test(r.aria)),
      `no exited agent for a command that never ran: ${JSON.stringify(rows.map((r) => r.aria))}`,
    );
  });
});
