import { hostPlatform } from './platform';
import * as l10n from '@vscode/l10n';
import * as fs from 'fs';
import * as path from 'path';
import { pidAlive } from './pidAlive';
import { outsideProfileReason } from './userProfile';

export interface AtomicOptions {
  /**
   * Runs after the temp file is complete and synced, right before the rename; throwing aborts the write (the
   * target stays as it was, the temp file is removed). Settings installers re-check the target here, so a
   * file an agent rewrote meanwhile is merged again instead of clobbered.
   */
  beforeRename?: () => void;
}

/**
 * Writes a file atomically: temp file in the same folder, fsync, rename over the target, fsync of the folder
 * (without it a crash right after the rename can bring back the old name on ext4/xfs). With `mode`, the temp
 * file has exactly that mode from its first byte (a settings file may hold API keys, a discovery file a
 * token: no copy is ever wider than the file); without it, 0644 narrowed by the umask.
 *
 * A failed write, fsync or rename removes its temp file before rethrowing. A writer killed between open and
 * rename leaves its temp file behind (the target stays the old version); the next write of the same file
 * removes such leftovers of processes that no longer run, so a crash never litters a user's settings folder
 * for good.
 */
export function writeFileAtomic(file: string, data: string | Buffer, mode?: number, opts: AtomicOptions = {}): void {
  const dir = path.dirname(file);
  const base = path.basename(file);
  removeDeadTemps(dir, base);
  const tmp = path.join(dir, `.${base}.${process.pid}.${Date.now()}.tmp`);
  const fd = fs.openSync(tmp, 'wx', mode ?? 0o644);
  try {
    try {
      if (mode !== undefined) fs.fchmodSync(fd, mode); // the umask narrowed the open's mode
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    opts.beforeRename?.();
    fs.renameSync(tmp, file);
  } catch (e) {
    // Best effort: the error that matters is the write's, not a failed clean-up.
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      /* the folder went read-only: the next write removes it as a dead writer's leftover */
    }
    throw e;
  }
  syncDir(dir);
}

/** Errors of platforms and file systems that cannot open or fsync a folder (Windows, some network mounts): nothing to do there. */
const NO_DIR_SYNC = new Set(['EINVAL', 'EISDIR', 'EPERM', 'EACCES', 'ENOTSUP', 'EBADF']);

