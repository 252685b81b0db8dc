import { ancestorsOf } from './ancestors';

/**
 * `ps -axo pid=,ppid=` (macOS, BSD; procps prints the same): every process's parent, in one call. The reporter
 * walks its ancestry through this where there is no /proc: one table is cheaper than one `ps -o ppid= -p` per
 * ancestor (each a fork and exec, and a hook's chain is 5–10 deep).
 */
export const PS_PARENTS_ARGS: readonly string[] = ['-axo', 'pid=,ppid='];

/** Rows kept: more processes than any machine runs. */
const MAX_ROWS = 65_536;

/** pid → ppid; lines that are not two numbers are skipped. */
export function parseParents(text: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const line of text.split('\n')) {
    if (out.size >= MAX_ROWS) break;
    const m = /^\s*(\d{1,10})\s+(\d{1,10})\s*$/.exec(line);
    if (m) out.set(Number(m[1]), Number(m[2]));
  }
  return out;
}

/** The ancestors of `pid` in a `ps` table, from its parent upward (./ancestors.ts: before pid 1, at a loop, after `max`). */
export function chainOf(parents: ReadonlyMap<number, number>, pid: number, max = 64): number[] {
  return ancestorsOf((p) => parents.get(p), pid, { max });
}
