/**
 * The numbered choices a dialog draws on screen ("❯ 1. Yes", "2. Yes, and don't ask again", "│ ● 3. No │"), so
 * the Needs-you row can list them before the user switches to the terminal. Read from the bottom rows only, as
 * one run numbered 1, 2, 3…: a numbered list higher up in a reply is not the dialog's.
 */

/** A numbered option row: an optional frame border and selection cursor, the number, then its text. */
const OPTION = /^[\s│┃|]*(?:[❯›>▸→●◉○◯▶]\s*)?(\d{1,2})[.)]\s+(\S.*)$/u;
const BOTTOM_ROWS = 24;
const MAX_OPTIONS = 9;
const MAX_TEXT = 120;
const BORDER = new Set([' ', '\t', '│', '┃', '|', '\u00a0']);

/** Words a choice of a one-row dialog starts with (OpenCode: "Allow once   Allow always   Reject"). */
const CHOICE_WORDS = /^(?:allow|always|approve|accept|reject|deny|decline|yes|no|cancel|skip)\b/i;

/** The dialog's options, top to bottom; empty when the bottom rows hold no run of at least two. */
export function dialogOptions(rows: readonly string[]): string[] {
  const numbered = numberedOptions(rows.slice(-BOTTOM_ROWS));
  return numbered.length ? numbered : inlineChoices(rows.slice(-BOTTOM_ROWS));
}

/** A row that starts with choices side by side, each starting with a choice word, two or more spaces apart. */
function inlineChoices(bottom: readonly string[]): string[] {
  for (let i = bottom.length - 1; i >= 0; i--) {
    const parts = trimBorder(bottom[i].replace(/^[\s│┃|]+/u, ''))
      .split(/\s{2,}/)
      .filter(Boolean);
    // The choices come first; key hints may follow on the same row ("ctrl+f fullscreen  enter confirm").
    const lead = parts.slice(0, MAX_OPTIONS);
    const n = lead.findIndex((p) => !CHOICE_WORDS.test(p));
    const choices = n < 0 ? lead : lead.slice(0, n);
    if (choices.length >= 2) return choices.map((p) => p.slice(0, MAX_TEXT));
  }
  return [];
}

function numberedOptions(bottom: readonly string[]): string[] {
  let run: string[] = [];
  let best: string[] = [];
  for (const row of bottom) {
    const m = OPTION.exec(row);
    if (m && Number(m[1]) === run.length + 1 && run.length < MAX_OPTIONS) run.push(trimBorder(m[2]).slice(0, MAX_TEXT));
    else if (m && Number(m[1]) === 1) run = [trimBorder(m[2]).slice(0, MAX_TEXT)];
    else if (row.trim() && run.length) {
      // A wrapped option continues on the next row, indented; anything else ends the run.
      const inner = row.replace(/^\s*[│┃|]/u, '');
      if (/^\s{3,}\S/.test(inner)) run[run.length - 1] = `${run[run.length - 1]} ${trimBorder(inner.trim())}`.slice(0, MAX_TEXT);
      else {
        if (run.length >= 2) best = run;
        run = [];
      }
    }
  }
  if (run.length >= 2) best = run;
  return best;
}

/** The text without the frame's right border and padding (a loop: a regex anchored at the end would rescan). */
export function trimBorder(s: string): string {
  let end = s.length;
  while (end > 0 && BORDER.has(s[end - 1])) end--;
  return s.slice(0, end);
}
