import * as fs from 'fs';
import { hostPlatform } from '../../common/platform';
import { procStatFields } from '../../common/procStat';
import { LSTART_COLUMNS, parseLstart } from './darwin';
import { runTool } from './runTool';
import type { TableRow } from './procTypes';
import { type ProcessTable, processTable, SCAN_AGE_MS } from './table';

/** When a process started, in clock ticks after boot (Linux `/proc/<pid>/stat`, field 22); undefined elsewhere or once it is gone. */
export function startTicks(pid: number, proc = '/proc'): number | undefined {
  try {
    const v = procStatFields(fs.readFileSync(`${proc}/${pid}/stat`, 'latin1'))?.field(22);
    return Number.isInteger(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `pid` started before `than` (undefined: cannot tell, off Linux or a process gone). */
export function startedBefore(pid: number, than: number, proc = '/proc'): boolean | undefined {
  const a = startTicks(pid, proc);
  const b = startTicks(than, proc);
  return a === undefined || b === undefined ? undefined : a < b;
}

/**
 * Whether `pid` started before `than`, on any platform that can say: Linux from /proc (to the clock tick), macOS
 * from one `ps -o lstart` (to the second: two starts in the same second cannot be told apart; its ps table has no
 * start), elsewhere from the scan's table where its rows carry their start (Windows: CreationDate). Undefined where
 * it cannot be told (a process gone, a table that could not be read, the same second on macOS).
 */
export async function processStartedBefore(
  pid: number,
  than: number,
  platform: NodeJS.Platform = hostPlatform(),
  proc = '/proc',
  table: ProcessTable | undefined = processTable(platform),
): Promise<boolean | undefined> {
  if (platform === 'linux') return startedBefore(pid, than, proc);
  if (platform === 'darwin') return lstartBefore(pid, than);
  const rows = await table?.rowsFor([pid, than], SCAN_AGE_MS).catch(() => undefined);
  return rows && startedBeforeIn(rows, pid, than);
}

/** macOS: both starts from one `ps -o lstart`, in UTC. */
async function lstartBefore(pid: number, than: number): Promise<boolean | undefined> {
  try {
    const starts = parseLstart(await runTool('ps', ['-o', LSTART_COLUMNS, '-p', `${pid},${than}`], { env: { TZ: 'UTC0' } }));
    return earlier(starts.get(pid), starts.get(than));
  } catch {
    return undefined;
  }
}

/**
 * Whether `pid` started before `than`, from the table rows' `started` (Windows' CreationDate); undefined when
 * either is missing from the table or has no start.
 */
export function startedBeforeIn(rows: readonly TableRow[], pid: number, than: number): boolean | undefined {
  return earlier(rows.find((p) => p.pid === pid)?.started, rows.find((p) => p.pid === than)?.started);
}

/** a before b, from two clock readings; undefined when one is missing or both read the same (that clock cannot tell). */
function earlier(a: number | undefined, b: number | undefined): boolean | undefined {
  return a === undefined || b === undefined || a === b ? undefined : a < b;
}
