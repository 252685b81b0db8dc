import * as fs from 'fs';
import * as path from 'path';

/**
 * Writes a file atomically: temp file in the same folder, fsync, rename over the target. With `mode`, the
 * temp file has exactly that mode from its first byte (a settings file may hold API keys, a discovery file a
 * token: no copy is ever wider than the file); without it, 0644 narrowed by the umask.
 *
 * A writer killed between open and rename leaves its temp file behind (the target stays the old version);
 * the next write of the same file removes such leftovers of processes that no longer run, so a crash never
 * litters a user's settings folder for good.
 */
export function writeFileAtomic(file: string, data: string | Buffer, mode?: number): void {
  const dir = path.dirname(file);
  const base = path.basename(file);
  removeDeadTemps(dir, base);
  const tmp = path.join(dir, `.${base}.${process.pid}.${Date.now()}.tmp`);
  const fd = fs.openSync(tmp, 'wx', mode ?? 0o644);
  try {
    if (mode !== undefined) fs.fchmodSync(fd, mode); // the umask narrowed the open's mode
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
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
