import type { Page } from 'playwright-core';
import { waitUntil } from './codeServer';

/**
 * Where the user looks: at the workbench's browser tab, or away at another one. Playwright makes every page
 * believe it has the focus (its focus emulation); turning away gives the workbench's page the browser's real
 * focus handling back first, so VS Code's window is unfocused as in a real browser (`window.state.focused`).
 */
export class WindowFocus {
  /** The other browser tab the user turns to (lookAway). */
  private elsewhere?: Page;

  constructor(private readonly page: Page) {}

  /** The user turns to another browser tab: the workbench's page loses the focus. */
  async lookAway(): Promise<void> {
    if (!this.elsewhere) {
      await (await this.page.context().newCDPSession(this.page)).send('Emulation.setFocusEmulationEnabled', { enabled: false });
      this.elsewhere = await this.page.context().newPage();
    }
    await this.recordFocus();
    // Brought to front again while the page keeps the focus: a tab switch the browser did not act on is retried.
    await waitUntil(
      'the workbench to lose the focus',
      async () => {
        if (!(await this.windowFocus()).page) return true;
        await this.elsewhere!.bringToFront();
        return !(await this.windowFocus()).page;
      },
      // A loaded machine's headless Chromium has taken over 10 s to act on a tab switch (clean-clone CI).
      20_000,
    );
  }

  /** Starts recording the page's focus and blur events (epoch ms), once per page. */
  private async recordFocus(): Promise<void> {
    await this.page.evaluate(() => {
      const w = window as unknown as { __alFocus?: { type: string; at: number }[] };
      if (w.__alFocus) return;
      const log: { type: string; at: number }[] = (w.__alFocus = []);
      for (const type of ['focus', 'blur']) window.addEventListener(type, () => log.push({ type, at: Date.now() }));
    });
  }

  /** The page's focus and blur events since lookAway first ran, oldest first. */
  async focusEvents(): Promise<{ type: string; at: number }[]> {
    return this.page.evaluate(() => (window as unknown as { __alFocus?: { type: string; at: number }[] }).__alFocus ?? []);
  }

  /** The user comes back to the workbench's tab. */
  async lookBack(): Promise<void> {
    await this.page.bringToFront();
    await waitUntil('the workbench to have the focus', async () => (await this.windowFocus()).page, 10_000);
  }

  /** Whether the page has the browser's focus, and whether VS Code's title bar is drawn as a focused window's. */
  async windowFocus(): Promise<{ page: boolean; titlebar: 'active' | 'inactive' | 'none' }> {
    return this.page.evaluate(() => {
      const bar = document.querySelector('.part.titlebar');
      return { page: document.hasFocus(), titlebar: !bar ? 'none' : bar.classList.contains('inactive') ? 'inactive' : 'active' };
    });
  }
}
