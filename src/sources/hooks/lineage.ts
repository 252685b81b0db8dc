import { ancestorsOf } from '../../common/ancestors';
import type { TableRow } from '../process/procTypes';
import { processTable, type ProcessTable } from '../process/table';

/**
 * Where a report from Windows comes from. Its reporter sends no ancestry there (no cheap way to a process's parent)
 * and its `pid` is the shell the agent started for this one hook (PowerShell or cmd.exe), so the hub reads the
 * ancestry from the CIM process table (src/sources/process/windows.ts, read through table.ts): the hook's shell, the agent that ran it
 * (for Codex `codex.exe`, below the `codex.js` launcher the scan finds), the terminal's shell. The hook's shell
 * lives only while its report is being answered, so only a table read after the report arrived can hold it.
 */

/** A process's parents in a table, nearest first; ends with a parent the table has no row for, before an unlinked one (ppid ≤ 0) or a loop. */
export function ancestorsIn(rows: readonly Pick<TableRow, 'pid' | 'ppid'>[], pid: number, max = 64): number[] {
  const parent = new Map(rows.map((r) => [r.pid, r.ppid]));
  return ancestorsOf((p) => parent.get(p), pid, { above: 0, max });
}

/** What a terminal is known by: its shell, and the agent a scan found in it. */
export interface TerminalPids {
  shellPids: ReadonlyMap<number, string>;
  agentPids: ReadonlyMap<string, number>;
}

/**
 * The terminal whose shell is among `pids` (a report's process and its parents); else the one whose agent, as a scan
 * found it, is among them — the link from the agent up to the shell may be gone (a parent whose id Windows gave to a
 * newer process: src/sources/process/windows.ts linkParents). Shells first: an agent's pid is kept until the next
 * scan, and Windows reuses ids soon, so a pid the table shows under another terminal's shell is that terminal's.
 */
export function terminalAmong(pids: readonly number[], t: TerminalPids): string | undefined {
  for (const p of pids) {
    const id = t.shellPids.get(p);
    if (id) return id;
  }
  const byAgent = new Map([...t.agentPids].map(([id, pid]) => [pid, id]));
  for (const p of pids) {
    const id = byAgent.get(p);
    if (id) return id;
  }
  return undefined;
}

/** How old a shared table may be for a report whose process an earlier table could hold (a plugin's agent). */
const SHARED_AGE_MS = 2000;
/** Reads tried for one report: one that started before the hook's shell may lack it. */
const READS = 2;

/**
 * The ancestry of a report's process on Windows, or undefined when no table read in `budgetMs` holds it. The
 * scan's shared table serves when it already has the process; otherwise tables are read now (a shared table up to
 * seconds old cannot hold a shell that started since), and each read becomes the shared table.
 */
export class WindowsLineage {
  constructor(
    private readonly shared: Pick<ProcessTable, 'latest'> = processTable('win32')!,
    private readonly fresh: Pick<ProcessTable, 'read'> = processTable('win32')!,
    private readonly now: () => number = Date.now,
  ) {}

  ancestry = async (pid: number, budgetMs: number): Promise<number[] | undefined> => {
    const known = this.shared.latest(SHARED_AGE_MS);
    if (known?.some((p) => p.pid === pid)) return ancestorsIn(known, pid);
    const deadline = this.now() + budgetMs;
    for (let i = 0; i < READS && this.now() < deadline; i++) {
      const rows = await Promise.race([this.fresh.read().catch(() => undefined), sleep(deadline - this.now())]);
      if (rows?.some((p) => p.pid === pid)) return ancestorsIn(rows, pid);
    }
    return undefined;
  };
}

function sleep(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), Math.max(0, ms)).unref());
}
