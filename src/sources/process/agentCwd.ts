import { promises as fsp } from 'fs';
import { hostPlatform } from '../../common/platform';
import { lsofCwdArgs, parseLsofCwds } from './darwin';
import { runTool } from './runTool';

/**
 * The folder an agent process works in: what links its session log (which names that folder) to the terminal it
 * runs in. Linux reads each process's /proc/<pid>/cwd link; macOS asks lsof once for all the agents a scan found
 * (no /proc there, and the one documented alternative, proc_pidinfo, needs a native module). Windows does not
 * expose another process's working folder without reading its memory: none there.
 */

/** Whether an agent's folder can be read on this platform (otherwise the shell's folder is what there is). */
export function agentCwdReadable(platform: NodeJS.Platform = hostPlatform()): boolean {
  return platform === 'linux' || platform === 'darwin';
}

/** Processes asked about in one lsof call: more agents than any machine runs. */
const MAX_PIDS = 256;

/** pid → folder, for those of `pids` whose folder could be read (another user's, or one that ended, is left out). */
export async function agentCwds(
  pids: readonly number[],
  platform: NodeJS.Platform = hostPlatform(),
  proc = '/proc',
): Promise<Map<number, string>> {
  const wanted = [...new Set(pids)].filter((p) => Number.isInteger(p) && p > 0).slice(0, MAX_PIDS);
  if (!wanted.length) return new Map();
  if (platform === 'linux') {
    const read = await Promise.all(wanted.map(async (p) => [p, await fsp.readlink(`${proc}/${p}/cwd`).catch(() => undefined)] as const));
    return new Map(read.filter((e): e is readonly [number, string] => e[1] !== undefined));
  }
  // Windows exposes no other process's working folder (no Win32_Process property holds it): none there.
  if (platform !== 'darwin') return new Map();
  const found = parseLsofCwds(await runTool('lsof', lsofCwdArgs(wanted)).catch(() => ''));
  // lsof answers about the processes asked about only (-a); a stray line from another is not taken.
  return new Map([...found].filter(([p]) => wanted.includes(p)));
}
