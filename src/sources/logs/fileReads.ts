/**
 * The tailer's read engine: per file, read the bytes from its offset to its current size (synchronously in
 * the watch callback for small appends, else asynchronously, a bounded buffer at a time), detect rotation and
 * truncation by identity and size, split into lines, and hand them on. Errors are logged once per file and
 * kind and never thrown. The folder side (what to read, when) is in tailer.ts.
 */
import * as fs from 'fs';
import * as fsp from 'fs/promises';
import type { LineSplitter } from '../../jsonl/lines';

const KiB = 1024;
const READ_CHUNK = 1024 * KiB;
/** Bounds open file handles when many files change at once (EMFILE). */
const MAX_PARALLEL_READS = 16;
/** Appends up to this size are read synchronously in the watch callback (see `readNow`). */
const SYNC_READ_MAX = 256 * KiB;
/** A synchronous read that took longer (a slow or network file system): read asynchronously from then on. */
const SLOW_SYNC_MS = 20;
/** The longest first line whose rewrite is followed (droid's is one `session_start` record, well under 1 KiB). */
const HEAD_MAX = 64 * KiB;
/** Reads of such a file per run: chunks, and passes again after a rewrite under the read. */
const HEAD_PASSES = 8;
/** Out of file handles: try again later rather than losing the change. */
const RETRY_MS = 1000;

/** Work that runs at most once at a time; a request during a run makes exactly one more run. */
export interface Run {
  running?: Promise<void>;
  again: boolean;
}

export interface ReadFile extends Run {
  readonly path: string;
  dev: number;
  ino: number;
  /** Next byte to read. For a file not read yet that existed at start: its size then. */
  offset: number;
  /** Existed at start and not read yet: begin at the backlog tail rather than at `offset`. */
  fromBacklog: boolean;
  /** Existed at start but too old: not read until its size or identity changes. */
  dormant: boolean;
  /** The read began mid-line (backlog tail): drop bytes up to the first newline. */
  skipPartial: boolean;
  /**
   * Only for a file whose writer rewrites its first line in place (droid's title): that line's length in bytes
   * with its newline, as of the offset (-1: not looked at yet). See `followHead`.
   */
  head?: number;
  readonly splitter: LineSplitter;
  /** Retry after running out of file handles. */
  retry?: NodeJS.Timeout;
  /** Removed from the map: a read still in flight must not deliver. */
  gone: boolean;
  errors?: Set<string>;
}

/** What the engine needs from the tailer. */
export interface ReadHost {
  readonly disposed: boolean;
  readonly backlog: number;
  onLines(file: string, lines: string[]): void;
  onTail?(file: string): void;
  onReset?(file: string): void;
  /** A read found the file gone: the tailer decides whether it was removed or replaced. */
  verify(f: ReadFile): void;
  log(level: 'debug' | 'info' | 'warn', msg: string): void;
}

export class FileReads {
  bytesRead = 0;
  lineCount = 0;
  private activeReads = 0;
  private readonly waiting: (() => void)[] = [];
  /** See `readNow`; off for good once a synchronous read was slow. */
  private syncReads = true;
  private inSyncRead = false;
  /** The synchronous reads' buffer (one at a time; the splitter copies what it keeps). */
  private scratch?: Buffer;

  constructor(private readonly host: ReadHost) {}

  /** Drops the synchronous reads' buffer. */
  dispose(): void {
    this.scratch = undefined;
  }

  forget(f: ReadFile): void {
    f.gone = true;
    clearTimeout(f.retry);
  }

  private retryLater(f: ReadFile): void {
    if (f.retry) return;
    f.retry = setTimeout(() => {
      f.retry = undefined;
      if (!f.gone && !this.host.disposed) void this.read(f);
    }, RETRY_MS);
    f.retry.unref();
  }

  /**
   * The event path. The file was just written, so its new bytes are in the page cache and reading them
   * synchronously costs a few syscalls, where the same four steps through the thread pool (open, stat,
   * read, close) cost several times the CPU of the bytes themselves (measured ~30 µs against ~230 µs per
   * append). A read in flight, a big read and a file system that turned out slow take the asynchronous path.
   */
  readNow(f: ReadFile): void {
    if (f.head !== undefined || !this.syncReads || this.inSyncRead || f.running || f.gone || this.host.disposed) return void this.read(f);
    this.inSyncRead = true;
    let done: boolean;
    try {
      done = this.readSync(f);
    } finally {
      this.inSyncRead = false;
    }
    if (!done) void this.read(f);
  }

