import { userMachine, type UserMachine } from './agents';
import { sleep, Workbench } from './workbench';

/** Drags the edge of an element (a sash: a view's size) by `by` pixels, as a user's mouse does. */
async function drag(
  wb: Workbench,
  selector: string,
  from: (b: { x: number; y: number; width: number; height: number }) => [number, number],
  by: [number, number],
): Promise<void> {
  const box = await wb.page.locator(selector).first().boundingBox();
  if (!box) return;
  const [x, y] = from(box);
  await wb.page.mouse.move(x, y);
  await wb.page.mouse.down();
  await wb.page.mouse.move(x + by[0] / 2, y + by[1] / 2, { steps: 5 });
  await wb.page.mouse.move(x + by[0], y + by[1], { steps: 5 });
  await wb.page.mouse.up();
  await sleep(300);
}

/**
 * What a session spends, as a user meets it: the real Claude Code against its mock, whose responses report a prompt
 * near the model's context window. The row warns, and Session Details (opened from its collapsed header, as a user
 * would) shows the model, the context, the tokens, the cost and the reply's first line.
 */
describe('usage: a session near its context limit, on its row and in Session Details', function () {
  this.timeout(600_000);
  let m: UserMachine;
  let wb: Workbench;

  before(async () => {
    m = await userMachine('usage');
    wb = await Workbench.start({ name: 'usage', home: m.home, workspace: m.workspace, env: m.env });
  });
  after(async () => {
    await wb?.close();
    await m?.dispose();
  });

  it('the row warns of the full context and Session Details lists the figures', async () => {
    await wb.installHooks();
    // 930,000 prompt tokens of claude-opus-5-5's 1,000,000 (the window Claude Code itself uses for it).
    m.mocks.claude.setScript({
      title: 'Refactor',
      promptTokens: 930_000,
      turns: [{ type: 'text', text: 'Refactored the parser into three modules.\nTests pass.\n', chunks: 'lines' }],
    });
    await wb.newTerminal();
    await wb.typeInTerminal('claude');
    await wb.waitRow('Claude Code idle', (r) => /Claude Code/.test(r.aria) && /idle/.test(r.aria), 60_000);
    await sleep(2500);
    await wb.typeInTerminal('refactor the parser');
    await wb.waitRow('the warning on the row', (r) => /Claude Code/.test(r.aria) && /⚠ ctx 93%/.test(r.aria), 90_000);
    await wb.page
      .locator('.part.sidebar .pane-header', { hasText: /Session Details/i })
      .first()
      .click();
    await wb.waitRow('the session in Session Details', (r) => /claude-opus-5-5 · ⚠ ctx 93% · ~\$/.test(r.aria), 20_000);
    await wb.waitRow('its context', (r) => /Context 930(\.\d+)?k of 1M \(93%\)/.test(r.aria), 10_000);
    await wb.waitRow('its tokens', (r) => /Tokens: 930(\.\d+)?k in · \d+ out/.test(r.aria), 10_000);
    await wb.waitRow(
      'its cost, estimated',
      (r) => /Cost: \$\d+\.\d\d \(estimated from list prices of \d{4}-\d\d-\d\d\)/.test(r.aria),
      10_000,
    );
    await wb.waitRow('the reply’s first line', (r) => /Refactored the parser into three modules\./.test(r.aria), 10_000);
    // For the README's picture: a wider side bar, Session Details taller, the install toasts gone.
    await wb.clearToasts();
    await drag(wb, '.part.sidebar', (b) => [b.x + b.width - 1, b.y + b.height / 2], [240, 0]);
    await drag(wb, '.part.sidebar .pane-header:has-text("Session Details")', (b) => [b.x + b.width / 2, b.y - 1], [0, -300]);
    await wb.screenshot('usage-row-and-details');
  });
});
