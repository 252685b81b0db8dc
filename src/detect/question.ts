/**
 * "Does this reply end with a question?" — one definition for the screen (the reply line above the prompt)
 * and the hooks (the reply's full text) alike: strip trailing whitespace, markdown emphasis,
 * backticks, closing brackets and quotes, then look for `?` or the full-width `？`.
 */

/** Trailing decoration a reply may end with after its question mark. */
const TRAILING_DECORATION = /[\s*_`)\]}"'”’」』]+$/u;

/** How much of the end of a text is examined (bounds the work on a long reply). */
const TAIL = 400;

export function stripTrailingDecoration(text: string): string {
  return text.slice(-TAIL).replace(TRAILING_DECORATION, '');
}

export function endsWithQuestion(text: string): boolean {
  return /[?？]$/.test(stripTrailingDecoration(text));
}

/** The question itself: the last non-empty line of a reply that ends with one, trimmed for a list item. */
export function lastQuestion(text: string, max = 300): string | undefined {
  if (!endsWithQuestion(text)) return undefined;
  const lines = text
    .slice(-4000)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const line = lines.at(-1) ?? '';
  return line.length > max ? `…${line.slice(-(max - 1))}` : line;
}
