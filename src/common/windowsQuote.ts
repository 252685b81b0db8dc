/**
 * Quoting for the Windows shells: one definition for the hook lines (src/integrations/windowsHookLines.ts) and the
 * lines briefs tell agents to run (src/handoff/cliLines.ts). POSIX quoting is ./shellQuote.ts.
 */

/** PowerShell's tokenizer closes a single-quoted string on any of these (about_Quoting_Rules); each is doubled. */
export const PS_QUOTE_CHARS = "'\u2018\u2019\u201a\u201b";

/** A control character cannot be in a Windows path; a line with one would not be one line. */
export const CONTROL = /[\u0000-\u001f\u007f]/;

/** `s` as a PowerShell single-quoted string: nothing in it is expanded; each quote character is doubled. */
export function psQuote(s: string): string {
  let out = "'";
  for (const c of s) out += PS_QUOTE_CHARS.includes(c) ? c + c : c;
  return `${out}'`;
}

/**
 * `s` as a cmd.exe double-quoted word: inside quotes `&`, `^`, `|`, `<`, `>`, `(` and `)` are plain characters,
 * but `%` is expanded (there is no escape for it on a command line) and `"` would end the word, so paths holding
 * either are refused. (`!` is plain unless delayed expansion is switched on in the registry.)
 */
export function cmdQuote(s: string): string {
  if (/["%]/.test(s) || CONTROL.test(s))
    throw new Error(
      `cannot write ${JSON.stringify(s)} into a cmd.exe hook line (it holds % or "): set AGENT_LENS_HOME to a folder without them`,
    );
  return `"${s}"`;
}
