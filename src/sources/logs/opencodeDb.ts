// Incremental, read-only reader of OpenCode's SQLite database (session / message / part rows), and of Kilo's,
// which has OpenCode's schema.
//
// Why no SQLite library: OpenCode keeps the db in WAL mode and its newest rows are usually only in
// the -wal file (after `opencode run` exits, the main file can be page 1 alone). Real SQLite finds
// them through the -shm wal-index, which needs locks (a reader's read mark even holds back OpenCode's
// WAL restarts); node:sqlite is absent from VS Code's Node 20; native modules are tied to one
// Electron ABI. Measured on this machine (live python3 writer at 50 tx/s checkpointing every 25 tx,
// 50 MB db): node-sqlite3-wasm only opens the db in EXCLUSIVE mode, then re-reads it per poll
// (48 ms), reads torn pages ("database disk image is malformed") and locks out a second reader with
// its `opencode.db.lock` directory; sql.js must copy the whole image per poll (170 ms, 260 MB peak
// RSS) and sees the WAL only with our own merge. Reading the files ourselves (opencodeDbFile, -Wal,
// -Btree.ts) takes no lock, never opens -shm, and a poll reads only the leaves committed since the
// previous one: 2.6–6 ms per poll for 5–100 MB, first poll 90–330 ms, peak RSS 72–90 MB (node
// alone: 42 MB). Memory is a few page buffers plus one map entry per page in the WAL, whatever the
// db size: nothing is copied, the OS page cache does the caching.
import { type Clock, wallClock } from '../../common/scheduler';
import { agentOf } from '../../agents/registry';
import type { OpenCodeFamily } from '../../agents/opencode/family';
import * as os from 'os';
import {
  decodeRecord,
  fullPayload,
  leafCells,
  readSchema,
  walkLeaves,
  type Cell,
  type TableInfo,
  type Value,
} from '../../formats/sqlite/btree';
import { sameStamp, Snapshot, stampOf, type Stamp, type WalCursor } from '../../formats/sqlite/file';
import { OpenCodeDbError } from '../../formats/sqlite/wal';

export { OpenCodeDbError } from '../../formats/sqlite/wal';
export type { Value } from '../../formats/sqlite/btree';

export const OPENCODE_TABLES = ['session', 'message', 'part'] as const;
export type OpenCodeTable = (typeof OPENCODE_TABLES)[number];
/** One row, column name → value as stored (`data` stays JSON text; the caller parses what it needs). */
export type Row = Record<string, Value>;
export type OpenCodeDbRows = Record<OpenCodeTable, Row[]>;

export interface PollResult {
  rows: OpenCodeDbRows;
  /** false: the files are unchanged (or absent) and were not read. true: they were read; rows may still be empty. */
  changed: boolean;
}

export interface OpenCodeDbOptions {
  /** First poll: only rows of sessions updated within this many ms (an old, huge db must not flood). Default 24 h. */
  sinceMs?: number;
  /**
   * Later polls also look this far below the high-water mark, deduplicated by id + time_updated, so
   * rows stamped a little earlier but committed later (two OpenCode processes) are not lost. Default 2 s.
   */
  slackMs?: number;
  /** Clock for sinceMs (tests). */
  clock?: Clock;
  /** Immediate re-reads when a checkpoint raced with a read. Default 3. */
  retries?: number;
}

/** Where OpenCode (or Kilo) keeps its database, as its descriptor (src/agents/<id>) says. */
export function defaultOpenCodeDbPath(
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
  agent: OpenCodeFamily = 'opencode',
): string {
  const logs = agentOf(agent).logs;
  if (logs?.format !== 'sqlite') throw new Error(`src/agents/${agent}/index.ts names no SQLite database`);
  return logs.defaultPath(env, home);
}

const emptyRows = (): OpenCodeDbRows => ({ session: [], message: [], part: [] });

/** Per-table progress: high-water mark of time_updated and the rows already considered near it. */
interface Mark {
  hwm: number;
  seen: Map<string, number>;
}

/** What one scan of one table found. */
interface TableScan {
  rows: Row[];
  max: number;
  considered: [id: string, t: number][];
  /** Length at which `considered` is compacted next (doubles, so compaction stays linear overall). */
  compactAt: number;
}

