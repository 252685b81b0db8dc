import * as fs from 'fs';
import { hostPlatform } from '../../common/platform';
import { procStatFields } from '../../common/procStat';
import { type WindowsProcessTable, windowsProcessTable, windowsStartedBefore } from './windows';

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
 * Whether `pid` started before `than` on this host: /proc's start ticks on Linux (startedBefore), the CIM table's
 * CreationDate on Windows; undefined where neither can tell (a process gone, a table that could not be read).
 */
export async function startedBeforeOnHost(
  pid: number,
  than: number,
  platform: NodeJS.Platform = hostPlatform(),
  table: WindowsProcessTable = windowsProcessTable,
): Promise<boolean | undefined> {
  if (platform !== 'win32') return startedBefore(pid, than);
  return windowsStartedBefore(await table.read().catch(() => []), pid, than);
}
