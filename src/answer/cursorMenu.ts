import * as l10n from '@vscode/l10n';
import type { MenuShape } from '../agents/descriptor';
import { changedReason, closedReason, type KeyIO, type KeyOutcome } from './screenKeys';

/**
 * Answering a selector dialog — a list with a cursor mark and no numbers, such as pi's extensions' `select` and
 * `confirm` — with the arrow keys and Enter, read off the live screen. The dialog is read whole (title, options,
 * the cursor's row) from the bottom of the screen; it must be the dialog the user saw when it was offered, and a
 * second read a moment later must agree. The cursor is moved one row at a time to the chosen option, the screen
 * must then show it there, and only then is Enter typed; the dialog must be gone after it. Anything else stops,
 * before Enter, and says why (in the window's language: it is shown): a moved cursor picks nothing.
 */

export interface CursorMenu {
  /** The dialog's text above its options, rows joined with "\n", without a countdown. */
  title: string;
  options: string[];
  /** Which option the cursor is on. */
  cursor: number;
}

/** How many rows up from the bottom a dialog is looked for, and how many options it may have. */
const BOTTOM_ROWS = 30;
const MAX_OPTIONS = 20;
/** How long the cursor has to arrive, and the pause between two moves (the TUI redraws after each). */
export const MENU_TIMING = { secondReadMs: 150, moveMs: 40, arriveMs: 1500, closeMs: 3000, pollMs: 50 } as const;

/** The selector dialog at the bottom of the screen, or undefined when there is none (or it cannot be read whole). */
export function readMenu(screen: readonly string[], shape: MenuShape): CursorMenu | undefined {
  const rows = screen.slice(-BOTTOM_ROWS).map((r) => r.trimEnd());
  let i = findLast(rows, (r) => shape.hint.test(r));
  if (i < 0) return undefined;
  i = skipBlank(rows, i - 1);
  const found: { label: string; marked: boolean }[] = [];
  for (; i >= 0 && rows[i] !== ''; i--) {
    const o = optionRow(rows[i], shape.cursor);
    if (!o || found.length >= MAX_OPTIONS) return undefined; // a wrapped or foreign row: not read whole
    found.unshift(o);
  }
  const marked = found.filter((o) => o.marked).length;
  if (found.length < 2 || marked !== 1) return undefined;
  const title: string[] = [];
  for (i = skipBlank(rows, i); i >= 0 && !shape.border.test(rows[i]); i--) title.unshift(rows[i].trim());
  if (i < 0 || title.length === 0) return undefined;
  const text = title
    .join('\n')
    .replace(/\n{2,}/g, '\n')
    .trim();
  return {
    title: shape.ticker ? text.replace(shape.ticker, '') : text,
    options: found.map((o) => o.label),
    cursor: found.findIndex((o) => o.marked),
  };
}

/** One option row: a column of padding, the mark or a space, a space, then the label (not starting with a space). */
function optionRow(row: string, mark: string): { label: string; marked: boolean } | undefined {
  if (row[0] !== ' ' || (row[1] !== mark && row[1] !== ' ') || row[2] !== ' ' || !row[3] || row[3] === ' ') return undefined;
  return { label: row.slice(3), marked: row[1] === mark };
}

/** Whether two reads show the same dialog (the cursor aside). */
export function sameDialog(a: CursorMenu | undefined, b: CursorMenu | undefined): boolean {
  return !!a && !!b && a.title === b.title && a.options.length === b.options.length && a.options.every((o, i) => o === b.options[i]);
}

/** How a kind of selector is read off the screen, and the keys that move its cursor and pick. */
export interface MenuReader {
  read(rows: readonly string[]): CursorMenu | undefined;
  keys: MenuShape['keys'];
}

/** The reader of an agent's own selector shape (its descriptor's `menu`). */
export const shapeReader = (shape: MenuShape): MenuReader => ({ read: (rows) => readMenu(rows, shape), keys: shape.keys });

/** Picks `label` in the dialog `offered` showed, as the module's comment says. */
export async function answerMenu(io: KeyIO, menu: MenuReader, offered: CursorMenu, label: string): Promise<KeyOutcome> {
  const target = offered.options.indexOf(label);
  if (target < 0 || offered.options.lastIndexOf(label) !== target)
    return { ok: false, why: l10n.t('the dialog does not have that option exactly once'), typed: false };
  const first = menu.read(io.rows());
  if (!sameDialog(first, offered)) return { ok: false, why: l10n.t('the dialog on the screen is not the one offered'), typed: false };
  await io.sleep(MENU_TIMING.secondReadMs);
  const second = menu.read(io.rows());
  if (!sameDialog(second, first) || second!.cursor !== first!.cursor) return { ok: false, why: changedReason(), typed: false };
  if (!(await io.mayType())) return { ok: false, why: closedReason(), typed: false };
  const moves = target - second!.cursor;
  for (let n = 0; n < Math.abs(moves); n++) {
    io.write(moves > 0 ? menu.keys.down : menu.keys.up);
    await io.sleep(MENU_TIMING.moveMs);
  }
  const moved = moves !== 0;
  if (!(await arrived(io, menu, offered, target)))
    return { ok: false, why: l10n.t('the cursor did not reach “{0}”; nothing was picked', label), typed: moved };
  if (!(await io.mayType())) return { ok: false, why: closedReason(), typed: moved };
  io.write(menu.keys.pick);
  for (let waited = 0; waited < MENU_TIMING.closeMs; waited += MENU_TIMING.pollMs) {
    await io.sleep(MENU_TIMING.pollMs);
    if (!sameDialog(menu.read(io.rows()), offered)) return { ok: true, option: label };
  }
  return { ok: false, why: l10n.t('the dialog was still on the screen {0} s after Enter', MENU_TIMING.closeMs / 1000), typed: true };
}

/** Whether the screen shows the same dialog with its cursor on `target`, within the time allowed. */
async function arrived(io: KeyIO, menu: MenuReader, offered: CursorMenu, target: number): Promise<boolean> {
  for (let waited = 0; ; waited += MENU_TIMING.pollMs) {
    const now = menu.read(io.rows());
    if (!sameDialog(now, offered)) return false;
    if (now!.cursor === target) return true;
    if (waited >= MENU_TIMING.arriveMs) return false;
    await io.sleep(MENU_TIMING.pollMs);
  }
}

function findLast(rows: readonly string[], test: (r: string) => boolean): number {
  for (let i = rows.length - 1; i >= 0; i--) if (test(rows[i])) return i;
  return -1;
}

function skipBlank(rows: readonly string[], i: number): number {
  while (i >= 0 && rows[i].trim() === '') i--;
  return i;
}
