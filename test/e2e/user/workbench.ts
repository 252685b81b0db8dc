/**
 * A real VS Code (code-server 4.100.3) in headless Chromium, driven the way a user drives it: the command
 * palette, the keyboard in a terminal, clicks on the side bar and on notifications, Reload Window. What the
 * tests assert is read back from the page (tree rows, notifications, the status bar, the terminal's text),
 * never through the extension's API: a user has no terminal ids.
 *
 * Starting and stopping code-server and Chromium (the packaged .vsix installed, VS Code's default settings) is
 * codeServer.ts; its ARTIFACTS, sleep and waitUntil are exported here too, for the tests and agents.ts.
 */
import * as path from 'path';
import type { Locator, Page } from 'playwright-core';
import { type CodeServer, launch, shutdown, sleep, waitUntil, type WorkbenchOptions } from './codeServer';
import { WindowFocus } from './windowFocus';

export { ROOT } from '../repoRoot';
export { ARTIFACTS, sleep, waitUntil, type WorkbenchOptions } from './codeServer';

export interface TreeRow {
  /** The row's accessible label: `<label>: <description>` for Agent Lens's rows. */
  aria: string;
  level: number;
  expanded?: boolean;
}

export interface Toast {
  text: string;
  severity: 'info' | 'warning' | 'error';
  /** Links VS Code rendered inside the message text (a link would run what it points at when clicked). */
  links: string[];
  buttons: string[];
}

export class Workbench {
  readonly page: Page;
  readonly artifacts: string;
  /** Whether the user looks at this window or at another browser tab. */
  readonly focus: WindowFocus;

  private constructor(private readonly cs: CodeServer) {
    this.page = cs.page;
    this.artifacts = cs.artifacts;
    this.focus = new WindowFocus(cs.page);
  }

  static async start(o: WorkbenchOptions): Promise<Workbench> {
    const wb = new Workbench(await launch(o));
    await wb.ready(o.trust ?? true);
    return wb;
  }

