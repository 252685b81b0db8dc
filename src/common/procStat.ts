/**
 * `/proc/<pid>/stat` (Linux) read by field number, as proc(5) counts them (1 pid, 2 comm, 3 state, 4 ppid, …).
 * The command name is in parentheses and may itself hold spaces and ")": fields are counted after the last ")".
 */
export interface ProcStatFields {
  comm: string;
  /** Field `n` (n ≥ 3) as a number; NaN when the line is shorter. */
  field(n: number): number;
}

export function procStatFields(text: string): ProcStatFields | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  // rest[0] is field 3 (state), so field n is rest[n - 3].
  const rest = text.slice(close + 2).split(' ');
  return { comm: text.slice(open + 1, close), field: (n) => Number(rest[n - 3]) };
}
