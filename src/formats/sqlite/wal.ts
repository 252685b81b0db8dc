// Lock-free reader of a SQLite write-ahead log (https://www.sqlite.org/fileformat.html#the_write_ahead_log).
// We never open the -shm wal-index (reading it needs locks, writing it would disturb OpenCode), so we
// rebuild what it says from the -wal file itself: which page lives in which frame, up to the last
// commit frame whose salts and running checksum are valid. A frame being written while we read fails
// its checksum and simply ends the valid prefix, so a torn read can never smuggle in a half frame.
import * as fs from 'fs';

const WAL_HEADER = 32;
const FRAME_HEADER = 24;
const MAGIC_LE = 0x377f0682;
const MAGIC_BE = 0x377f0683;
const WAL_VERSION = 3007000;

export class OpenCodeDbError extends Error {
  constructor(
    message: string,
    /** 'corrupt': not a SQLite db we can read; 'torn': it kept changing under us; 'io': the file system failed. */
    readonly kind: 'corrupt' | 'torn' | 'io' = 'corrupt',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'OpenCodeDbError';
  }
}

/** What the valid, committed prefix of the WAL says. Frame offsets point at page data, not frame headers. */
export interface WalState {
  salt1: number;
  salt2: number;
  pageSize: number;
  bigEndian: boolean;
  /** Frames validated so far (committed ones only). */
  frames: number;
  /** Where validation last stopped: the first frame that was missing, torn or of another generation. */
  validEnd: number;
  /** Size of the -wal file when last extended. */
  fileSize: number;
  /** Running checksum after the last committed frame: the seed for continuing next time. */
  cksum: [number, number];
  /** Database size in pages after the last commit; 0 if the WAL holds no commit. */
  dbPages: number;
  /** Newest committed copy of each page: page number → byte offset of its data in the -wal file. */
  pages: Map<number, number>;
}

const HOST_LE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Adds the SQLite WAL checksum of buf[start, end) to seed (in place). Words are read in the WAL's byte order. */
function checksum(buf: Buffer, start: number, end: number, bigEndian: boolean, seed: [number, number]): void {
  let s1 = seed[0];
  let s2 = seed[1];
  if (bigEndian !== HOST_LE && (buf.byteOffset + start) % 4 === 0) {
    // Native byte order and aligned: read words directly (about 4x faster on a big WAL).
    const w = new Uint32Array(buf.buffer, buf.byteOffset + start, (end - start) >> 2);
    for (let i = 0; i < w.length; i += 2) {
      s1 = (s1 + w[i] + s2) >>> 0;
      s2 = (s2 + w[i + 1] + s1) >>> 0;
    }
  } else {
    for (let i = start; i < end; i += 8) {
      const x0 = bigEndian ? buf.readUInt32BE(i) : buf.readUInt32LE(i);
      const x1 = bigEndian ? buf.readUInt32BE(i + 4) : buf.readUInt32LE(i + 4);
      s1 = (s1 + x0 + s2) >>> 0;
      s2 = (s2 + x1 + s1) >>> 0;
    }
  }
  seed[0] = s1;
  seed[1] = s2;
}

function readAt(fd: number, pos: number, len: number): Buffer {
  const buf = Buffer.alloc(len);
  let got = 0;
  while (got < len) {
    const n = fs.readSync(fd, buf, got, len - got, pos + got);
    if (n === 0) break;
    got += n;
  }
  return got === len ? buf : buf.subarray(0, got);
}

/** Parses the 32-byte WAL header; undefined if the WAL is empty or its header is not (yet) valid. */
export type WalHeader = Pick<WalState, 'salt1' | 'salt2' | 'pageSize' | 'bigEndian' | 'cksum'>;

export function readWalHeader(fd: number): WalHeader | undefined {
  const h = readAt(fd, 0, WAL_HEADER);
  if (h.length < WAL_HEADER) return undefined;
  const magic = h.readUInt32BE(0);
  if (magic !== MAGIC_LE && magic !== MAGIC_BE) return undefined;
  const bigEndian = magic === MAGIC_BE;
  const pageSize = h.readUInt32BE(8);
  if (h.readUInt32BE(4) !== WAL_VERSION || pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) {
    return undefined;
  }
  const cksum: [number, number] = [0, 0];
  checksum(h, 0, 24, bigEndian, cksum);
  if (cksum[0] !== h.readUInt32BE(24) || cksum[1] !== h.readUInt32BE(28)) return undefined;
  return { salt1: h.readUInt32BE(16), salt2: h.readUInt32BE(20), pageSize, bigEndian, cksum };
}

/** A fresh state for a WAL whose frames have not been read yet. */
export function emptyWal(header: WalHeader): WalState {
  return { ...header, cksum: [header.cksum[0], header.cksum[1]], frames: 0, validEnd: 0, fileSize: 0, dbPages: 0, pages: new Map() };
}

/** How many bytes of frames validateWal reads per system call (whole frames, at least one). */
const CHUNK = 1 << 20;

/**
 * Extends `state` with the committed frames appended since it was built (state must belong to this
 * WAL generation: same salts). Returns the page numbers of the newly committed frames. Reads only the
 * new part of the file, so an unchanged or slowly growing WAL costs almost nothing.
 */
export function extendWal(fd: number, walSize: number, state: WalState): Set<number> {
  const frameSize = FRAME_HEADER + state.pageSize;
  const changed = new Set<number>();
  let pending: number[] = [];
  const seed: [number, number] = [state.cksum[0], state.cksum[1]];
  let frame = state.frames;
  const perChunk = Math.max(1, Math.floor(CHUNK / frameSize));
  for (;;) {
    const pos = WAL_HEADER + frame * frameSize;
    const count = Math.min(perChunk, Math.floor((walSize - pos) / frameSize));
    if (count <= 0) break;
    const buf = readAt(fd, pos, count * frameSize);
    const whole = Math.floor(buf.length / frameSize);
    let i = 0;
    for (; i < whole; i++) {
      const at = i * frameSize;
      if (buf.readUInt32BE(at + 8) !== state.salt1 || buf.readUInt32BE(at + 12) !== state.salt2) break;
      checksum(buf, at, at + 8, state.bigEndian, seed);
      checksum(buf, at + FRAME_HEADER, at + frameSize, state.bigEndian, seed);
      if (seed[0] !== buf.readUInt32BE(at + 16) || seed[1] !== buf.readUInt32BE(at + 20)) break;
      const pgno = buf.readUInt32BE(at);
      pending.push(pgno, pos + at + FRAME_HEADER);
      const commitPages = buf.readUInt32BE(at + 4);
      if (commitPages !== 0) {
        // Only a commit frame makes the frames before it visible (an open transaction may still roll back).
        for (let k = 0; k < pending.length; k += 2) {
          state.pages.set(pending[k], pending[k + 1]);
          changed.add(pending[k]);
        }
        pending = [];
        state.frames = frame + i + 1;
        state.cksum = [seed[0], seed[1]];
        state.dbPages = commitPages;
      }
    }
    if (i < whole || whole < count) {
      frame += i;
      break;
    }
    frame += whole;
  }
  state.validEnd = frame;
  state.fileSize = walSize;
  return changed;
}
