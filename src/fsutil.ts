import * as fs from 'fs';
import * as path from 'path';

/**
 * Writes a file atomically: temp file in the same folder, fsync, rename over the target. With `mode`, the
 * temp file has exactly that mode from its first byte (a settings file may hold API keys, a discovery file a
 * token: no copy is ever wider than the file); without it, 0644 narrowed by the umask.
 */
export function writeFileAtomic(file: string, data: string | Buffer, mode?: number): void {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
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
