import * as fs from 'fs';
import { hostPlatform } from '../../common/platform';
import { procStatFields } from '../../common/procStat';
import { type WindowsProcessTable, windowsProcessTable, windowsStartedBefore } from './windows';
import { LSTART_COLUMNS, parseLstart } from './darwin';
import { runTool } from './runTool';

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
 * from one `ps -o lstart` (to the second: two starts in the same second cannot be told apart), Windows from the CIM
 * table's CreationDate. Undefined where it cannot be told (a process gone, a table that could not be read, the
 * same second on macOS).
 */
export async function processStartedBefore(
  pid: number,
  than: number,
  platform: NodeJS.Platform = hostPlatform(),
  proc = '/proc',
  table: WindowsProcessTable = windowsProcessTable,
): Promise<boolean | undefined> {
  if (platform === 'linux') return startedBefore(pid, than, proc);
  if (platform === 'win32') return windowsStartedBefore(await table.read().catch(() => []), pid, than);
  if (platform !== 'darwin') return undefined;
  try {
    const starts = parseLstart(await runTool('ps', ['-o', LSTART_COLUMNS, '-p', `${pid},${than}`], { env: { TZ: 'UTC0' } }));
    const [a, b] = [starts.get(pid), starts.get(than)];
    return a === undefined || b === undefined || a === b ? undefined : a < b;
  } catch {
    return undefined;
  }
}