/** Makes a rename in `dir` durable. Errors other than "cannot do that here" are thrown: the file was renamed but may not survive a crash. */
function syncDir(dir: string): void {
  let fd: number;
  try {
    fd = fs.openSync(dir, 'r');
  } catch (e) {
    if (NO_DIR_SYNC.has((e as NodeJS.ErrnoException).code ?? '')) return;
    throw e;
  }
  try {
    fs.fsyncSync(fd);
  } catch (e) {
    if (!NO_DIR_SYNC.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Why `dir` is not a folder only this user can change, or undefined when it is: it must be a real folder (not
 * a symlink), owned by this uid, and not writable by group or others. Whoever else can write a folder can
 * plant a symlink or swap a file in it between our check and our write. Windows has no such mode bits: there
 * the folder must be inside the user's profile, whose inherited ACL grants no other user anything
 * (src/common/userProfile.ts).
 */
export function unsafeDirReason(dir: string, platform: NodeJS.Platform = hostPlatform()): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch (e) {
    return `${dir}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
  }
  if (!st.isDirectory()) return `${dir} is not a folder${st.isSymbolicLink() ? ' (a symlink)' : ''}`;
  if (platform === 'win32') return outsideProfileReason(dir);
  if (typeof process.getuid !== 'function') return undefined;
  if (st.uid !== process.getuid()) return `${dir} belongs to uid ${st.uid}, not to this user (uid ${process.getuid()})`;
  if (st.mode & 0o022) return `${dir} is writable by its group or by others (mode ${(st.mode & 0o777).toString(8)}): run chmod go-w on it`;
  return undefined;
}

/** The temp files writeFileAtomic made for `base` in `dir`, with the pid that made each. */
export function atomicTemps(dir: string, base: string): { name: string; pid: number }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const prefix = `.${base}.`;
  const out: { name: string; pid: number }[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const m = /^(\d{1,10})\.\d{1,16}$/.exec(name.slice(prefix.length, -'.tmp'.length));
    if (m) out.push({ name, pid: Number(m[1]) });
  }
  return out;
}

function removeDeadTemps(dir: string, base: string): void {
  for (const t of atomicTemps(dir, base)) {
    if (t.pid === process.pid || pidAlive(t.pid)) continue;
    try {
      fs.rmSync(path.join(dir, t.name), { force: true });
    } catch {
      /* another writer removed it, or the folder is read-only: the write below still reports that */
    }
  }
}

/**
 * Why readRegularFile read nothing: `code` is the open's errno (ENOENT: no such file; ELOOP: a link it would not
 * follow) or ENOTREG (a FIFO, socket, device or folder) or EFBIG (over the size given).
 */
export class FileReadError extends Error {
  constructor(
    readonly file: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'FileReadError';
  }
}

export interface RegularReadOptions {
  /** Larger files are refused: by their size first, and by reading at most max + 1 bytes (a file that grows). */
  max: number;
  /** Follow a symbolic link in the last part of the path (to a regular file only). Default: a link there is refused. */
  followLink?: boolean;
  /** Read only the first `head` bytes (a marker line); the size limit still applies. */
  head?: number;
}

/**
 * Reads a file that must be a regular file of at most `o.max` bytes. Files a repository can plant are read
 * with it: a link to /dev/zero never ends and a FIFO blocks the open until a writer comes, either of which
 * would freeze the event loop (and grow without bound). O_NONBLOCK keeps a FIFO's open from waiting;
 * O_NOFOLLOW (unless followLink) refuses a link; fstat on the open descriptor decides what it really is.
 * Windows has neither flag: a link is followed there, and the fstat check still applies.
 */
export function readRegularFile(file: string, o: RegularReadOptions): Buffer {
  const c = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(file, c.O_RDONLY | (c.O_NONBLOCK ?? 0) | (o.followLink ? 0 : (c.O_NOFOLLOW ?? 0)));
  } catch (e) {
    throw openError(file, e as NodeJS.ErrnoException);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile())
      throw new FileReadError(
        file,
        'ENOTREG',
        l10n.t('{0} is {1}, not a regular file: Agent Lens reads it only as a regular file; replace it with one', file, kindOf(st)),
      );
    if (st.size > o.max) throw tooBig(file, st.size, o.max);
    const want = Math.min(o.head ?? o.max + 1, o.max + 1);
    const buf = Buffer.alloc(want);
    let n = 0;
    while (n < want) {
      const r = fs.readSync(fd, buf, n, want - n, null);
      if (r === 0) break;
      n += r;
    }
    if (o.head === undefined && n > o.max) throw tooBig(file, n, o.max);
    return buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

function openError(file: string, e: NodeJS.ErrnoException): FileReadError {
  const code = e.code ?? 'EIO';
  if (code === 'ENOENT') return new FileReadError(file, code, l10n.t('{0} does not exist', file));
  if (code === 'ELOOP')
    return new FileReadError(
      file,
      code,
      l10n.t('{0} is a symbolic link, which Agent Lens does not read through: put the file itself there', file),
    );
  // A Unix socket cannot be opened as a file at all.
  if (code === 'ENXIO')
    return new FileReadError(
      file,
      'ENOTREG',
      l10n.t('{0} is a socket or a device, not a regular file: Agent Lens reads it only as a regular file; replace it with one', file),
    );
  return new FileReadError(file, code, l10n.t('{0} cannot be opened ({1}): check that it is a readable file', file, code));
}

function tooBig(file: string, size: number, max: number): FileReadError {
  return new FileReadError(
    file,
    'EFBIG',
    l10n.t(
      '{0} is {1} KB, more than the {2} KB Agent Lens reads of it: shorten it',
      file,
      (size / 1024).toFixed(0),
      (max / 1024).toFixed(0),
    ),
  );
}

function kindOf(st: fs.Stats): string {
  if (st.isFIFO()) return l10n.t('a FIFO (named pipe)');
  if (st.isSocket()) return l10n.t('a socket');
  if (st.isCharacterDevice() || st.isBlockDevice()) return l10n.t('a device');
  if (st.isDirectory()) return l10n.t('a folder');
  return l10n.t('not a file');
}
