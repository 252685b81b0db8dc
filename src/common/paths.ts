import * as path from 'path';
import { hostPlatform } from './platform';

/*
 * Paths as text, for the platform the readers are written for (src/common/platform.ts).
 *
 * Two kinds of paths live in this code base. Those that name files on this machine and go to `fs` are built with
 * Node's own `path`, which is path.win32 on Windows: right on each real host, and a test can create them. Those
 * that come from other programs and are compared as text — the folder an agent's log or hook names, VS Code's
 * `Uri.fsPath` of a terminal's folder, a process table — are compared here, with the rules of the platform they
 * were written on: on Windows, `C:\Users\x` and `c:/users/x/` are one folder (NTFS is case-insensitive, and
 * VS Code's fsPath lowers the drive letter while Node's process.cwd() keeps it upper), `\\?\C:\x` is `C:\x`,
 * and `\\?\UNC\srv\share` is `\\srv\share`.
 */

/** path.win32 or path.posix, as the platform the readers are written for. */
export function platformPath(platform: NodeJS.Platform = hostPlatform()): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** Longest path text compared: Windows' own limit is 32,767 characters. */
const MAX_PATH_TEXT = 32_768;

/**
 * The form two paths are compared in: separators and `.`/`..` normalised, trailing separators cut (not a
 * root's), and on Windows the long-path prefix dropped and case folded. Lexical only: no file is read.
 */
export function pathKey(p: string, platform: NodeJS.Platform = hostPlatform()): string {
  const s = p.length > MAX_PATH_TEXT ? p.slice(0, MAX_PATH_TEXT) : p;
  if (platform !== 'win32') return trimTrailing(path.posix.normalize(s), '/');
  let n = path.win32.normalize(s);
  // \\?\C:\x and \\?\UNC\srv\share\x name what C:\x and \\srv\share\x name (Rust's canonicalize writes them).
  if (/^\\\\\?\\UNC\\/i.test(n)) n = `\\\\${n.slice(8)}`;
  else if (/^\\\\\?\\[A-Za-z]:/.test(n)) n = n.slice(4);
  return trimTrailing(n, '\\').toLowerCase();
}

/** Cuts trailing separators, keeping a root's (`/`, `C:\`, `\\srv\share\`). */
function trimTrailing(p: string, sep: '/' | '\\'): string {
  const root = (sep === '\\' ? path.win32 : path.posix).parse(p).root;
  let end = p.length;
  while (end > root.length && p[end - 1] === sep) end--;
  return p.slice(0, end);
}

/** Whether two paths name the same folder or file as text, by the platform's rules (see pathKey). */
export function samePath(a: string, b: string, platform: NodeJS.Platform = hostPlatform()): boolean {
  return pathKey(a, platform) === pathKey(b, platform);
}

/** Whether `p` is `dir` or below it, as text by the platform's rules; with `strict`, below it only. */
export function isPathInside(dir: string, p: string, platform: NodeJS.Platform = hostPlatform(), strict = false): boolean {
  const d = pathKey(dir, platform);
  const k = pathKey(p, platform);
  if (k === d) return !strict;
  const sep = platform === 'win32' ? '\\' : '/';
  return k.startsWith(d.endsWith(sep) ? d : d + sep);
}

/**
 * Whether a file name is one Windows keeps for a device in every folder: `CON`, `PRN`, `AUX`, `NUL`, `COM1`–`COM9`,
 * `LPT1`–`LPT9` (and the superscript digits), alone, with trailing spaces, or with any extensions (`NUL.tar.gz`)
 * (https://learn.microsoft.com/windows/win32/fileio/naming-a-file). Opening `reports\COM1.md` opens a port.
 */
export function isWindowsDeviceName(name: string): boolean {
  return /^(?:con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])(?:\..*| *)$/i.test(name.length > 64 ? '' : name);
}
