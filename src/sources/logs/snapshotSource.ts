import * as fs from 'fs';
import * as fsp from 'fs/promises';
import * as path from 'path';
import { MAX_SESSION_FILE_BYTES, SNAPSHOT_DECODERS, type SnapshotDecoder, type SnapshotLogAgent } from '../../jsonl';
import { agentOf } from '../../agents/registry';
import type { Observation } from '../../store/observation';
import { logEventToObservation } from './logSources';
import { type Logger } from '../../common/log';
import type { UsageBook } from '../../usage/book';

/** A safety poll for changes no file event reported (and for a folder that appears later): a stat per session file. */
const POLL_MS = 2000;
/** Bursts of rewrites (a tool call's states, then the title) are read at most this often per file. */
const MIN_GAP_MS = 150;
/** A file last written longer ago than this when watching starts is old news: its outcome is not told. */
const OLD_MS = 24 * 3600 * 1000;

export interface SnapshotSourceOptions {
  agent: SnapshotLogAgent;
  /** The agent's configuration folders (each holds the descriptor's `under` folder). */
  dirs: string[];
  sink(o: Observation): void;
  log?: Logger; /** Gets what the logs say about tokens, context and cost, and each turn's start and end (src/usage). */
  usage?: UsageBook;
}

interface Tracked {
  file: string;
  decoder: SnapshotDecoder;
  /** ino, size and modification time of the content read last: unchanged, the file is not read again. */
  seen?: string;
  lastRead: number;
  timer?: NodeJS.Timeout;
  reading: boolean;
  again: boolean;
  /** Found by the first look at a folder that existed at start: its first content may be old news. */
  existing: boolean;
}

interface Folder {
  dir: string;
  watcher?: fs.FSWatcher;
  /** Looked at once: files found later are new. */
  listed: boolean;
}

/**
 * The session-log source for agents that rewrite one JSON file per session on every change (Continue CLI): the
 * sessions folder watched (fs.watch, and a poll), a changed file read whole, at most every MIN_GAP_MS, and each
 * content handed to the file's decoder, which tells what changed since the content before.
 */
export class SnapshotLogSource {
  private readonly folders: Folder[];
  private readonly files = new Map<string, Tracked>();
  private readonly isSession: (file: string, dir: string) => boolean;
  private readonly reported = new Set<string>();
  private poller: NodeJS.Timeout | undefined;
  private disposed = false;
  events = 0;

  constructor(private readonly opts: SnapshotSourceOptions) {
    const logs = agentOf(opts.agent).logs;
    if (logs?.format !== 'json-snapshot') throw new Error(`src/agents/${opts.agent}/index.ts names no session files rewritten whole`);
    this.isSession = logs.isSession;
    this.folders = [...new Set(opts.dirs.map((d) => path.resolve(d, logs.under)))].map((dir) => ({ dir, listed: false }));
  }

  /** Resolves once every existing session file has been read. */
  async start(): Promise<void> {
    this.poller = setInterval(() => void this.look(), POLL_MS);
    await this.look();
  }

  /** Reads whatever changed now (tests). */
  flush(): Promise<void> {
    return this.look();
  }

  dispose(): void {
    this.disposed = true;
    if (this.poller) clearInterval(this.poller);
    for (const f of this.folders) f.watcher?.close();
    for (const t of this.files.values()) if (t.timer) clearTimeout(t.timer);
  }

  private async look(): Promise<void> {
    await Promise.all(this.folders.map((f) => this.lookIn(f)));
  }

  /** Watches the folder if it can, lists it, and reads each session file whose content may have changed. */
  private async lookIn(f: Folder): Promise<void> {
    if (!f.watcher) this.watch(f);
    const names = await fsp.readdir(f.dir).catch(() => undefined);
    if (!names || this.disposed) return;
    const existing = !f.listed;
    f.listed = true;
    await Promise.all(names.map((n) => this.read(this.track(path.join(f.dir, n), f, existing))));
  }

  private watch(f: Folder): void {
    try {
      f.watcher = fs.watch(f.dir, (_event, name) => {
        if (name) this.soon(this.track(path.join(f.dir, String(name)), f, false));
      });
      f.watcher.on('error', () => {
        f.watcher?.close();
        f.watcher = undefined;
      });
    } catch {
      f.watcher = undefined; // the folder does not exist yet: the poll looks again
    }
  }

  private track(file: string, f: Folder, existing: boolean): Tracked | undefined {
    if (!this.isSession(file, f.dir)) return undefined;
    let t = this.files.get(file);
    if (!t) {
      const decoder = SNAPSHOT_DECODERS[this.opts.agent]((kind, detail) => this.problem(kind, file, detail), this.opts.usage);
      t = { file, decoder, lastRead: 0, reading: false, again: false, existing };
      this.files.set(file, t);
    }
    return t;
  }

  private soon(t: Tracked | undefined): void {
    if (!t || t.timer || this.disposed) return;
    const wait = Math.max(0, t.lastRead + MIN_GAP_MS - Date.now());
    t.timer = setTimeout(() => {
      t.timer = undefined;
      void this.read(t);
    }, wait);
  }

  /** One read at a time per file; a change seen meanwhile is read once the read is done. */
  private async read(t: Tracked | undefined): Promise<void> {
    if (!t || this.disposed) return;
    if (t.reading) {
      t.again = true;
      return;
    }
    t.reading = true;
    try {
      do {
        t.again = false;
        t.lastRead = Date.now();
        await this.readOnce(t);
      } while (t.again && !this.disposed);
    } finally {
      t.reading = false;
    }
  }

  private async readOnce(t: Tracked): Promise<void> {
    let handle: fsp.FileHandle | undefined;
    try {
      handle = await fsp.open(t.file, 'r');
      const s = await handle.stat();
      const seen = `${s.ino}:${s.size}:${s.mtimeMs}`;
      if (!s.isFile() || seen === t.seen) return;
      t.seen = seen;
      if (s.size > MAX_SESSION_FILE_BYTES) {
        this.problem('size', t.file, `${s.size} bytes, more than ${MAX_SESSION_FILE_BYTES}; not read`);
        return;
      }
      const text = await handle.readFile('utf8');
      const old = t.existing && s.mtimeMs < Date.now() - OLD_MS;
      t.existing = false;
      for (const e of t.decoder.snapshot(text, s.mtimeMs)) {
        if (old || this.disposed) continue; // the decoder has seen it: only later changes are told
        this.events++;
        this.opts.usage?.event(e);
        this.opts.sink(logEventToObservation(e, t.file));
      }
    } catch (e) {
      // Gone (a deleted session) or unreadable for now: the next change or poll looks again.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') this.files.delete(t.file);
      else this.problem('read', t.file, (e as Error).message);
    } finally {
      await handle?.close().catch(() => undefined);
    }
  }

  /** Each kind of problem is logged once, not per file or per read. */
  private problem(kind: string, file: string, detail: string): void {
    if (this.reported.has(kind)) return;
    this.reported.add(kind);
    this.opts.log?.warn(`${file}: a ${this.opts.agent} session file could not be read (${kind}): ${detail}. Further ones are not logged.`);
  }
}
