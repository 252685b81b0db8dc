/** POSIX shell quoting: one definition for the hook commands, the reporter wrapper, briefs and launch lines. */

/** Always single-quoted (a path a script must be able to find again in the text). */
export function shellQuote(s: string): string {
  // split/join rather than a global replace: a third of the time on long runs of quotes, and no regex.
  return `'${s.split("'").join(`'\\''`)}'`;
}

/** Quoted only when a shell would otherwise split or expand it. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : shellQuote(s);
}
