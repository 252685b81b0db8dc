import { pidAlive } from '../../common/pidAlive';
import { hostPlatform } from '../../common/platform';
import { parsePs, PS_TABLE_ARGS } from './darwin';
import type { ProcInfo, TtyJob } from './procTypes';
import { runTool } from './runTool';

/**
 * The whole process table in one call, where the system has no /proc to walk (macOS and the BSDs: `ps`; Windows
 * plugs its CIM query in here — `TABLE_READERS.win32` — and the tree, the census and the agent's folder follow).
 * One call serves every reader of a scan: the terminals' trees, the census, a terminal's foreground and its pty
 * size all take the same table while it is fresh enough for them, and readers that ask while it is being read
 * wait for that read instead of starting another.
 */

/** One process of the table; `job` where the platform has job control (not Windows). */
export interface TableRow extends ProcInfo {
  job?: TtyJob;
}

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

/** The BSD `ps` (PS_TABLE_ARGS) read by the macOS layout. */
const readBsdTable: Reader = async () => parsePs(await runTool('ps', PS_TABLE_ARGS));

/** The platforms read through one table per scan. Linux walks /proc instead (cheaper, and exact per process). */
export const TABLE_READERS: Partial<Record<NodeJS.Platform, Reader>> = {
  darwin: readBsdTable,
  freebsd: readBsdTable,
  openbsd: readBsdTable,
};

/** One platform's table: the last read, and the read under way. */
export class ProcessTable {
  private last: TableSnapshot | undefined;
  private pending: { at: number; read: Promise<TableSnapshot> } | undefined;

  constructor(
    private readonly read: Reader,
    private readonly now: () => number = Date.now,
  ) {}

  /** A table no older than `maxAgeMs`: the last one, the one being read, or a new read. Rejects when ps fails. */
  snapshot(maxAgeMs: number): Promise<TableSnapshot> {
    const now = this.now();
    if (this.last && now - this.last.at <= maxAgeMs) return Promise.resolve(this.last);
    if (this.pending && now - this.pending.at <= maxAgeMs) return this.pending.read;
    return this.readNow(now);
  }

  /** A read that starts now, whatever the last one was. */
  private readNow(at = this.now()): Promise<TableSnapshot> {
    const read = this.read().then((rows) => {
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

/** The shared table of a platform read by one call per scan; undefined where there is none (Linux, Windows for now). */
export function processTable(platform: NodeJS.Platform = hostPlatform()): ProcessTable | undefined {
  const read = TABLE_READERS[platform];
  if (!read) return undefined;
  let t = tables.get(platform);
  if (!t) tables.set(platform, (t = new ProcessTable(read)));
  return t;
}