  /** False: too much to read at once, left to the asynchronous read. Never throws. */
  private readSync(f: ReadFile): boolean {
    // Only the syscalls are timed: the consumer's work (in `deliver`) says nothing about the file system.
    let t0 = performance.now();
    let ioMs = 0;
    let fd: number | undefined;
    try {
      fd = fs.openSync(f.path, 'r');
      const s = fs.fstatSync(fd);
      ioMs += performance.now() - t0;
      if (!this.prepare(f, s)) return true;
      if (s.size - f.offset > SYNC_READ_MAX) return false;
      const buf = (this.scratch ??= Buffer.allocUnsafeSlow(SYNC_READ_MAX));
      while (f.offset < s.size && !f.gone) {
        t0 = performance.now();
        const n = fs.readSync(fd, buf, 0, Math.min(buf.length, s.size - f.offset), f.offset);
        ioMs += performance.now() - t0;
        if (n === 0) break; // truncated under us: the next read sees size < offset
        f.offset += n;
        this.bytesRead += n;
        this.deliver(f, buf.subarray(0, n));
      }
    } catch (e) {
      this.failed(f, e);
    } finally {
      if (fd !== undefined) {
        try {
          fs.closeSync(fd);
        } catch {}
      }
      if (ioMs > SLOW_SYNC_MS && this.syncReads) {
        this.syncReads = false;
        this.host.log('info', `reading ${f.path} took ${ioMs.toFixed(0)} ms: reading logs asynchronously from now on`);
      }
    }
    return true;
  }

  /** At most one read in flight per file; a change during a read schedules exactly one more. */
  read(f: ReadFile): Promise<void> {
    if (f.gone || this.host.disposed) return Promise.resolve();
    return coalesce(
      f,
      async () => {
        await this.acquire();
        try {
          await this.readOnce(f);
        } finally {
          this.release();
        }
      },
      () => !f.gone && !this.host.disposed,
    );
  }

  /** Never throws: errors are logged once per file and kind. */
  private async readOnce(f: ReadFile): Promise<void> {
    if (f.gone || this.host.disposed) return;
    const fh = await fsp.open(f.path, 'r').catch((e: unknown) => void this.failed(f, e));
    if (!fh) return;
    try {
      if (f.head !== undefined) return await this.readFollowingHead(f, fh);
      const s = await fh.stat();
      if (this.prepare(f, s)) await this.readRange(f, fh, s.size);
    } catch (e) {
      this.failed(f, e);
    } finally {
      await fh.close().catch(() => undefined);
    }
  }

  /**
   * A file whose first line is rewritten in place (droid writes the whole file again with a longer or shorter
   * title: same inode, every later line moved). The offset moves by as much as the first line's length changed,
   * so reading goes on at the same line, neither re-reading the end of the last one nor skipping any. What was
   * read is handed on only if the first line kept its length meanwhile: a rewrite during the read moved the bytes
   * under it, so they are read again at the moved offset. While the file is being rewritten (truncated to
   * nothing, not all written back yet) nothing is read: the rewrite's own write event reads it again, so such a
   * file is never taken for truncated (its writer never truncates it for good). Only these files pay the extra
   * reads of their head, and they are read asynchronously only.
   */
  private async readFollowingHead(f: ReadFile, fh: fsp.FileHandle): Promise<void> {
    for (let pass = 0; pass < HEAD_PASSES && !f.gone && !this.host.disposed; pass++) {
      const s = await fh.stat();
      if (!(await this.followHead(f, fh, s)) || !this.prepare(f, s)) return;
      const buf = Buffer.allocUnsafe(Math.min(READ_CHUNK, s.size - f.offset));
      const { bytesRead } = await fh.read(buf, 0, buf.length, f.offset);
      if ((await headLength(fh)) !== f.head) continue;
      f.offset += bytesRead;
      this.bytesRead += bytesRead;
      this.deliver(f, buf.subarray(0, bytesRead));
      if (f.offset >= s.size) return;
    }
    f.again = true; // more to read, or rewritten on every pass: once more
  }

  /** Moves the offset by the change of the first line's length. False: no whole first line (being rewritten). */
  private async followHead(f: ReadFile, fh: fsp.FileHandle, s: fs.Stats): Promise<boolean> {
    if (s.ino !== f.ino || s.dev !== f.dev) return true; // replaced: prepare() reads it from the start
    const head = await headLength(fh);
    if (head === undefined) return false;
    // -1: not looked at yet, or a first line too long to follow (read as any file).
    const offset = f.head !== undefined && f.head >= 0 && head >= 0 ? f.offset + head - f.head : f.offset;
    if (s.size < offset) return false;
    if (offset !== f.offset) this.host.log('debug', `${f.path}: its first line was rewritten (${f.head} → ${head} bytes): following it`);
    f.offset = offset;
    f.head = head;
    return true;
  }

