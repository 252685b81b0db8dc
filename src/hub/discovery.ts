import * as fs from 'fs';
import * as path from 'path';
import { unsafeDirReason, writeFileAtomic } from '../common/fsutil';
import { hostPlatform } from '../common/platform';
import { pidAlive } from '../common/pidAlive';

/** What a terminal's `AGENT_LENS_HUB` file holds: where this window's hub listens and its token. */
export interface Discovery {
  v: 1;
  port: number;
  token: string;
  /** The extension host that runs the hub (a stale file names a process that is gone). */
  pid: number;
}

/**
 * Makes the discovery file's folder (0700) and refuses it where the file's own 0600 would not keep the token
 * private: on Windows, which has no mode bits, the file gets its folder's ACL, so the folder must be inside the
 * user's profile (src/common/userProfile.ts). Called before the hub listens, so a refused folder leaves no hub.
 */
export function discoveryFolder(file: string, platform: NodeJS.Platform = hostPlatform()): string {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const unsafe = platform === 'win32' ? unsafeDirReason(dir, platform) : undefined;
  if (unsafe) throw new Error(`refusing to write the hub's discovery file, which holds its token: ${unsafe}`);
  return dir;
}

/**
 * Writes the discovery file readable by this user only (0600 from the temp file's first byte, then renamed
 * over the old one), so a reader never sees half a file or a moment of wider permissions; on Windows, in a
 * folder of the user's profile (discoveryFolder).
 */
export function writeDiscovery(file: string, d: Discovery, platform: NodeJS.Platform = hostPlatform()): void {
  discoveryFolder(file, platform);
  writeFileAtomic(file, `${JSON.stringify(d)}\n`, 0o600);
}

/**
 * The discovery file's content, or undefined when it is missing, not ours, or stale: its `pid` no longer runs.
 * Every client sends the token to the file's port, so a file a crashed hub left behind must not count: another
 * program may have taken that port since and would be handed the token. Never throws.
 */
export function readDiscovery(file: string | undefined): Discovery | undefined {
  const d = parseDiscovery(file);
  return d && pidAlive(d.pid) ? d : undefined;
}

/** The file's content without the liveness check (removing our own file must work even when it is stale). */
function parseDiscovery(file: string | undefined): Discovery | undefined {
  if (!file) return undefined;
  try {
    const d = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Discovery>;
    if (d.v === 1 && Number.isInteger(d.port) && typeof d.token === 'string' && d.token.length > 0 && Number.isInteger(d.pid) && d.pid! > 0)
      return d as Discovery;
  } catch {
    /* missing or garbled: no hub */
  }
  return undefined;
}

// A discovery file whose pid is gone is stale; a pid reused by a process of our own user still passes, and the
// token check on the hub's side is what remains then.
export { pidAlive };

/** Removes the discovery file if it still names this hub (another window may have taken the path since). */
export function removeDiscovery(file: string, token: string): void {
  if (parseDiscovery(file)?.token === token) fs.rmSync(file, { force: true });
}
