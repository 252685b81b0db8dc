import { trimBorder } from '../detect/dialogOptions';
import type { MenuShape } from '../agents/descriptor';
import type { CursorMenu, MenuReader } from './cursorMenu';

/**
 * The generic dialog shape: numbered options, one per row, with a cursor mark on one of them (`❯ 1. Yes` /
 * `  2. No`, `● 1. Allow once`), as agents without a way of their own to be answered draw them. Read whole or not
 * at all: the one run numbered 1, 2, 3… nearest the bottom, no row of it wrapped, exactly one cursor, and the
 * rows just above it as its text. Answered with the arrow keys and Enter like any selector (./cursorMenu.ts):
 * a digit would be a guess in a TUI that does not say it takes one; a cursor that moves is seen to move.
 */

const OPTION = /^[\s│┃|]*(?:([❯›>▸→▶●◉○◯])\s*)?(\d{1,2})[.)]\s+(\S.*)$/u;
/** Marks of the option the cursor is on (○ and ◯ mark the others in a radio list). */
const CURSOR = new Set(['❯', '›', '>', '▸', '→', '▶', '●', '◉']);
/** A frame's solid rule: where a dialog's text above its options ends. A dashed one frames a part of it. */
const RULE = /^[\s│┃|╭╮╰╯├┤─━═]*$/u;
const DASHED = /^[\s╌┄┈╍┅┉]+$/u;
const BOTTOM_ROWS = 24;
const MAX_TITLE_ROWS = 6;
const MAX_OPTIONS = 9;

/** The arrow keys and Enter, as a terminal sends them. */
export const ARROW_KEYS: MenuShape['keys'] = { up: '\x1b[A', down: '\x1b[B', pick: '\r' };

export function readNumberedMenu(screen: readonly string[]): CursorMenu | undefined {
  const rows = screen.slice(-BOTTOM_ROWS).map((r) => trimBorder(r.trimEnd()));
  for (let end = rows.length - 1; end >= 0; end--) {
    const last = OPTION.exec(rows[end]);
    if (!last) continue;
    const n = Number(last[2]);
    if (n < 2 || n > MAX_OPTIONS || end - n + 1 < 0) return undefined;
    const run = rows.slice(end - n + 1, end + 1).map((r) => OPTION.exec(r));
    if (run.some((m, i) => !m || Number(m[2]) !== i + 1)) return undefined; // a wrapped or foreign row: not whole
    const marked = run.map((m) => !!m![1] && CURSOR.has(m![1]));
    if (marked.filter(Boolean).length !== 1) return undefined;
    const title = titleAbove(rows, end - n);
    if (!title) return undefined;
    return { title, options: run.map((m) => m![3].trim()), cursor: marked.indexOf(true) };
  }
  return undefined;
}

/** The dialog's text: the non-blank rows just above its options, up to a rule or a few rows. */
function titleAbove(rows: readonly string[], from: number): string {
  const out: string[] = [];
  for (let i = from; i >= 0 && out.length < MAX_TITLE_ROWS; i--) {
    const row = rows[i].replace(/^[\s│┃|]+/u, '');
    if (row === '' || DASHED.test(row)) continue;
    if (RULE.test(row)) break;
    out.unshift(row);
  }
  return out.join('\n');
}

/** The generic shape's reader, for agents that have none of their own. */
export const NUMBERED_MENU: MenuReader = { read: readNumberedMenu, keys: ARROW_KEYS };
