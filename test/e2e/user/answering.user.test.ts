import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { userMachine, type UserMachine } from './agents';
import { ASK_FRAMEWORK } from '../../../harness/scenarios/claudeCues';
import { clickModalButton, clickToastButton, clickToModal, waitModal } from './dialogs';
import { sleep, waitUntil, Workbench } from './workbench';

/**
 * A user who turned on *answer dialogs from VS Code* (their own settings) answers the real Claude Code's
 * permission dialog without going to its terminal: Allow Once on the Needs-you row (after a modal that shows the
 * whole command, whose Enter does not allow), and Deny… from the notification with a word for the model. Then the
 * real pi's extension dialog (its example permission-gate), which no hook reports: Choose… reads it off the
 * screen, a modal shows it whole, and the arrow keys and Enter pick the option in the terminal.
 */
describe('a user answers Claude Code’s permission dialogs from VS Code', function () {
  this.timeout(600_000);
  let m: UserMachine;
  let wb: Workbench;
  const claudeRow = (state: RegExp) => (r: { aria: string }) => /Claude Code/.test(r.aria) && state.test(r.aria);
  const toolResult = (needle: string) => () =>
    m.mocks.claude.entries.some((e) => e.kind === 'agent' && String(e.last_user ?? '').includes(needle));

  before(async () => {
    m = await userMachine('answering');
    wb = await Workbench.start({
      name: 'answering',
      home: m.home,
      workspace: m.workspace,
      env: m.env,
      settings: { 'agentLens.answer.fromVSCode': true },
    });
  });
  after(async () => {
    await wb?.close();
    await m?.dispose();
  });

  it('hooks installed from the palette', async () => {
    await wb.installHooks();
  });

  it('Allow Once on the row: the modal shows the whole command, Enter does not allow, the Allow button runs it', async () => {
    // A link and an icon in the text: the modal must show them as they are, neither rendered nor rewritten.
    const command = 'touch answered-from-vscode.txt && echo "made it" # see [docs](command:workbench.action.quit) $(gear)';
    m.mocks.claude.setScript({
      title: 'Marker file',
      turns: [
        { type: 'tool', name: 'Bash', text: 'I will create the marker file.', input: { command, description: 'Create the marker file' } },
        { type: 'text', text: 'Created.\n' },
      ],
    });
    await wb.newTerminal();
    await wb.typeInTerminal('claude');
    await wb.waitRow('Claude Code idle', claudeRow(/idle/), 60_000);
    await sleep(2500);
    await wb.typeInTerminal('create the marker file');
    await wb.waitRow('the approval under Needs you', claudeRow(/waiting for approval/), 60_000);
    await sleep(1500); // Allow appears a moment after the row
    await clickToModal(wb.page, 'the Allow modal', () => wb.clickRowAction(/waiting for approval/, 'Allow Once'));
    const shown = await waitModal(wb.page, 'the Allow modal', (x) => x.visible && x.detail.includes(command));
    await wb.screenshot('answer-allow-modal');
    assert.match(shown.message, /Allow Claude Code in .* to do this once\?/);
    assert.strictEqual(shown.links, 0, 'no link in the modal');
    // Enter takes the default button, which shows the terminal: nothing is allowed.
    await wb.press('Enter');
    await waitModal(wb.page, 'the modal to close', (x) => !x.visible);
    await sleep(1500);
    const marker = path.join(m.workspace, 'answered-from-vscode.txt');
    assert.ok(!fs.existsSync(marker), 'Enter on the modal allowed the command');
    await wb.waitRow('still waiting for approval', claudeRow(/waiting for approval/), 5000);
    await clickToModal(wb.page, 'the Allow modal', () => wb.clickRowAction(/waiting for approval/, 'Allow Once'));
    await waitModal(wb.page, 'the Allow modal again', (x) => x.visible);
    await clickModalButton(wb.page, 'Allow Once (Yes)');
    await waitUntil('the command to run', async () => fs.existsSync(marker), 30_000);
    await waitUntil('the model to get the tool result', async () => toolResult('made it')(), 30_000);
    await wb.waitRow('Claude at rest after the answer', claudeRow(/completed|idle/), 60_000);
    await wb.waitTerminalText(/Allowed by PermissionRequest hook/, 10_000);
    await wb.screenshot('answer-allowed');
  });

  it('Choose… on a question dialog’s row: its options in Claude’s order; the one picked reaches the model', async () => {
    m.mocks.claude.setScript({
      title: 'Pick test framework',
      turns: [
        { type: 'tool', name: 'AskUserQuestion', input: ASK_FRAMEWORK },
        { type: 'text', text: 'node:test it is.\n' },
      ],
    });
    await wb.typeInTerminal('set up unit tests');
    await wb.waitRow('the question under Needs you', claudeRow(/waiting for an answer/), 60_000);
    await sleep(1500);
    const q = await wb.clickRowActionToQuickInput(
      /waiting for an answer/,
      'Choose…',
      'the options',
      (x) => x.visible && x.items.length === 3,
    );
    assert.match(q.title, /Which test framework/);
    assert.deepStrictEqual(
      q.items.map((i) => i.replace(/,.*$/, '')),
      ['1. Vitest (Recommended)', '2. Jest', '3. node:test'],
    );
    await wb.screenshot('answer-choose');
    await wb.chooseQuickItem('3. node:test');
    await waitUntil('the model to get the chosen option', async () => toolResult('node:test')(), 30_000);
    await wb.waitRow('Claude at rest after the answer', claudeRow(/completed|idle/), 60_000);
  });

  it('Deny… from the notification: the model gets the denial and the user’s words, and the turn goes on', async () => {
    m.mocks.claude.setScript({
      title: 'Clean build output',
      turns: [
        {
          type: 'tool',
          name: 'Bash',
          text: 'I will remove the build directory.',
          input: { command: 'rm -rf build', description: 'Remove build' },
        },
        { type: 'text', text: 'Understood, I will do a dry run instead.\n' },
      ],
    });
    await wb.typeInTerminal('clean the build output');
    await wb.waitRow('the approval under Needs you', claudeRow(/waiting for approval/), 60_000);
    await wb.newTerminal(); // looking elsewhere: the wait is notified 15 s after the dialog appeared
    const toast = await wb.waitToast('the notification', (t) => /waiting for approval/.test(t.text), 40_000);
    assert.deepStrictEqual(toast.buttons, ['Show Terminal', 'Deny…', 'Allow Once…'], 'Allow is not the primary button');
    await wb.screenshot('answer-notification');
    await clickToastButton(wb.page, /waiting for approval/, 'Deny…');
    await wb.waitQuickInput('the deny box', (q) => q.visible, 10_000);
    await wb.answerQuickInput('use a dry run first');
    await waitUntil('the model to get the denial', async () => toolResult('use a dry run first')(), 30_000);
    await wb.waitRow('Claude at rest after the denial', claudeRow(/completed|idle/), 60_000);
  });

  it('Choose… on pi’s extension dialog: read off the screen, shown whole in a modal, picked with the keys', async () => {
    m.mocks.pi.setScript({
      title: 'Clean build',
      turns: [
        { type: 'tool', name: 'bash', input: { command: 'rm -rf build' } },
        { type: 'text', text: 'Done: the build directory has been removed.' },
      ],
    });
    const build = path.join(m.workspace, 'build');
    assert.ok(fs.existsSync(build), 'the project has a build folder');
    const piRow = (state: RegExp) => (r: { aria: string }) => /: pi · /.test(r.aria) && state.test(r.aria);
    await wb.newTerminal();
    await wb.typeInTerminal('pi');
    await wb.waitRow('pi idle', piRow(/idle/), 60_000);
    await sleep(2500);
    await wb.typeInTerminal('clean the build output');
    await wb.waitRow('pi’s dialog under Needs you', piRow(/waiting/), 60_000);
    await sleep(1500);
    const q = await wb.clickRowActionToQuickInput(/: pi · waiting/, 'Choose…', 'the options', (x) => x.visible && x.items.length === 2);
    assert.match(q.title, /Dangerous command:/);
    assert.deepStrictEqual(
      q.items.map((i) => i.replace(/,.*$/, '')),
      ['1. Yes', '2. No'],
    );
    await wb.chooseQuickItem('1. Yes');
    const shown = await waitModal(wb.page, 'the modal', (x) => x.visible && x.detail.includes('rm -rf build'));
    assert.match(shown.message, /Choose “Yes” in the dialog of pi in “.*”\?/);
    assert.deepStrictEqual(
      ['Show Terminal', 'Choose “Yes”'].filter((b) => shown.buttons.includes(b)),
      ['Show Terminal', 'Choose “Yes”'],
    );
    assert.strictEqual(shown.links, 0, 'no link in the modal');
    await wb.screenshot('answer-pi-choose-modal');
    // Enter takes the default button, which shows the terminal: nothing is typed.
    await wb.press('Enter');
    await waitModal(wb.page, 'the modal to close', (x) => !x.visible);
    await sleep(1500);
    assert.ok(fs.existsSync(build), 'Enter on the modal picked an option');
    await wb.waitRow('pi still waiting', piRow(/waiting/), 5000);
    await wb.clickRowActionToQuickInput(/: pi · waiting/, 'Choose…', 'the options again', (x) => x.visible && x.items.length === 2);
    await wb.chooseQuickItem('1. Yes');
    await waitModal(wb.page, 'the modal again', (x) => x.visible);
    await clickModalButton(wb.page, 'Choose “Yes”');
    await waitUntil('the command to run', async () => !fs.existsSync(build), 30_000);
    await wb.waitTerminalText(/directory has been removed\./, 30_000);
    await wb.waitRow('pi at rest after the answer', piRow(/completed|idle|stopped/), 60_000);
  });
});
