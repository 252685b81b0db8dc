/**
 * One plain `fs.watch` on one folder. On Linux that is one inotify watch whose events name the entry
 * (a file created, deleted or renamed: 'rename'; written: 'change'), so a consumer can act on just that
 * entry instead of re-listing the folder. When the watch cannot be had (ENOSPC: the inotify watches are
 * used up; EMFILE: out of file handles) or fails later, the folder is polled instead, and the watch is
 * tried again now and then.
 */
import * as fs from 'fs';
import * as fsp from 'fs/promises';
import * as path from 'path';

export type WatchFn = (dir: string, listener: (event: string, name: string | null) => void) => fs.FSWatcher;

export interface DirWatchEvents {
  /** `name` (a basename) in the folder changed; without a name: something in the folder did. */
  change(event: string, name: string | undefined): void;
  /** Polling tick (no watch): look at the folder. Also called once when a retried watch succeeds, for what happened meanwhile. */
  poll(): void;
  /** The watch could not be opened, or failed: the folder is polled from now on. */
  failed(e: unknown): void;
}

export interface DirWatchOptions {
  pollMs: number;
  /** Injected for tests. */
  watch?: WatchFn;
}

/** While polling, try the real watch again every this many ticks (30 s at the default 2 s). */
const RETRY_WATCH_TICKS = 15;

const defaultWatch: WatchFn = (dir, listener) => fs.watch(dir, { persistent: true }, listener);

export class DirWatch {
  private watcher?: fs.FSWatcher;
  private timer?: NodeJS.Timeout;
  private ticks = 0;
  private closed = false;

  constructor(
    readonly dir: string,
    private readonly on: DirWatchEvents,
    private readonly opts: DirWatchOptions,
  ) {}

  /** False when the folder is not there (nothing is watched then). */
  open(): boolean {
    const e = this.tryWatch();
    if (!e) return true;
    const c = (e as NodeJS.ErrnoException).code;
    if (c === 'ENOENT' || c === 'ENOTDIR') return false;
    this.on.failed(e);
    this.startPolling();
    return true;
  }

  get polling(): boolean {
    return !!this.timer;
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.timer = undefined;
    this.watcher?.close();
    this.watcher = undefined;
  }

  /** The error, or undefined when the watch is on. */
  private tryWatch(): unknown {
    let w: fs.FSWatcher;
    try {
      w = (this.opts.watch ?? defaultWatch)(this.dir, (event, name) => {
        if (!this.closed) this.on.change(event, name ?? undefined);
      });
    } catch (e) {
      return e;
    }
    w.on('error', (e) => {
      w.close();
      if (this.watcher !== w || this.closed) return;
      this.watcher = undefined;
      this.on.failed(e);
      this.startPolling();
    });
    this.watcher = w;
    return undefined;
  }

  private startPolling(): void {
    if (this.timer || this.closed) return;
    this.ticks = 0;
    this.timer = setInterval(() => {
      if (++this.ticks % RETRY_WATCH_TICKS === 0 && !this.tryWatch()) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
      // After a successful retry too: changes between the last tick and the new watch.
      this.on.poll();
    }, this.opts.pollMs);
    this.timer.unref();
  }
}

// Folder helpers for the tailer.

export async function statDir(dir: string): Promise<fs.Stats | undefined> {
  const s = await fsp.stat(dir).catch(() => undefined);
  return s?.isDirectory() ? s : undefined;
}

/** Folder levels of `p` below `root` (0: the root itself; -1: not under it). */
export function levelOf(root: string, p: string): number {
  const rel = path.relative(root, path.resolve(p));
  if (rel === '') return 0;
  if (rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel)) return -1;
  return rel.split(path.sep).length;
}

export async function nearestExisting(dir: string): Promise<string> {
  let d = path.dirname(dir);
  while (!(await statDir(d)) && path.dirname(d) !== d) d = path.dirname(d);
  return d;
}
