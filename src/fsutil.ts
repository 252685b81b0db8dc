import * as fs from 'fs';
import * as path from 'path';

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
 * plant a symlink or swap a file in it between our check and our write. Windows has no such mode bits: not
 * checked there.
 */
export function unsafeDirReason(dir: string): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch (e) {
    return `${dir}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
  }
  if (!st.isDirectory()) return `${dir} is not a folder${st.isSymbolicLink() ? ' (a symlink)' : ''}`;
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return undefined;
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
    if (t.pid === process.pid || alive(t.pid)) continue;
    try {
      fs.rmSync(path.join(dir, t.name), { force: true });
    } catch {
      /* another writer removed it, or the folder is read-only: the write below still reports that */
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, as another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
