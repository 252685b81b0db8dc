import type { Page } from 'playwright-core';
import { waitUntil } from './codeServer';

/** VS Code's modal dialog, as the user sees it: its message, its detail and its buttons (left to right). */
export interface Modal {
  visible: boolean;
  message: string;
  detail: string;
  buttons: string[];
  /** Links VS Code rendered inside the message or the detail (there must be none for outside text). */
  links: number;
}

export async function modal(page: Page): Promise<Modal> {
  return page.evaluate(() => {
    const box = document.querySelector('.monaco-dialog-box') as HTMLElement | null;
    if (!box) return { visible: false, message: '', detail: '', buttons: [], links: 0 };
    const text = (sel: string) => (box.querySelector(sel) as HTMLElement | null)?.innerText ?? '';
    return {
      visible: true,
      message: text('.dialog-message-text'),
      detail: text('.dialog-message-detail'),
      buttons: [...box.querySelectorAll('.dialog-buttons .monaco-button')].map((b) => (b as HTMLElement).innerText.trim()),
      links: box.querySelectorAll('.dialog-message-text a, .dialog-message-detail a').length,
    };
  });
}

export async function waitModal(page: Page, what: string, pred: (m: Modal) => boolean, timeoutMs = 10_000): Promise<Modal> {
  let m = await modal(page);
  await waitUntil(
    what,
    async () => pred((m = await modal(page))),
    timeoutMs,
    () => JSON.stringify(m),
  );
  return m;
}

/** Clicks a button of the open modal by its label, as the user does with the mouse. */
export async function clickModalButton(page: Page, label: string): Promise<void> {
  await page.locator('.monaco-dialog-box .dialog-buttons .monaco-button', { hasText: label }).first().click({ timeout: 5000 });
}

/** Clicks a button of the first toast whose message matches. */
export async function clickToastButton(page: Page, message: RegExp, label: string): Promise<void> {
  const toast = page.locator('.notifications-toasts .notification-toast').filter({ hasText: message }).first();
  await toast.locator('.notification-list-item-buttons-container .monaco-button', { hasText: label }).first().click({ timeout: 5000 });
}

/**
 * Clicks (a row's inline action, a button) until a modal dialog shows: a click the busy workbench did not act on
 * (no modal after 5 s: the clean-clone CI's Allow Once failure) is clicked again, at most three clicks.
 */
export async function clickToModal(page: Page, what: string, click: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await click();
    try {
      await waitModal(page, what, (x) => x.visible, attempt < 3 ? 5000 : 15_000);
      return;
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}
