import type { WatchFn } from './dirWatch';

export interface TailRoot {
  dir: string;
  /**
   * Folder levels below `dir` to watch (0 = only files directly in `dir`). Every folder down to this level
   * gets one fs.watch. chokidar watches the levels above the deepest one too, and re-lists such a folder on
   * every event in it: busy logs belong in the deepest level (Claude's projects/<cwd>/, Codex's YYYY/MM/DD/).
   */
  depth: number;
  /** Which files to follow, by absolute path. Files that do not match are not watched at all. */
  match(file: string): boolean;
}

export interface TailerOptions {
  roots: TailRoot[];
  /** For files that already exist when watching starts: read at most this many trailing bytes (from the next line start), so a big history is not replayed. New files are read from 0. */
  backlogBytes?: number;
  /** Files not modified within this many ms when watching starts are not read at all until they change. */
  ignoreOlderThanMs?: number;
  onLines(file: string, lines: string[]): void;
  /** The file was truncated or replaced (rotation): the consumer drops per-file decoding state; the tailer then reads it from 0. */
  onReset?(file: string): void;
  onRemoved?(file: string): void;
  log?(level: 'debug' | 'info' | 'warn', msg: string): void;
  /** A folder whose `fs.watch` fails (ENOSPC, EMFILE) is polled this often instead. Default 2 s. */
  pollMs?: number;
  /** Injected for tests. */
  now?: () => number;
  /** Injected for tests: stands in for `fs.watch` on the folders (not for chokidar's own). */
  watchDir?: WatchFn;
}
