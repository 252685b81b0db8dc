/**
 * Text that came from outside (an argument, a file name, a hub's answer) shown in a one-line message or a log
 * line: control characters, line separators, bidi controls and the other invisible format characters are written
 * as escapes, so an error cannot break a line, forge a log line, move the cursor, recolour a terminal, or reorder
 * or hide what a reader sees.
 */

/**
 * C0, DEL and C1 (`Cc`); format characters (`Cf`: the bidi embeddings, overrides, isolates and marks, zero-width
 * spaces, the soft hyphen, the byte-order mark, tag characters); U+2028 and U+2029. One code point per match.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/**
 * The zero-width (non-)joiner shape emoji and Persian or Indic words; they cannot reorder or hide text, so they
 * stay as they are.
 */
const KEPT = new Set(['\u200c', '\u200d']);

/** `\u202e`, or `\u{e0041}` above the BMP: what a hidden character looks like once escaped. */
export function escapeChar(c: string): string {
  const cp = c.codePointAt(0) ?? 0;
  return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
}

/** Every hidden character written as an escape; all other text unchanged. Applying it twice changes nothing more. */
export function printable(s: string): string {
  return s.replace(HIDDEN, (c) => (KEPT.has(c) ? c : escapeChar(c)));
}

/** A name from outside in a message: JSON-quoted (so its ends show), with DEL, C1, line separators and bidi escaped too. */
export function quoted(s: string): string {
  return printable(JSON.stringify(s));
}

/**
 * A value as one line of JSON for a terminal: JSON.stringify escapes C0 but leaves DEL, C1, U+2028/2029, bidi
 * controls and the other invisible characters raw; they are escaped too (still the same JSON once parsed).
 */
export function jsonLine(v: unknown): string {
  return (JSON.stringify(v) ?? 'null').replace(HIDDEN, (c) => (KEPT.has(c) ? c : jsonEscape(c)));
}

/** JSON has no `\u{…}`: a character above the BMP is written as its two UTF-16 halves. */
function jsonEscape(c: string): string {
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}
