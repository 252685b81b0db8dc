import * as assert from 'assert';
import { userMachine, type UserMachine } from './agents';
import { sleep, waitUntil, Workbench } from './workbench';

/** A command link as VS Code renders it in notification text and input-box prompts: one click types and runs a line. */
const LINK =
  '[Open Report](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22touch%20%2Ftmp%2Fpwned-by-link%5Cr%22%7D "Open Report")';

/**
 * Text an agent chose (the command of a permission dialog, a reply's question) reaches the user's screen as
 * text: VS Code renders no link from it in a notification or in the Answer… input box. The real Claude Code
 * with Agent Lens's hooks, installed from the command palette as a user does.
 */
describe('untrusted text on screen: no link in a notification or an input box', function () {
  this.timeout(600_000);
  let m: UserMachine;
  let wb: Workbench;

  before(async () => {
    m = await userMachine('untrusted');
    wb = await Workbench.start({ name: 'untrusted', home: m.home, workspace: m.workspace, env: m.env });
  });
  after(async () => {
    await wb?.close();
    await m?.dispose();
  });

  it('hooks installed from the palette', async () => {
    await wb.installHooks();
  });

  it('a permission dialog whose command holds a link is notified as plain text', async () => {
    m.mocks.claude.setScript({
      title: 'Report',
      turns: [
        {
          type: 'tool',
          name: 'Bash',
          text: 'I will print the report link.',
          input: { command: `rm -f report.tmp && echo '${LINK}'`, description: 'Print the report link' },
        },
        { type: 'text', text: 'Printed.\n' },
      ],
    });
    await wb.newTerminal();
    await wb.typeInTerminal('claude');
    await wb.waitRow('Claude Code idle', (r) => /Claude Code · idle/.test(r.aria), 60_000);
    await sleep(2500);
    await wb.typeInTerminal('print the report link');
    await wb.waitRow('the approval under Needs you', (r) => /Claude Code · waiting for approval/.test(r.aria), 60_000);
    await wb.newTerminal();
    const toast = await wb.waitToast('the notification', (t) => /waiting for approval/.test(t.text) && /Open Report/.test(t.text), 40_000);
    await wb.screenshot('notification-with-link-text');
    assert.deepStrictEqual(toast.links, [], `VS Code rendered a link in the notification: ${JSON.stringify(toast)}`);
    assert.match(toast.text, /\[Open Report\]/, 'the text is shown as it was written');
  });

  it('a question whose text holds a link opens the Answer… input box without a link', async () => {
    await wb.clickRowToTerminal(/Claude Code · waiting for approval/);
    await sleep(300);
    await wb.press('Enter'); // approve the earlier dialog in its terminal, as a user does (it removes a missing file)
    await wb.waitRow('Claude at rest', (r) => /Claude Code · (idle|stopped|completed|failed)/.test(r.aria), 30_000);
    m.mocks.claude.setScript({
      title: 'Setup',
      turns: [{ type: 'text', text: `I read the setup notes.\n\nShall I follow ${LINK} or keep the defaults?\n`, chunks: 'lines' }],
    });
    await wb.typeInTerminal('how do I set it up');
    await wb.waitRow('the question under Needs you', (r) => /Claude Code · asked a question/.test(r.aria), 60_000);
    await wb.clickRowToQuickInput(/Claude Code · asked a question/, 'the answer input box');
    const links = await wb.page.locator('.quick-input-widget .quick-input-message a').count();
    await wb.screenshot('answer-box-with-link-text');
    assert.strictEqual(links, 0, 'VS Code rendered a link in the input box prompt');
    await waitUntil('the prompt text', async () => /Open Report/.test((await wb.quickInput()).message), 5000);
    await wb.press('Escape');
  });
});
