import { createHash } from 'crypto';
import * as path from 'path';
import { hostPlatform } from '../common/platform';

/**
 * The wait markers: what the reporter (src/integrations/reporter/reportParts.ts) writes while an agent has an open
 * wait, what the gated hook lines test, and what a window reloaded since reads to know whether a remembered wait is
 * still open (src/sources/terminal/terminalMemory.ts). One naming for all three, here in the hook layer they share.
 */

/**
 * The markers live beside the discovery file the terminal's `AGENT_LENS_HUB` names: `waiting/<name>` (markerName:
 * the agent's pid, on Windows its session) exists while that agent has an open wait the reporter reported.
 */
export function markerDir(discoveryFile: string): string {
  return path.join(path.dirname(discoveryFile), 'waiting');
}

/** Windows markers are named by session: `s-` and a hash of agent and session id (src/integrations/windowsHookLines.ts says why). */
export const SESSION_MARKER_PREFIX = 's-';

/**
 * The name of a wait marker. POSIX: the agent's pid, which the hook line reads as `$PPID` (the reporter runs by
 * `exec`, so its parent is the agent). Windows: the reporter's parent is the shell the agent started for this one
 * hook, and no Windows shell gives the agent's pid cheaply, so the marker is named by the session (a hash: a session
 * id is the agent's text), the same for the report that opens a wait and the one that closes it; a report without a
 * session id falls back to its parent's pid.
 */
export function markerName(
  agentPid: number,
  agent: string,
  sessionId: string | undefined,
  platform: NodeJS.Platform = hostPlatform(),
): string {
  if (platform !== 'win32' || !sessionId) return String(agentPid);
  return SESSION_MARKER_PREFIX + createHash('sha256').update(`${agent}\0${sessionId}`).digest('hex').slice(0, 32);
}