export class OpenCodeDb {
  private readonly sinceMs: number;
  private readonly slackMs: number;
  private readonly clock: Clock;
  private readonly retries: number;
  private stamps?: [Stamp | undefined, Stamp | undefined];
  private failed?: { stamps: [Stamp | undefined, Stamp | undefined]; err: OpenCodeDbError };
  private cursor: WalCursor = {};
  /** Pages committed but not yet scanned successfully (kept across a failed read). */
  private pending: Set<number> | 'all' = 'all';
  private first = true;
  /** Diagnostics: files read, and how many of those reads had to scan every leaf. */
  readonly stats = { reads: 0, fullScans: 0 };
  private readonly marks = new Map<OpenCodeTable, Mark>(OPENCODE_TABLES.map((t) => [t, { hwm: -Infinity, seen: new Map() }]));

  constructor(
    readonly dbPath: string,
    opts: OpenCodeDbOptions = {},
  ) {
    this.sinceMs = opts.sinceMs ?? 24 * 3600_000;
    this.slackMs = opts.slackMs ?? 2000;
    this.clock = opts.clock ?? wallClock;
    this.retries = opts.retries ?? 3;
  }

  /**
   * New and updated rows since the previous poll. Costs two stat calls when nothing changed.
   * Throws OpenCodeDbError for a file that is not a readable SQLite db (kind 'corrupt'), that kept
   * changing under every retry ('torn') or that the file system refused ('io'). The reader stays
   * usable: the next poll retries ('corrupt' is re-thrown without a read until the files change).
   */
  poll(): PollResult {
    try {
      return this.pollOnce();
    } catch (e) {
      // A RangeError is a Buffer read past a bound no check caught: a malformed page, not the file system.
      const kind = e instanceof RangeError ? 'corrupt' : 'io';
      const err = e instanceof OpenCodeDbError ? e : new OpenCodeDbError(`opencode.db: ${(e as Error).message}`, kind, { cause: e });
      this.stamps = undefined;
      this.failed = err.kind === 'corrupt' ? { stamps: this.stampsNow(), err } : undefined;
      throw err;
    }
  }

  private stampsNow(): [Stamp | undefined, Stamp | undefined] {
    return [stampOf(this.dbPath), stampOf(this.dbPath + '-wal')];
  }

  private pollOnce(): PollResult {
    for (let attempt = 0; ; attempt++) {
      const [db, wal] = this.stampsNow();
      if (!db) {
        this.forget();
        return { rows: emptyRows(), changed: false };
      }
      const same = (s?: [Stamp | undefined, Stamp | undefined]) => !!s && sameStamp(s[0], db) && sameStamp(s[1], wal);
      if (same(this.stamps)) return { rows: emptyRows(), changed: false };
      // A broken file is reported again on every poll, but read again only once it changes.
      if (this.failed && same(this.failed.stamps)) throw this.failed.err;
      try {
        const rows = this.read(db);
        this.stamps = [db, wal];
        this.failed = undefined;
        return rows ? { rows, changed: true } : { rows: emptyRows(), changed: false };
      } catch (e) {
        if (!(e instanceof OpenCodeDbError) || e.kind !== 'torn' || attempt >= this.retries) throw e;
      }
    }
  }

  /** Forgets the files (not the high-water marks): the next poll rescans everything. */
  close(): void {
    this.forget();
  }

  private forget(): void {
    this.stamps = undefined;
    this.failed = undefined;
    this.cursor = {};
    this.pending = 'all';
  }

  /** One read of the files; undefined if the db has no content yet. */
  private read(before: Stamp): OpenCodeDbRows | undefined {
    const opened = Snapshot.open(this.dbPath, this.cursor);
    if (!opened) return undefined;
    const { src } = opened;
    this.pending = merge(this.pending, opened.changed);
    this.stats.reads++;
    if (this.pending === 'all') this.stats.fullScans++;
    try {
      const scans = this.scanAll(src);
      // A checkpoint that wrote the main file, or a WAL restart, while we read may have mixed page versions.
      if (!sameStamp(stampOf(this.dbPath), before) || src.walRestarted())
        throw new OpenCodeDbError('opencode.db changed while reading', 'torn');
      return this.commit(scans);
    } catch (e) {
      if (e instanceof OpenCodeDbError && e.kind === 'corrupt' && (!sameStamp(stampOf(this.dbPath), before) || src.walRestarted())) {
        throw new OpenCodeDbError(`${e.message} (the files changed while reading)`, 'torn');
      }
      throw e;
    } finally {
      src.close();
    }
  }

  private scanAll(src: Snapshot): Map<OpenCodeTable, TableScan> {
    const schema = readSchema(src, OPENCODE_TABLES);
    const scans = new Map<OpenCodeTable, TableScan>();
    let recent: Set<string> | undefined;
    for (const table of OPENCODE_TABLES) {
      const info = schema.get(table);
      if (!info) continue; // not created yet (OpenCode still migrating): nothing to report
      const scan = this.scanTable(src, table, info, recent);
      scans.set(table, scan);
      if (this.first && table === 'session') recent = new Set(scan.rows.map((r) => r.id as string));
    }
    return scans;
  }

