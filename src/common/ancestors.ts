/**
 * A process's ancestors from its parent upward, through whatever knows a process's parent (/proc, a `ps` table,
 * Windows' CIM table): one walk for the reporter, the hub's peer check and the Windows lineage. It stops at the
 * platform's floor (`above`: Linux and macOS stop before pid 1, init; Windows before 0, the idle process), at a
 * loop (a parent link back into the chain, which a reused Windows id can make), at an unknown parent, or after `max`.
 */
export function ancestorsOf(
  parentOf: (pid: number) => number | undefined,
  pid: number,
  opts: { above?: number; max?: number } = {},
): number[] {
  const above = opts.above ?? 1;
  const max = opts.max ?? 64;
  const out: number[] = [];
  for (let cur = parentOf(pid); cur !== undefined && cur > above && out.length < max; cur = parentOf(cur)) {
    if (cur === pid || out.includes(cur)) break;
    out.push(cur);
  }
  return out;
}
