// The files of one database read as a consistent set of pages: the main file plus the committed
// frames of its WAL. Opened read-only, never locked, the -shm file never touched.
import * as fs from 'fs';
import type { PageSource } from './btree';
import { emptyWal, extendWal, OpenCodeDbError, readWalHeader, type WalState } from './wal';

/** Enough of a stat to tell whether a file changed: OpenCode's commits always grow or rewrite the WAL. */
export interface Stamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

/** undefined when the file does not exist. */
export function stampOf(path: string): Stamp | undefined {
  try {
    const s = fs.statSync(path);
    return { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new OpenCodeDbError(`opencode.db: cannot stat ${path}: ${(e as Error).message}`);
  }
}

export function sameStamp(a: Stamp | undefined, b: Stamp | undefined): boolean {
  return a === b || (!!a && !!b && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino);
}

function openOptional(path: string): number | undefined {
  try {
    return fs.openSync(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new OpenCodeDbError(`opencode.db: cannot open ${path}: ${(e as Error).message}`);
  }
}

function readInto(fd: number, pos: number, buf: Buffer, len: number): boolean {
  let got = 0;
  while (got < len) {
    const n = fs.readSync(fd, buf, got, len - got, pos + got);
    if (n === 0) return false;
    got += n;
  }
  return true;
}

const MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/** Page size, reserved bytes and header page count of the main file; undefined if it has no header yet. */
function mainHeader(fd: number): { pageSize: number; reserved: number; pages: number } | undefined {
  const h = Buffer.alloc(100);
  if (!readInto(fd, 0, h, 100)) return undefined;
  if (!h.subarray(0, 16).equals(MAGIC)) throw new OpenCodeDbError('opencode.db: not a SQLite database (bad header)');
  const raw = h.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) throw new OpenCodeDbError(`opencode.db: bad page size ${raw}`);
  if (h.readUInt32BE(56) > 1) throw new OpenCodeDbError('opencode.db: only UTF-8 databases are supported');
  // The in-header page count is only trustworthy when "version-valid-for" matches the change counter.
  const pages = h.readUInt32BE(92) === h.readUInt32BE(24) ? h.readUInt32BE(28) : 0;
  return { pageSize, reserved: h[20], pages };
}

/** Where a reader left off in the WAL; kept between polls so each poll reads only new frames. */
export interface WalCursor {
  wal?: WalState;
  ino?: number;
}

/** What opening a snapshot found out about the WAL since the previous snapshot. */
export interface Opened {
  src: Snapshot;
  /** Pages committed since the cursor's position, or 'all' when the history in between is unknown. */
  changed: Set<number> | 'all';
}

/**
 * After OpenCode checkpointed and restarted its WAL, the frames committed between our last read and
 * the checkpoint are gone from the new generation, but usually still physically present further back
 * in the file (a restart rewrites the log from its start and does not truncate it). If they are
 * intact, their page numbers plus the new generation's are exactly what changed, and a full rescan
 * is avoided. Returns 'all' whenever that cannot be proven: not exactly one restart (salt-1 advances
 * by one per restart), a shrunken file, or new frames that may have overwritten the old tail.
 */
function restartedTail(fd: number, size: number, prev: WalState, wal: WalState, fresh: Set<number>): Set<number> | 'all' {
  if (wal.salt1 !== (prev.salt1 + 1) >>> 0 || size < prev.fileSize || wal.pageSize !== prev.pageSize) return 'all';
  const old: WalState = { ...prev, cksum: [prev.cksum[0], prev.cksum[1]], pages: new Map() };
  const tail = extendWal(fd, size, old);
  // Re-measure the new generation after reading the old tail: if it now reaches the frame where the
  // old tail stopped, that stop may have been an overwrite rather than the old generation's end.
  for (const p of extendWal(fd, fs.fstatSync(fd).size, wal)) fresh.add(p);
  if (old.validEnd <= wal.validEnd + 1) return 'all';
  for (const p of tail) fresh.add(p);
  return fresh;
}

export class Snapshot implements PageSource {
  private constructor(
    private readonly dbFd: number,
    private readonly walFd: number | undefined,
    private readonly wal: WalState | undefined,
    /** "salt1:salt2" of the WAL header when opened (undefined: none): a different value later means a restart raced with us. */
    private readonly salts: string | undefined,
    readonly pageSize: number,
    readonly usable: number,
    readonly pageCount: number,
  ) {
    this.scratch = { tree: Buffer.alloc(pageSize), leaf: Buffer.alloc(pageSize), overflow: Buffer.alloc(pageSize) };
  }

  readonly scratch: { tree: Buffer; leaf: Buffer; overflow: Buffer };

  /**
   * Opens the files and advances `cursor` over the WAL frames committed since it was last used.
   * A new WAL generation (salts changed: OpenCode checkpointed and restarted the log), a shrunken
   * WAL or a replaced main file means frames we never saw were folded into the main file, so the
   * caller must rescan everything ('all'). Returns undefined if the database does not exist yet.
   */
  static open(dbPath: string, cursor: WalCursor): Opened | undefined {
    const dbFd = openOptional(dbPath);
    if (dbFd === undefined) return undefined;
    let walFd: number | undefined;
    try {
      const ino = fs.fstatSync(dbFd).ino;
      walFd = openOptional(dbPath + '-wal');
      let changed: Set<number> | 'all' = 'all';
      const header = walFd === undefined ? undefined : readWalHeader(walFd);
      const prev = cursor.ino === ino ? cursor.wal : undefined;
      let wal: WalState | undefined;
      if (header && walFd !== undefined) {
        const size = fs.fstatSync(walFd).size;
        const same = prev && prev.salt1 === header.salt1 && prev.salt2 === header.salt2 && prev.pageSize === header.pageSize;
        if (same && size >= prev.fileSize) {
          wal = prev;
          changed = extendWal(walFd, size, wal);
        } else {
          wal = emptyWal(header);
          const fresh = extendWal(walFd, size, wal);
          changed = prev ? restartedTail(walFd, size, prev, wal, fresh) : 'all';
        }
      }
      cursor.wal = wal;
      cursor.ino = ino;
      const src = Snapshot.build(dbFd, walFd, wal, header && `${header.salt1}:${header.salt2}`);
      if (!src) {
        Snapshot.closeFds(dbFd, walFd);
        return undefined;
      }
      return { src, changed };
    } catch (e) {
      Snapshot.closeFds(dbFd, walFd);
      throw e;
    }
  }

  private static build(dbFd: number, walFd: number | undefined, wal: WalState | undefined, salts?: string): Snapshot | undefined {
    const main = mainHeader(dbFd);
    const fileSize = fs.fstatSync(dbFd).size;
    if (!main && fileSize > 0) throw new OpenCodeDbError('opencode.db: not a SQLite database (file too short)');
    const walPages = wal && wal.dbPages > 0 ? wal : undefined;
    // A brand-new database may exist only in its WAL (main file still empty).
    if (!main && !walPages) return undefined;
    const pageSize = main?.pageSize ?? walPages!.pageSize;
    if (walPages && walPages.pageSize !== pageSize) throw new OpenCodeDbError('opencode.db: WAL page size differs from the database');
    const pageCount = walPages?.dbPages || main?.pages || Math.floor(fileSize / pageSize);
    const reserved = main?.reserved ?? 0;
    return new Snapshot(dbFd, walFd, walPages, salts, pageSize, pageSize - reserved, pageCount);
  }

  page(pgno: number, into: Buffer): void {
    const inWal = this.wal?.pages.get(pgno);
    const ok =
      inWal !== undefined && this.walFd !== undefined
        ? readInto(this.walFd, inWal, into, this.pageSize)
        : readInto(this.dbFd, (pgno - 1) * this.pageSize, into, this.pageSize);
    if (!ok) throw new OpenCodeDbError(`opencode.db: page ${pgno} lies beyond the end of the file`);
  }

  /** True if the WAL was restarted since open (its frames may now be overwritten or checkpointed). */
  walRestarted(): boolean {
    if (this.walFd === undefined) return false;
    const h = readWalHeader(this.walFd);
    return (h && `${h.salt1}:${h.salt2}`) !== this.salts;
  }

  close(): void {
    Snapshot.closeFds(this.dbFd, this.walFd);
  }

  private static closeFds(dbFd: number, walFd: number | undefined): void {
    fs.closeSync(dbFd);
    if (walFd !== undefined) fs.closeSync(walFd);
  }
}