  /** Detects rotation and truncation, wakes dormant files, seeks to the backlog tail. False: nothing to read. */
  private prepare(f: ReadFile, s: fs.Stats): boolean {
    if (s.ino !== f.ino || s.dev !== f.dev || s.size < f.offset) {
      const why = s.ino !== f.ino || s.dev !== f.dev ? 'replaced' : 'truncated';
      this.host.log('debug', `${f.path} ${why}: reading it from the start`);
      Object.assign(f, { ino: s.ino, dev: s.dev, offset: 0, fromBacklog: false, dormant: false, skipPartial: false });
      f.splitter.reset();
      this.call(f, () => this.host.onReset?.(f.path));
    }
    if (f.dormant) {
      if (s.size === f.offset) return false;
      f.dormant = false;
    }
    if (f.fromBacklog) {
      f.fromBacklog = false;
      // Everything appended since start, and at least the last `backlog` bytes of history.
      const start = Math.max(0, Math.min(f.offset, s.size - this.host.backlog));
      // Start one byte early: if that byte is the newline, `start` is a line start and nothing is lost.
      f.offset = Math.max(0, start - 1);
      f.skipPartial = start > 0;
      if (start > 0) this.call(f, () => this.host.onTail?.(f.path));
    }
    return f.offset < s.size;
  }

  /** Reads [offset, size) a bounded buffer at a time; bytes appended meanwhile come with the next event. */
  private async readRange(f: ReadFile, fh: fsp.FileHandle, size: number): Promise<void> {
    while (f.offset < size && !f.gone && !this.host.disposed) {
      const want = Math.min(READ_CHUNK, size - f.offset);
      // A fresh buffer per read: reads of different files run concurrently, a shared one would be clobbered.
      const buf = Buffer.allocUnsafe(want);
      const { bytesRead } = await fh.read(buf, 0, want, f.offset);
      if (bytesRead === 0) return; // truncated under us: the next read sees size < offset
      f.offset += bytesRead;
      this.bytesRead += bytesRead;
      this.deliver(f, buf.subarray(0, bytesRead));
    }
  }

  private deliver(f: ReadFile, chunk: Buffer): void {
    if (f.skipPartial) {
      const nl = chunk.indexOf(0x0a);
      if (nl < 0) return;
      f.skipPartial = false;
      chunk = chunk.subarray(nl + 1);
    }
    const dropped = f.splitter.oversized;
    const lines = f.splitter.push(chunk);
    if (f.splitter.oversized !== dropped)
      this.logOnce((f.errors ??= new Set()), 'oversized', 'warn', `${f.path}: skipped a line longer than 16 MiB`);
    if (lines.length === 0 || f.gone) return;
    this.lineCount += lines.length;
    this.call(f, () => this.host.onLines(f.path, lines));
  }

  private failed(f: ReadFile, e: unknown): void {
    const c = code(e);
    this.logOnce((f.errors ??= new Set()), c, c === 'ENOENT' ? 'debug' : 'warn', `reading ${f.path}: ${String(e)}`);
    // ENOENT: it vanished mid-read; its folder's watch reports that too, but a lost event must not leave it followed.
    if (c === 'ENOENT') this.host.verify(f);
    if (c === 'EMFILE' || c === 'ENFILE' || c === 'EAGAIN') this.retryLater(f);
  }

  private async acquire(): Promise<void> {
    if (this.activeReads < MAX_PARALLEL_READS) return void this.activeReads++;
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot straight to the next waiter, so `activeReads` never overshoots. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.activeReads--;
  }

  /** A throwing consumer must not stop the tailer. */
  call(f: ReadFile, fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.logOnce((f.errors ??= new Set()), 'consumer', 'warn', `consumer failed on ${f.path}: ${String(e)}`);
    }
  }

  logOnce(seen: Set<string>, key: string, level: 'debug' | 'info' | 'warn', msg: string): void {
    if (!seen.has(key)) this.host.log(level, msg);
    seen.add(key);
  }
}

/** The length in bytes of a file's first line with its newline; undefined without one (within HEAD_MAX: -1). */
async function headLength(fh: fsp.FileHandle): Promise<number | undefined> {
  const buf = Buffer.allocUnsafe(HEAD_MAX);
  const { bytesRead } = await fh.read(buf, 0, HEAD_MAX, 0);
  const nl = buf.subarray(0, bytesRead).indexOf(0x0a);
  if (nl >= 0) return nl + 1;
  return bytesRead === HEAD_MAX ? -1 : undefined;
}

export function coalesce(r: Run, fn: () => Promise<void>, more: () => boolean): Promise<void> {
  if (r.running) {
    r.again = true;
    return r.running;
  }
  r.running = (async () => {
    do {
      r.again = false;
      await fn();
    } while (r.again && more());
  })().finally(() => (r.running = undefined));
  return r.running;
}

export function code(e: unknown): string {
  return (e as NodeJS.ErrnoException)?.code ?? 'error';
}
