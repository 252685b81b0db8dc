/**
 * The completion shape: a spinner symbol anchored at line start, a capitalised past-tense
 * verb, " for ", a duration. The verb list is deliberately open; the anchor is what keeps ordinary text
 * such as "Retried for 3s" from matching. Claude Code 2.1.328 draws its completion line with ✻ (U+273B),
 * which older patterns lacked; `Sautéed`/`Cogitated` stay as the legacy unanchored fallback.
 * Rows are at most a screen wide, and every quantified group is separated by a required literal, so
 * matching is linear in the row length.
 */
export const COMPLETION_SHAPE =
  /(?:^\s*[✶✽✳✢·∗*✻]\s*([A-Z][a-zé]+(?:ed|t))|\b(Saut[ée]*d|Cogitated))\s+for\s+(?:\d+\s*[hm]\s*)*\d+\s*[hms]\b/;

/** Codex 0.169 prints its completion line without a symbol: `  Worked for 23s • 16:16`, indented, alone on its row. */
export const CODEX_COMPLETION = /^\s*(?:─+\s*)?Worked for <?(?:\d+\s*[hm]\s*)*\d+\s*[hms]\b/;

/** True when a screen row has the completion shape. */
export function isCompletionLine(row: string): boolean {
  return COMPLETION_SHAPE.test(row);
}
