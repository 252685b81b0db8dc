import * as fs from 'fs';
import { procStatFields } from '../../common/procStat';

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
