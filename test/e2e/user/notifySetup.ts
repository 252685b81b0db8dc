/**
 * Adding a phone channel as a user does: *Agent Lens: Configure Notifications…* from the command palette,
 * *Add ntfy (phone)…*, the topic's address typed, Enter on the optional token, the events ticked, and the list
 * closed with Escape once the new channel's test push went out. The texts are the product's own
 * (src/notify/channelPicks.ts, src/vscode/notifyCommands.ts).
 */
import type { Seen } from '../../unit/notify/loopback';
import { waitUntil, type Workbench } from './workbench';
import { NOTIFY_EVENTS } from '../../../src/notify/config';

export interface QuickItem {
  /** The row's accessible label (the item's label, then its description and detail). */
  aria: string;
  /** A multi-select's tick (the row's aria-checked), undefined in a single-select list. */
  checked?: boolean;
}

/** The rows of the open quick pick, with their ticks. */
export async function quickItems(wb: Workbench): Promise<QuickItem[]> {
  return wb.page.evaluate(() =>
    [...document.querySelectorAll('.quick-input-widget .monaco-list-row')].map((r) => ({
      aria: r.getAttribute('aria-label') ?? (r as HTMLElement).innerText,
      checked: r.hasAttribute('aria-checked') ? r.getAttribute('aria-checked') === 'true' : undefined,
    })),
  );
}

export interface NtfyAdded {
  /** The events list as it opened (the defaults ticked), which the user accepted as it was. */
  events: QuickItem[];
  /** The test push the new channel sent. */
  test: Seen;
  /** The notice of the test in the window. */
  notice: string;
  /** The top list shown again, with the new channel's line. */
  channelLine: string;
}

const ADD_NTFY = 'Add ntfy (phone)…';
const ONLY = 'a dialog left open';
/** An ntfy channel's line (its aria label starts with its icon's name). */
const CHANNEL = /(^|\s)ntfy: /;

/** Configure Notifications… → Add ntfy (phone)…, `topicUrl`, no token, events as offered ("a dialog left open"). */
export async function addNtfyChannel(wb: Workbench, topicUrl: string, seen: Seen[]): Promise<NtfyAdded> {
  const before = seen.length;
  await wb.palette('Agent Lens: Configure Notifications…');
  await wb.waitQuickInput('the Configure Notifications list', (q) => q.visible && q.items.some((i) => i.includes(ADD_NTFY)));
  await wb.chooseQuickItem(ADD_NTFY);
  await wb.waitQuickInput('the ntfy topic box', (q) => q.visible && /ntfy topic/.test(q.title));
  await wb.answerQuickInput(topicUrl);
  await wb.waitQuickInput('the optional token box', (q) => q.visible && /ntfy access token/.test(q.title));
  await wb.answerQuickInput('');
  // One item per kind of event a channel may be told of (wait, long turns, replies, usage).
  await wb.waitQuickInput(
    'the events list',
    (q) => q.visible && /Notify this channel of/.test(q.title) && q.items.length === NOTIFY_EVENTS.length,
  );
  const events = await quickItems(wb);
  const ticked = events.filter((e) => e.checked).map((e) => e.aria);
  if (ticked.length !== 1 || !ticked[0].startsWith(ONLY))
    throw new Error(`the events list did not open with only “${ONLY}” ticked: ${JSON.stringify(events)}`);
  await wb.press('Enter');
  await waitUntil('the test push', () => seen.length > before, 20_000);
  const notice = await wb.waitToast('the test notice', (t) => /test notification/i.test(t.text), 20_000);
  const top = await wb.waitQuickInput('the list again, with the new channel', (q) => q.visible && q.items.some((i) => CHANNEL.test(i)));
  const channelLine = top.items.find((i) => CHANNEL.test(i))!;
  await wb.press('Escape');
  await waitUntil('the list to close', async () => !(await wb.quickInput()).visible, 10_000);
  return { events, test: seen[before], notice: notice.text, channelLine };
}