  private scanTable(src: Snapshot, table: OpenCodeTable, info: TableInfo, recent: Set<string> | undefined): TableScan {
    const col = (name: string) => info.names.indexOf(name);
    const [idCol, timeCol] = [col('id'), col('time_updated')];
    const sessionCol = table === 'session' ? idCol : col('session_id');
    const scan: TableScan = { rows: [], max: -Infinity, considered: [], compactAt: 4096 };
    if (idCol < 0 || timeCol < 0) return scan;
    const lead = Math.max(idCol, timeCol, sessionCol) + 1; // decode no further than needed to decide
    const mark = this.marks.get(table)!;
    const floor = mark.hwm - this.slackMs;
    const keep = this.keeper(table, mark, recent);
    const pending = this.pending;
    const want = pending === 'all' ? () => true : (p: number) => pending.has(p);
    walkLeaves(src, info.root, want, (pgno) => {
      for (const cell of leafCells(src, pgno)) {
        // The leading columns (id, session_id, times) are nearly always in the cell itself:
        // decide on them before paying for the overflow chain that holds a big `data`.
        let vals = decodeRecord(cell.local, lead);
        const partial = cell.local.length < cell.total;
        if (partial && [idCol, timeCol, sessionCol].some((c) => vals[c] === undefined)) vals = decodeRecord(fullPayload(src, cell), lead);
        const id = vals[idCol];
        const t = vals[timeCol];
        if (typeof id !== 'string' || typeof t !== 'number') continue;
        if (t > scan.max) scan.max = t;
        if (t >= floor && t >= scan.max - this.slackMs) remember(scan, id, t, this.slackMs);
        if (keep(id, t, vals[sessionCol])) scan.rows.push(toRow(src, cell, info));
      }
    });
    return scan;
  }

  /**
   * Which rows a scan returns. First poll: sessions updated within sinceMs, and the messages and
   * parts of those sessions. Later: rows at or above the high-water mark (less the slack) that were
   * not already returned with the same time_updated.
   */
  private keeper(
    table: OpenCodeTable,
    mark: Mark,
    recent: Set<string> | undefined,
  ): (id: string, t: number, session: Value | undefined) => boolean {
    if (this.first) {
      const since = this.clock.now() - this.sinceMs;
      return table === 'session' ? (_id, t) => t >= since : (_id, _t, session) => typeof session === 'string' && !!recent?.has(session);
    }
    const floor = mark.hwm - this.slackMs;
    return (id, t) => t >= floor && mark.seen.get(id) !== t;
  }

  /** Advances the marks once a whole read succeeded (a failed read must not move them). */
  private commit(scans: Map<OpenCodeTable, TableScan>): OpenCodeDbRows {
    const rows = emptyRows();
    for (const [table, scan] of scans) {
      const mark = this.marks.get(table)!;
      mark.hwm = Math.max(mark.hwm, scan.max);
      const floor = mark.hwm - this.slackMs;
      for (const [id, t] of scan.considered) if (t >= floor) mark.seen.set(id, t);
      for (const [id, t] of mark.seen) if (t < floor) mark.seen.delete(id);
      rows[table] = scan.rows;
    }
    this.first = false;
    this.pending = new Set();
    return rows;
  }
}

/** Notes a row near the high-water mark; compacts so a full scan of a big table keeps only the newest few. */
function remember(scan: TableScan, id: string, t: number, slackMs: number): void {
  scan.considered.push([id, t]);
  if (scan.considered.length < scan.compactAt) return;
  scan.considered = scan.considered.filter(([, u]) => u >= scan.max - slackMs);
  scan.compactAt = Math.max(4096, 2 * scan.considered.length);
}

function merge(a: Set<number> | 'all', b: Set<number> | 'all'): Set<number> | 'all' {
  if (a === 'all' || b === 'all') return 'all';
  for (const p of b) a.add(p);
  return a;
}

/** The row as column name → value; columns added by a later ALTER TABLE are absent from old records (null). */
function toRow(src: Snapshot, cell: Cell, info: TableInfo): Row {
  const vals = decodeRecord(fullPayload(src, cell));
  const row: Row = {};
  info.names.forEach((name, i) => {
    row[name] = i === info.rowidAlias ? cell.rowid : (vals[i] ?? null);
  });
  return row;
}
