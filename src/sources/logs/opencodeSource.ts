import * as fs from 'fs';
import * as path from 'path';
import { createOpenCodeDecoder, type OpenCodeDecoder, type OpenCodeRows } from '../../jsonl';
import type { Observation } from '../../store/observation';
import { logEventToObservation } from './logSources';
import { OpenCodeDb, OpenCodeDbError } from './opencodeDb';
import { type Logger } from '../../common/log';
import type { UsageBook } from '../../usage/book';
import type { OpenCodeFamily } from '../../agents/opencode/family';

/** A safety poll for changes no file event reported; a poll of unchanged files is two stat calls. */
const POLL_MS = 1000;
/** Bursts of writes (a streaming reply) are read at most this often. */
const MIN_GAP_MS = 150;

export interface OpenCodeSourceOptions {
  /** Whose databases these are: OpenCode's, or Kilo's (OpenCode's schema). Default OpenCode. */
  agent?: OpenCodeFamily;
  databases: string[];
  sink(o: Observation): void;
  log?: Logger; /** Gets what the logs say about tokens, context and cost, and each turn's start and end (src/usage). */
  usage?: UsageBook;
}

interface Watched {
  file: string;
  db: OpenCodeDb;
  decoder: OpenCodeDecoder;
  watcher?: fs.FSWatcher;
  lastRead: number;
  timer?: NodeJS.Timeout;
  failing?: string;
}

/**
 * The session-log source for OpenCode (or Kilo): its SQLite database, read without SQLite (no locks, the WAL
 * included; see opencodeDb.ts) whenever the database or its WAL changes, and at least every second.
 */
export class OpenCodeLogSource {
  private readonly watched: Watched[];
  private poller: NodeJS.Timeout | undefined;
  events = 0;

  constructor(private readonly opts: OpenCodeSourceOptions) {
    this.watched = [...new Set(opts.databases.map((d) => path.resolve(d)))].map((file) => ({
      file,
      db: new OpenCodeDb(file),
      decoder: createOpenCodeDecoder(
        (kind, detail) => opts.log?.warn(`${file}: a row could not be read (${kind}): ${detail}`),
        opts.agent ?? 'opencode',
        opts.usage,
      ),
      lastRead: 0,
    }));
  }

  start(): void {
    for (const w of this.watched) {
      this.watchDir(w);
      this.read(w);
    }
    this.poller = setInterval(() => {
      for (const w of this.watched) {
        if (!w.watcher) this.watchDir(w);
        this.read(w);
      }
    }, POLL_MS);
  }

  /** Reads whatever changed now (tests). */
  flush(): void {
    for (const w of this.watched) this.read(w);
  }

  dispose(): void {
    if (this.poller) clearInterval(this.poller);
    for (const w of this.watched) {
      w.watcher?.close();
      if (w.timer) clearTimeout(w.timer);
      w.db.close();
    }
  }

  /** The folder, not the file: OpenCode creates the database and its WAL after we start. */
  private watchDir(w: Watched): void {
    const dir = path.dirname(w.file);
    const base = path.basename(w.file);
    try {
      w.watcher = fs.watch(dir, (_event, name) => {
        if (name && !String(name).startsWith(base)) return;
        this.soon(w);
      });
      w.watcher.on('error', () => {
        w.watcher?.close();
        w.watcher = undefined;
      });
    } catch {
      w.watcher = undefined; // the folder does not exist yet: the poll looks again
    }
  }

  private soon(w: Watched): void {
    if (w.timer) return;
    const wait = Math.max(0, w.lastRead + MIN_GAP_MS - Date.now());
    w.timer = setTimeout(() => {
      w.timer = undefined;
      this.read(w);
    }, wait);
  }

  private read(w: Watched): void {
    w.lastRead = Date.now();
    try {
      const res = w.db.poll();
      w.failing = undefined;
      if (!res.changed) return;
      for (const e of w.decoder.rows(res.rows as unknown as OpenCodeRows)) {
        this.events++;
        this.opts.usage?.event(e);
        this.opts.sink(logEventToObservation(e, w.file));
      }
    } catch (e) {
      const msg = e instanceof OpenCodeDbError ? e.message : `unexpected: ${(e as Error).message}`;
      // Logged once per kind of failure; the next change is read again.
      if (w.failing !== msg) this.opts.log?.warn(`${w.file}: cannot read the database now (${msg}); trying again on its next change`);
      w.failing = msg;
    }
  }
}
