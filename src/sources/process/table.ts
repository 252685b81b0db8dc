import { pidAlive } from '../../common/pidAlive';
import { hostPlatform } from '../../common/platform';
import { parsePs, PS_TABLE_ARGS } from './darwin';
import type { TableRow } from './procTypes';
import { runTool } from './runTool';
import { readCimTable } from './windows';

/**
 * The whole process table in one call, where the system has no /proc to walk: macOS and the BSDs (`ps`), Windows
 * (PowerShell's CIM query). One call serves every reader of a scan: the terminals' trees, the census, a terminal's
 * foreground and its pty size, a process's start order all take the same table while it is fresh enough for them,
 * and readers that ask while it is being read wait for that read instead of starting another. What differs by
 * platform is data (TABLE_READERS): how the table is read, whether its rows carry job control, how young a table
 * is worth reading again.
 */

export type { TableRow } from './procTypes';

export interface TableSnapshot {
  /** When the read that produced it started (Date.now()): the table is at least this fresh. */
  at: number;
  rows: readonly TableRow[];
}

/** How old a table the trees, the pty size and a process's own line take: one scan's readers share one call. */
export const SCAN_AGE_MS = 500;
/**
 * How old a table a check before typing into a terminal takes: what holds the terminal now (the read itself takes
 * 10–30 ms), never what held it before an agent exited and gave its shell the terminal back. Checks made together
 * (the agent's place and the terminal's holder) still share one read.
 */
export const FOREGROUND_AGE_MS = 50;

type Reader = () => Promise<TableRow[]>;

/** One platform's table: how it is read, and what sets it apart. */
export interface TableSource {
  read: Reader;
  /** Whether its rows carry `job` (a controlling tty, process groups): the foreground and pty-size readers need it. */
  jobs: boolean;
  /**
   * A table this young serves every reader, whatever younger one it asks for: a read costs more than a table
   * younger than this is worth. 0 where a read takes milliseconds (ps).
   */
  minAgeMs: number;
}

/** The BSD `ps` (PS_TABLE_ARGS) read by the macOS layout: 10–30 ms a read. */
const BSD_TABLE: TableSource = { read: async () => parsePs(await runTool('ps', PS_TABLE_ARGS)), jobs: true, minAgeMs: 0 };

/** The platforms read through one table per scan. Linux walks /proc instead (cheaper, and exact per process). */
export const TABLE_READERS: Partial<Record<NodeJS.Platform, TableSource>> = {
  darwin: BSD_TABLE,
  freebsd: BSD_TABLE,
  openbsd: BSD_TABLE,
  // PowerShell takes a second or more to start and answer: one table serves 2 s of scans, census and checks.
  win32: { read: readCimTable(), jobs: false, minAgeMs: 2000 },
};

/** One platform's table: the last read, and the read under way. */
export class ProcessTable {
  private last: TableSnapshot | undefined;
  private pending: { at: number; read: Promise<TableSnapshot> } | undefined;

  constructor(
    private readonly source: TableSource,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the rows carry job control (TableSource.jobs): asked before reading, so nothing is read for nothing. */
  get jobs(): boolean {
    return this.source.jobs;
  }

  /** A table no older than `maxAgeMs` (or the platform's minAgeMs): the last one, the one being read, or a new read. Rejects when the read fails. */
  snapshot(maxAgeMs: number): Promise<TableSnapshot> {
    const now = this.now();
    const age = Math.max(maxAgeMs, this.source.minAgeMs);
    if (this.last && now - this.last.at <= age) return Promise.resolve(this.last);
    if (this.pending && now - this.pending.at <= age) return this.pending.read;
    return this.readNow(now);
  }

  /** A read that starts now, whatever the last one was. A failed read is not kept: the next reader reads again. */
  private readNow(at = this.now()): Promise<TableSnapshot> {
    const read = this.source.read().then((rows) => {
      if (!this.last || this.last.at <= at) this.last = { at, rows };
      return { at, rows };
    });
    const entry = { at, read };
    this.pending = entry;
    const clear = () => {
      if (this.pending === entry) this.pending = undefined;
    };
    // Settles with the read; the caller gets the read itself, rejection included.
    void read.then(clear, clear);
    return read;
  }

  /** The last table read, when it is at most `maxAgeMs` old; nothing is read (for readers that cannot wait). */
  latest(maxAgeMs: number): readonly TableRow[] | undefined {
    return this.last && this.now() - this.last.at <= maxAgeMs ? this.last.rows : undefined;
  }

  /** A table whose read starts now (a process that started a moment ago is in it); it becomes the shared table too. */
  async read(): Promise<readonly TableRow[]> {
    return (await this.readNow()).rows;
  }

  async rows(maxAgeMs: number): Promise<readonly TableRow[]> {
    return (await this.snapshot(maxAgeMs)).rows;
  }

  /**
   * A table that has each of `pids` that runs: one younger than a process another reader just found is read
   * again, so a process is never called gone for being newer than the table.
   */
  async rowsFor(pids: readonly number[], maxAgeMs: number): Promise<readonly TableRow[]> {
    const rows = await this.rows(maxAgeMs);
    const missing = pids.filter((p) => !rows.some((r) => r.pid === p));
    return missing.some(pidAlive) ? (await this.readNow()).rows : rows;
  }
}

const tables = new Map<NodeJS.Platform, ProcessTable>();

/** The shared table of a platform read by one call per scan; undefined where there is none (Linux). */
export function processTable(platform: NodeJS.Platform = hostPlatform()): ProcessTable | undefined {
  const source = TABLE_READERS[platform];
  if (!source) return undefined;
  let t = tables.get(platform);
  if (!t) tables.set(platform, (t = new ProcessTable(source)));
  return t;
}
