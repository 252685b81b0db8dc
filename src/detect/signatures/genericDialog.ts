/**
 * The shape of a dialog no agent's rule names: a choice list with a selection cursor, or a
 * confirm/cancel hint next to choices or a question. Agent-independent, checked only on identified agents'
 * screens after their own dialog rules, and only in the bottom rows where TUIs draw dialogs. Every pattern
 * is anchored and bounded: they run on single rows.
 */
export const GENERIC_DIALOG = {
  id: 'generic.dialog',
  /** The highlighted choice: `❯ 1. Yes`, `› 2. No`, `> 1) Trust`. */
  cursorOption: /^\s{0,8}[❯›>▸▶➤]\s{0,3}\d{1,2}[.)]\s{1,3}\S/,
  /** A highlighted choice without a number (Claude Code's folder trust: `❯ No, exit`); `>` is left out, shells use it. */
  cursorChoice: /^\s{0,8}[❯›▸▶➤]\s{1,3}\S/,
  /**
   * The highlighted choice inside a box (Gemini CLI: `│ ● 1. Yes │`). Only boxed: Claude Code starts a reply
   * with `● `, so an unboxed `● 1. Step` is a numbered list in a reply.
   */
  boxedCursorOption: /^\s{0,8}●\s{0,3}\d{1,2}[.)]\s{1,3}\S/,
  /** Any numbered choice row (the cursor's siblings). */
  option: /^\s{0,8}(?:[❯›>▸▶➤●]\s{0,3})?\d{1,2}[.)]\s{1,3}\S/,
  /** A dialog box's side borders, taken off a row before the shapes above are tried. */
  leftBorder: /^\s{0,8}[│┃║]/,
  rightBorder: /[│┃║]\s{0,8}$/,
  /** A hint that keys confirm or cancel something. */
  hint: /(?:\b(?:enter|return)|⏎) (?:to )?(?:confirm|select|continue|approve|submit)\b|\besc(?:ape)? (?:to )?(?:cancel|go back|back|exit|dismiss|skip)\b|[([](?:y\/n|Y\/n|y\/N)[)\]]/i,
  /** A row that asks. */
  question: /\?\s{0,4}$/,
  /** Rows under a dialog's key hints (a status line), borders not counted: a reply's prose that names keys is higher up. */
  rowsUnderHint: 2,
  /** Rows under a cursor dialog's last choice (its hints, a status line), borders not counted; a reply has more. */
  rowsUnder: 4,
} as const;
