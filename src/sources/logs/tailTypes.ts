import type { Clock } from '../../common/scheduler';
import type { FSWatcher } from 'chokidar';
import type * as fs from 'fs';
import type { DirWatch, WatchFn } from './dirWatch';
import type { ReadFile, Run } from './fileReads';
import { type Logger } from '../../common/log';

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
  /** Its files' first line is rewritten in place (droid's title): the read offset follows its length (fileReads.ts). */
  rewritesHead?: boolean;
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
  /** An existing file is first read from its backlog tail, not from 0: what came before is never read. */
  onTail?(file: string): void;
  log?: Logger;
  /** A folder whose `fs.watch` fails (ENOSPC, EMFILE) is polled this often instead. Default 2 s. */
  pollMs?: number;
  /** Injected for tests. */
  clock?: Clock;
  /** Injected for tests: stands in for `fs.watch` on the folders (not for chokidar's own). */
  watchDir?: WatchFn;
}

/* The tailer's own state (tailer.ts): the files it follows, the folders it watches, the roots it looks for. */

export interface TailFile extends ReadFile {
  /** The watched folder it was found in. */
  dir: WatchedDir;
  /** Is it still there? (a 'rename' event, a failed read): coalesced like reads. */
  readonly verifyRun: Run;
}

export interface WatchedDir {
  readonly dir: string;
  readonly root: RootState;
  /** Folder levels below the root: 0 is the root itself. */
  readonly level: number;
  watch?: DirWatch;
  readonly files: Set<TailFile>;
  /** The first listing is under way: names with events meanwhile, looked at once it is done. */
  pending?: Set<string>;
  scanning: boolean;
  /** Its subfolders are found by polling it, not by chokidar (its watch failed, so chokidar's likely did too). */
  findsDirs: boolean;
  closed: boolean;
  readonly pollRun: Run;
}

export interface RootState {
  readonly root: TailRoot;
  readonly dir: string;
  /** Being followed (its folders are watched). */
  active: boolean;
  /** Discovers the folders above the deepest level (none for depth 0). */
  watcher?: FSWatcher;
  /** The watched folder's inode: a different one means it was deleted and created again. */
  ino?: number;
  /** While the root does not exist: a plain fs.watch on its nearest existing ancestor. */
  probe?: fs.FSWatcher;
  probeDir?: string;
}
