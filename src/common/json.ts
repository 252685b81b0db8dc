/**
 * JSON.parse for text Agent Lens does not write itself (session logs, hook reports, casts), bounded in depth.
 *
 * V8's JSON.parse costs more per byte the deeper the text nests (`npm run bench`, the linear table: 18 ns/byte at
 * 16 KB of nested objects, 90 at 256 KB), so a line that is one deep nest would cost superlinear time. No agent
 * writes records nested more than a few dozen levels; deeper text is refused before it is parsed, by a scan that
 * costs the same per byte at any depth.
 */

/** Far deeper than any record the agents write. */
export const MAX_JSON_DEPTH = 512;

/** Text this short cannot nest deep enough to matter, so it is parsed without the scan. */
const SCAN_FROM = 4096;

export class JsonDepthError extends SyntaxError {
  constructor() {
    super(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    this.name = 'JsonDepthError';
  }
}

/** JSON.parse, refusing (with JsonDepthError) text nested deeper than MAX_JSON_DEPTH. */
export function parseJson(text: string): unknown {
  if (text.length > SCAN_FROM && nestsDeeper(text, MAX_JSON_DEPTH)) throw new JsonDepthError();
  return JSON.parse(text);
}

/** Whether JSON text opens more than `max` arrays or objects at once; brackets inside strings do not count. */
export function nestsDeeper(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = stringEnd(text, i);
      // Unterminated: JSON.parse refuses it, at its own cost.
      if (i < 0) return false;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/** The index of the quote that closes the string opened at `open`, or -1. Each backslash is looked at once. */
function stringEnd(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    for (let k = at - 1; k > open && text.charCodeAt(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}
