import * as fs from 'fs';
import * as os from 'os';
import { isPathInside, platformPath } from './paths';

/*
 * Which folders are this user's alone on Windows, where files have no mode bits: a file or folder gets the ACL its
 * parent hands down. The user's profile (%USERPROFILE%, C:\Users\<name>) is created with an ACL that grants only
 * the user, SYSTEM and the Administrators group, and everything made inside inherits it — so the discovery file
 * (it holds the hub's token) and `<home>\bin` (every agent's hooks run what is in it) are private there without
 * any ACL being written. Outside it they are not: a folder made at C:\ or on a second drive inherits an ACL that
 * lets every signed-in user ("Authenticated Users") create and change files in it.
 *
 * Besides the profile, %LOCALAPPDATA% and %APPDATA% count: they are inside it unless an administrator redirected
 * them (Folder Redirection, whose default grants the user exclusive rights to the redirected folder). Anything
 * else is refused rather than read through `icacls` or Get-Acl: the reporter checks its folders on every hook,
 * where starting PowerShell would cost a second.
 */

/** The folders whose default ACL grants only this user, SYSTEM and Administrators; the profile first. */
export function privateRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  const win = platformPath('win32');
  // os.homedir() is %USERPROFILE% on Windows (libuv reads it first); the variable itself is read so the unit
  // suite, forced to win32 on Linux, can say where its temporary folders' "profile" is (test/platform/force.cjs).
  const roots = [env.USERPROFILE || os.homedir(), env.LOCALAPPDATA, env.APPDATA];
  return roots.filter((r): r is string => !!r && win.isAbsolute(r));
}

/**
 * Why `dir` is not private on Windows (undefined when it is): it, or where its links and junctions lead, must be
 * inside the user's profile or its AppData folders (privateRoots). The folder itself must already exist.
 */
export function outsideProfileReason(
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
  realpath: (p: string) => string = fs.realpathSync.native,
): string | undefined {
  const roots = privateRoots(env);
  if (!roots.length) return `${dir}: the user profile is unknown (USERPROFILE is not set), so no folder can be known to be private`;
  const real = (p: string): string => {
    try {
      return realpath(p);
    } catch {
      return p; // gone or unreadable: compared as written
    }
  };
  // A junction on the way (C:\Users\x\link -> D:\shared) would put the files outside while the name looks inside.
  const where = real(dir);
  const inside = (d: string) => roots.some((r) => isPathInside(r, d, 'win32') || isPathInside(real(r), d, 'win32'));
  if (inside(dir) && inside(where)) return undefined;
  const shown = where === dir ? dir : `${dir} (really ${where})`;
  return (
    `${shown} is outside your user profile ${roots[0]}: Windows gives a folder there the permissions of its parent, which may ` +
    `let other users read or change what Agent Lens keeps in it (the hub's token, the hook programs); ` +
    `set AGENT_LENS_HOME to a folder under ${roots[0]}, or leave it unset`
  );
}
