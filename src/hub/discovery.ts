import * as fs from 'fs';
import * as path from 'path';
import { writeFileAtomic } from '../common/fsutil';
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
 * Writes the discovery file readable by this user only (0600 from the temp file's first byte, then renamed
 * over the old one), so a reader never sees half a file or a moment of wider permissions.
 */
export function writeDiscovery(file: string, d: Discovery): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
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
