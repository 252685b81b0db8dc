import * as path from 'path';
import type { ProcInfo } from '../process/processTree';

/** How far below a terminal's shell the agent process may sit (seed 002 §2: up to four parents). */
export const MAX_DEPTH = 4;

/** Whether a process is the registry's `process`: its name, or the program or script it runs (`node …/claude`, `bash agent.sh`). */
export function isProcess(p: ProcInfo, name: string): boolean {
  const want = name.toLowerCase().replace(/\.exe$/, '');
  const base = (s: string | undefined) => (s ? path.basename(s).toLowerCase().replace(/\.(exe|cmd|js|mjs|cjs|sh|py)$/, '') : '');
  return base(p.name) === want || base(p.args[0]) === want || (p.args.length > 1 && !p.args[1].startsWith('-') && base(p.args[1]) === want);
}

/** The first process named `name` at most MAX_DEPTH levels below `root` (nearest first), among `root`'s descendants. */
export function findProcess(procs: readonly ProcInfo[], root: number, name: string): ProcInfo | undefined {
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const depth = (p: ProcInfo): number => {
    let d = 1;
    for (let cur = p; cur.ppid !== root; d++) {
      const up = byPid.get(cur.ppid);
      if (!up || d > MAX_DEPTH) return Infinity;
      cur = up;
    }
    return d;
  };
  let best: { p: ProcInfo; d: number } | undefined;
  for (const p of procs) {
    if (!isProcess(p, name)) continue;
    const d = depth(p);
    if (d <= MAX_DEPTH && (!best || d < best.d)) best = { p, d };
  }
  return best?.p;
}

/** A terminal name matches a `window_hint` when it contains it, ignoring case (titles get suffixes like "claude | task"). */
export function matchesHint(title: string, hint: string | undefined): boolean {
  return !!hint && title.toLowerCase().includes(hint.toLowerCase());
}
