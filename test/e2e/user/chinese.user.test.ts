import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { CREATE_NOTES, userMachine, type UserMachine } from './agents';
import { ROOT, sleep, waitUntil, Workbench } from './workbench';

/** What the Chinese bundle says for an English message, its {n} placeholders filled as l10n fills them. */
function zh(message: string, ...args: (string | number)[]): string {
  const bundle = JSON.parse(fs.readFileSync(path.join(ROOT, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
  const text = bundle[message];
  if (typeof text !== 'string') throw new Error(`l10n/bundle.l10n.zh-cn.json has no translation of “${message}”`);
  if (text === message) throw new Error(`“${message}” is not translated in l10n/bundle.l10n.zh-cn.json`);
  return text.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]));
}

/**
 * VS Code in Chinese (`--locale zh-cn`, with a language pack declaring it): Agent Lens speaks Chinese where VS Code
 * does — its tree, its status bar and its notification — for the real Claude Code asking for approval. VS Code's own
 * strings stay English here (the fixture pack translates none of them); every Agent Lens string read below is the
 * Chinese bundle's.
 */
describe('中文界面: Agent Lens in a VS Code whose display language is Chinese', function () {
  this.timeout(600_000);
  let m: UserMachine;
  let wb: Workbench;

  before(async () => {
    m = await userMachine('chinese');
    wb = await Workbench.start({ name: 'chinese', home: m.home, workspace: m.workspace, env: m.env, locale: 'zh-cn' });
  });
  after(async () => {
    await wb?.close();
    await m?.dispose();
  });

  it('the tree, the status bar and the notification of a waiting agent are in Chinese', async () => {
    const waitingForApproval = zh('waiting for approval');
    m.mocks.claude.setScript(CREATE_NOTES);
    await wb.newTerminal();
    await wb.typeInTerminal('claude');
    await wb.waitRow('Claude Code 空闲 (idle)', (r) => /Claude Code/.test(r.aria) && r.aria.includes(zh('idle')), 60_000);
    await sleep(2500);
    await wb.typeInTerminal('create the notes file');
    const opened = Date.now();
    await wb.waitRow('the approval, in Chinese', (r) => /Claude Code/.test(r.aria) && r.aria.includes(waitingForApproval), 60_000);
    await wb.waitRow('the Needs you group, in Chinese', (r) => r.aria.startsWith(zh('Needs you')), 10_000);
    let items: string[] = [];
    await waitUntil(
      'the status bar summary in Chinese',
      async () => (items = await wb.statusItems()).includes(zh('Agent Lens: {0} working, {1} waiting, 1 agent terminal', 0, 1)),
      15_000,
      () => JSON.stringify(items),
    );
    // Looking at another terminal: the wait is notified 15 s after the dialog appeared.
    await wb.newTerminal();
    const toast = await wb.waitToast('the notification, in Chinese', (t) => t.text.includes(waitingForApproval), 45_000);
    console.log(`      notified ${((Date.now() - opened) / 1000).toFixed(1)} s after the dialog appeared: ${toast.text}`);
    assert.doesNotMatch(toast.text, /waiting for approval/, 'no English state in the Chinese notification');
    await wb.clickRow(/Claude Code/);
    await sleep(800);
    await wb.screenshot('zh-cn-tree-status-notification');
    await wb.clickRowToTerminal(new RegExp(`Claude Code.*${waitingForApproval}`));
    await sleep(300);
    await wb.press('Enter');
    await wb.waitRow(
      'Claude at rest after the approval',
      (r) => /Claude Code/.test(r.aria) && !r.aria.includes(waitingForApproval),
      60_000,
    );
  });

  it('the walkthrough speaks Chinese: its title, its steps and the page beside the first step', async () => {
    const nls = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.zh-cn.json'), 'utf8')) as Record<string, string>;
    const title = nls['walkthrough.gettingStarted.title'];
    const page = fs.readFileSync(path.join(ROOT, nls['walkthrough.gettingStarted.startAgent.markdown']), 'utf8');
    // The page's first paragraph as the webview renders it (no Markdown marks).
    const firstLine = page
      .split('\n')
      .find((l) => /[\u4e00-\u9fff]/.test(l) && !l.startsWith('#'))!
      .replace(/[*`[\]]|\(.*?\)/g, '')
      .slice(0, 12);
    await wb.palette('Welcome: Open Walkthrough...');
    const pick = wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
    await pick.waitFor({ timeout: 15_000 });
    await pick.click();
    await wb.page
      .locator('.getting-started-category .category-title, .gettingStartedSlide h2', { hasText: title })
      .first()
      .waitFor({ timeout: 20_000 });
    for (const step of ['startAgent', 'installHooks', 'notifications'])
      await wb.page
        .locator('.getting-started-step .step-title', { hasText: nls[`walkthrough.gettingStarted.${step}.title`] })
        .first()
        .waitFor({ timeout: 10_000 });
    let frames: string[] = [];
    await waitUntil(
      'the first step’s page, in Chinese',
      async () => {
        frames = await Promise.all(
          wb.page.frames().map((f) =>
            f
              .locator('body')
              .innerText({ timeout: 1000 })
              .catch(() => ''),
          ),
        );
        return frames.some((t) => t.includes(firstLine));
      },
      20_000,
      () => frames.map((t) => t.slice(0, 80)).join(' | '),
    );
    await wb.screenshot('zh-cn-walkthrough');
  });
});