  /** The workbench is up, the trust question answered, and Agent Lens's view open in the side bar. */
  private async ready(trust: boolean): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const trustButton = this.page.locator('.monaco-dialog-box .monaco-button', {
      hasText: trust ? 'Yes, I trust the authors' : 'No, I don’t trust the authors',
    });
    await trustButton.click({ timeout: 8000 }).catch(() => undefined);
    await this.showAgentLens();
  }

  /** Clicks Agent Lens in the activity bar (once its view container is there) unless its view is open. */
  async showAgentLens(): Promise<void> {
    const item = this.page.locator('.activitybar .action-item a[aria-label^="Agent Lens"]').first();
    await item.waitFor({ timeout: 60_000 });
    const open = await this.page.locator('.part.sidebar .title-label h2', { hasText: /agent lens/i }).count();
    if (!open) await item.click();
    await this.page.locator('.part.sidebar .title-label h2', { hasText: /agent lens/i }).waitFor({ timeout: 15_000 });
  }

  /** Runs a command from the command palette, by its title as the palette lists it. */
  async palette(title: string): Promise<void> {
    await this.page.keyboard.press('F1');
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ timeout: 10_000 });
    await input.fill(`>${title}`);
    // The row whose label is exactly the title (several commands can contain it, e.g. Rename… and Rename with arg).
    const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(,|$)`);
    const row = this.page
      .locator('.quick-input-widget .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: exact }) })
      .first();
    await row.waitFor({ timeout: 10_000 });
    await row.click();
  }

  /** A new terminal from the palette, as a user opens one; waits until its prompt is drawn. */
  async newTerminal(): Promise<void> {
    const before = await this.terminalTabs();
    await this.palette('Terminal: Create New Terminal');
    await waitUntil(
      'a new terminal tab',
      async () =>
        (await this.terminalTabs()).length > before.length ||
        (before.length === 0 && (await this.page.locator('.terminal-wrapper.active .xterm').count()) > 0),
      20_000,
    );
    await waitUntil('the shell prompt', async () => /[$#]\s*$/m.test(await this.terminalText()), 20_000);
  }

  /** The names on the terminal tabs (the tabs list is shown once there are two terminals or more). */
  async terminalTabs(): Promise<string[]> {
    const names = await this.page.locator('.terminal-tabs-entry .monaco-icon-label .label-name, a.single-terminal-tab').allInnerTexts();
    return names.map((n) => n.trim()).filter(Boolean);
  }

  /** The visible text of the active terminal (xterm's DOM renderer rows). */
  async terminalText(): Promise<string> {
    return (
      await this.page
        .locator('.terminal-wrapper.active .xterm-rows')
        .first()
        .innerText()
        .catch(() => '')
    ).replace(/\u00a0/g, ' ');
  }

  /** Clicks into the active terminal and types, as keys; `enter` presses Enter as a separate key after a pause. */
  async typeInTerminal(text: string, enter = true): Promise<void> {
    await this.page.locator('.terminal-wrapper.active .xterm-screen').first().click();
    await this.page.keyboard.type(text, { delay: 10 });
    if (enter) {
      await sleep(300);
      await this.page.keyboard.press('Enter');
    }
  }

  async waitTerminalText(re: RegExp, timeoutMs = 30_000): Promise<string> {
    let last = '';
    await waitUntil(
      `the terminal to show ${re}`,
      async () => re.test((last = await this.terminalText())),
      timeoutMs,
      () => last.slice(-600),
    );
    return last;
  }

  /** Agent Lens's tree as the side bar shows it. */
  async rows(): Promise<TreeRow[]> {
    return this.page.evaluate(() =>
      [...document.querySelectorAll('.part.sidebar .monaco-list-row')].map((r) => ({
        aria: r.getAttribute('aria-label') ?? '',
        level: Number(r.getAttribute('aria-level') ?? 1),
        expanded: r.hasAttribute('aria-expanded') ? r.getAttribute('aria-expanded') === 'true' : undefined,
      })),
    );
  }

  async waitRow(what: string, pred: (r: TreeRow) => boolean, timeoutMs = 30_000): Promise<TreeRow> {
    let found: TreeRow | undefined;
    let seen: TreeRow[] = [];
    await waitUntil(
      what,
      async () => (found = (seen = await this.rows()).find(pred)) !== undefined,
      timeoutMs,
      () => JSON.stringify(seen.map((r) => r.aria)),
    );
    return found!;
  }

  /** Notification toasts on screen, with the links VS Code rendered inside their messages. */
  async toasts(): Promise<Toast[]> {
    return this.page.evaluate(() =>
      [...document.querySelectorAll('.notifications-toasts .notification-toast')].map((t) => ({
        text: (t.querySelector('.notification-list-item-message') as HTMLElement | null)?.innerText ?? '',
        severity: ((icon: string) => (icon.includes('codicon-error') ? 'error' : icon.includes('codicon-warning') ? 'warning' : 'info'))(
          t.querySelector('.notification-list-item-icon')?.className ?? '',
        ) as Toast['severity'],
        links: [...t.querySelectorAll('.notification-list-item-message a')].map((a) => a.getAttribute('href') ?? a.textContent ?? ''),
        buttons: [...t.querySelectorAll('.notification-list-item-buttons-container .monaco-button')].map(
          (b) => (b as HTMLElement).innerText,
        ),
      })),
    );
  }

  async waitToast(what: string, pred: (t: Toast) => boolean, timeoutMs = 30_000): Promise<Toast> {
    let found: Toast | undefined;
    let seen: Toast[] = [];
    await waitUntil(
      what,
      async () => (found = (seen = await this.toasts()).find(pred)) !== undefined,
      timeoutMs,
      () => JSON.stringify(seen.map((t) => t.text)),
    );
    return found!;
  }

  /** Closes every notification toast (as the user does with their ×), so the next ones stand alone. */
  async clearToasts(): Promise<void> {
    await this.palette('Notifications: Clear All Notifications');
    await waitUntil('the toasts to go', async () => (await this.toasts()).length === 0, 5000);
  }

  /** Agent Lens's status bar items, by their accessible labels. */
  async statusItems(): Promise<string[]> {
    return this.page
      .locator('.statusbar-item[id^="agent-lens.agent-lens."] a')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? (e as HTMLElement).innerText));
  }

  /** Hovers a tree row (its inline actions appear) and clicks the inline action with this label. */
  async clickRowAction(rowAria: RegExp, action: string): Promise<void> {
    const row = await this.rowNow(rowAria);
    await row.hover();
    await row.locator(`.actions .action-label[aria-label="${action}"]`).click({ timeout: 5000 });
  }

  /**
   * Clicks a row that shows its terminal and waits for the keyboard to be in a terminal; a click the busy
   * workbench did not act on (the row selected, its terminal not shown) is clicked again, as a user would.
   */
  async clickRowToTerminal(rowAria: RegExp): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await this.clickRow(rowAria);
      try {
        await this.waitTerminalFocus(attempt < 3 ? 5000 : 15_000);
        return;
      } catch (e) {
        if (attempt >= 3) throw e;
      }
    }
  }

  /**
   * Clicks a row that opens an input box, and clicks it again when the workbench did not act on the click (the row
   * selected, no input box after 5 s: the clean-clone CI's untrusted-text failure), at most three clicks.
   */
  async clickRowToQuickInput(rowAria: RegExp, what: string): Promise<Awaited<ReturnType<Workbench['quickInput']>>> {
    for (let attempt = 1; ; attempt++) {
      await this.clickRow(rowAria);
      try {
        return await this.waitQuickInput(what, (q) => q.visible, attempt < 3 ? 5000 : 10_000);
      } catch (e) {
        if (attempt >= 3) throw e;
      }
    }
  }

  /**
   * Hovers a row and clicks its inline action that opens an input box or a picker, and clicks it again when the
   * workbench did not act on the click (nothing after 5 s; seen on the clean-clone CI right after a modal showed
   * the terminal, and on a first Choose… while the machine was loaded), at most three clicks.
   */
  async clickRowActionToQuickInput(
    rowAria: RegExp,
    action: string,
    what: string,
    ready: Parameters<Workbench['waitQuickInput']>[1],
  ): Promise<Awaited<ReturnType<Workbench['quickInput']>>> {
    for (let attempt = 1; ; attempt++) {
      await this.clickRowAction(rowAria, action);
      try {
        return await this.waitQuickInput(what, ready, attempt < 3 ? 5000 : 10_000);
      } catch (e) {
        if (attempt >= 3) throw e;
      }
    }
  }

  /** Clicks a tree row, as a user does to open what it points at. */
  async clickRow(rowAria: RegExp): Promise<void> {
    await (await this.rowNow(rowAria)).click({ timeout: 5000 });
  }

  /**
   * The row whose accessible label matches, found again at each use. The tree redraws its rows every second (a
   * wait's age ticks) and the list reuses and reorders their elements, so a row taken by its position among them
   * may be another row by the time it is clicked: a click then lands on the wrong row and the keys after it go
   * elsewhere. Matching by label at the moment of the action leaves no such gap.
   */
  private async rowNow(rowAria: RegExp): Promise<Locator> {
    const row = this.page.locator('.part.sidebar .monaco-list-row').and(this.page.getByLabel(rowAria)).first();
    if (
      await row.waitFor({ timeout: 5000 }).then(
        () => true,
        () => false,
      )
    )
      return row;
    throw new Error(`no row matches ${rowAria}: ${JSON.stringify((await this.rows()).map((x) => x.aria))}`);
  }

  /** The open quick input: its title, prompt message, and the labels of its items. */
  async quickInput(): Promise<{ visible: boolean; title: string; message: string; items: string[] }> {
    const w = this.page.locator('.quick-input-widget');
    const visible = await w.isVisible().catch(() => false);
    if (!visible) return { visible, title: '', message: '', items: [] };
    return {
      visible,
      title: await w
        .locator('.quick-input-title')
        .innerText()
        .catch(() => ''),
      message: await w
        .locator('.quick-input-message')
        .innerText()
        .catch(() => ''),
      items: await w
        .locator('.monaco-list-row')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? (e as HTMLElement).innerText)),
    };
  }

  async waitQuickInput(
    what: string,
    pred: (q: Awaited<ReturnType<Workbench['quickInput']>>) => boolean,
    timeoutMs = 15_000,
  ): Promise<Awaited<ReturnType<Workbench['quickInput']>>> {
    let q = await this.quickInput();
    await waitUntil(
      what,
      async () => pred((q = await this.quickInput())),
      timeoutMs,
      () => JSON.stringify(q),
    );
    return q;
  }

  /** Clicks the item of the open quick pick whose label reads `label`, as a user picks one with the mouse. */
  async chooseQuickItem(label: string): Promise<void> {
    const row = this.page
      .locator('.quick-input-widget .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: label }) })
      .first();
    await row.click({ timeout: 10_000 });
  }

  /** Types into the open quick input (an input box or a quick pick's filter) and presses Enter. */
  async answerQuickInput(text: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    await input.fill(text);
    await sleep(200);
    await this.page.keyboard.press('Enter');
  }

  /** Waits until a terminal has the keyboard (what a row's click opens takes a moment on a busy machine). */
  async waitTerminalFocus(timeoutMs = 15_000): Promise<void> {
    await waitUntil(
      'a terminal to have the keyboard focus',
      async () => this.page.evaluate(() => document.activeElement?.classList.contains('xterm-helper-textarea') ?? false),
      timeoutMs,
    );
  }

  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }

  /** Clicks one of Agent Lens's status bar items (`summary`, `active`, `handoff`). */
  async clickStatusItem(item: 'summary' | 'active' | 'handoff'): Promise<void> {
    await this.page
      .locator(`[id="agent-lens.agent-lens.agentLens.${item}"] a, [id="agent-lens.agent-lens.agentLens.${item}"]`)
      .first()
      .click();
  }

  /** Terminal: Rename… from the palette, with the new name typed into its input box. */
  async renameTerminal(name: string): Promise<void> {
    await this.palette('Terminal: Rename...');
    await this.page.locator('.quick-input-widget .quick-input-box input').waitFor({ timeout: 10_000 });
    await this.answerQuickInput(name);
  }

  /** Agent Lens: Install Agent Hooks… from the palette; Enter accepts the agents it ticked (those found here). */
  async installHooks(): Promise<void> {
    await this.palette('Agent Lens: Install Agent Hooks…');
    await this.waitQuickInput('the hooks picker', (q) => q.visible && q.items.some((i) => /Claude Code/.test(i)));
    await this.press('Enter');
    await this.waitToast('the install notice', (t) => /Claude Code/.test(t.text), 20_000);
  }

  /** Developer: Reload Window, then waits for the workbench and Agent Lens's view again. */
  async reload(): Promise<void> {
    await this.palette('Developer: Reload Window');
    await this.page.waitForEvent('load', { timeout: 60_000 }).catch(() => undefined);
    await sleep(1000);
    await this.ready(true);
  }

  async screenshot(name: string): Promise<string> {
    const file = path.join(this.artifacts, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /** Closes the browser and code-server with everything it started (terminals, their agents). */
  async close(): Promise<void> {
    await this.screenshot('last').catch(() => undefined);
    await shutdown(this.cs);
  }
}
