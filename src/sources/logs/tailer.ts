/**
 * Follows append-only JSON-lines session logs (Claude transcripts, Codex rollouts, Gemini chat logs) under root folders
 * and hands their new complete lines to a consumer; the reading itself is fileReads.ts. Pure Node.
 * Every folder down to the root's depth has one plain `fs.watch` (DirWatch) whose events name the file, so
 * an append costs one read of that file whatever else the folder holds. chokidar only discovers the folder
 * tree above the deepest level: it re-lists a whole folder on every event in it, so it must not watch the
 * folders logs are written in (`~/.claude/projects/<project>/` holds hundreds of old transcripts).
 */
import { type Clock, wallClock } from '../../common/scheduler';
import { watch } from 'chokidar';
import * as fs from 'fs';
import * as fsp from 'fs/promises';
import * as path from 'path';
import { LineSplitter } from '../../jsonl/lines';
import { DirWatch, levelOf, nearestExisting, statDir } from './dirWatch';
import { sleep } from '../../common/poll';
import { coalesce, code, FileReads, type Run } from './fileReads';
import type { RootState, TailerOptions, TailFile, WatchedDir } from './tailTypes';

export type { TailerOptions, TailRoot } from './tailTypes';

/** A file that vanished is reported removed only if it is still missing this much later: writers that
 * replace a file (rename over it, delete and create) make it vanish for a moment. */
const GONE_MS = 100;

/** Safety net for roots that appear or disappear without an event reaching us. */
const ROOT_RECHECK_MS = 5000;

export class LogTailer {
  private readonly files = new Map<string, TailFile>();
  private readonly dirs = new Map<string, WatchedDir>();
  private readonly roots: RootState[];
  readonly backlog: number;
  private readonly maxAge: number;
  private readonly pollMs: number;
  private readonly clock: Clock;
  private readonly logged = new Set<string>();
  private starting = false;
  disposed = false;
  private readonly reads: FileReads;
  private recheck?: NodeJS.Timeout;
  private readonly rootRun: Run = { again: false };

  constructor(private readonly opts: TailerOptions) {
    const tailer = this;
    this.roots = opts.roots.map((root) => ({ root, dir: path.resolve(root.dir), active: false }));
    this.backlog = opts.backlogBytes ?? 256 * 1024;
    this.maxAge = opts.ignoreOlderThanMs ?? 24 * 3600 * 1000;
    this.pollMs = opts.pollMs ?? 2000;
    this.clock = opts.clock ?? wallClock;
    this.reads = new FileReads({
      get disposed() {
        return tailer.disposed;
      },
      backlog: this.backlog,
      onLines: (file, lines) => opts.onLines(file, lines),
      onTail: (file) => opts.onTail?.(file),
      onReset: (file) => opts.onReset?.(file),
      verify: (f) => this.verify(f as TailFile),
      log: (level, msg) => this.log(level, msg),
    });
  }

  /** Resolves once every existing root has been scanned and the initial backlog reads are done. */
  async start(): Promise<void> {
    this.starting = true;
    await this.checkRoots().finally(() => (this.starting = false));
    this.recheck = setInterval(() => void this.checkRoots(), ROOT_RECHECK_MS);
    this.recheck.unref();
    await Promise.all([...this.files.values()].map((f) => f.running));
  }

  /** Looks for roots and files that appeared and re-reads every file whose size or identity changed. */
  async flush(): Promise<void> {
    await this.checkRoots();
    // Files whose creation event was lost (they would otherwise be found at their next append).
    await Promise.all([...this.dirs.values()].map((d) => (d.scanning ? undefined : this.scanDir(d, false))));
    await Promise.all([...this.files.values()].map((f) => this.read(f)));
  }

  /** Reads what was appended to one followed file now; a path it does not follow is not touched. */
  readFile(p: string): Promise<void> {
    const f = this.files.get(path.resolve(p));
    return f ? this.read(f) : Promise.resolve();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.reads.dispose();
    clearInterval(this.recheck);
    const closing = this.roots.map((r) => this.deactivate(r));
    // In-flight reads stop at their next chunk; wait for them so no file handle outlives dispose.
    const reads = [...this.files.values()].map((f) => (this.reads.forget(f), f.running));
    this.files.clear();
    await Promise.all([...closing, ...reads]);
  }

  stats(): { files: number; bytesRead: number; lines: number } {
    return { files: this.files.size, bytesRead: this.reads.bytesRead, lines: this.reads.lineCount };
  }

  /** Coalesced: probe events come in bursts (mkdir -p). */
  private checkRoots(): Promise<void> {
    return coalesce(
      this.rootRun,
      async () => {
        for (const r of this.roots) await this.checkRoot(r);
      },
      () => !this.disposed,
    );
  }

  private async checkRoot(r: RootState): Promise<void> {
    while (!this.disposed) {
      const st = await statDir(r.dir);
      if (r.active) {
        if (st && st.ino === r.ino) return;
        // Deleted (or replaced by a new folder): the watches on the old folder are dead.
        this.log('info', `log root ${r.dir} went away; waiting for it to come back`);
        await this.deactivate(r);
        continue;
      }
      if (st) return this.activate(r, st.ino);
      const anc = await nearestExisting(r.dir);
      if (anc === r.probeDir) return;
      this.openProbe(r, anc);
      // Loop: a level may have been created between the stat and installing the watch.
    }
  }

  private async activate(r: RootState, ino: number): Promise<void> {
    // Files found by the first scan of a root that existed at start are history; in a root that
    // appeared later every file is new and is read from 0.
    const existing = this.starting;
    this.closeProbe(r);
    r.active = true;
    r.ino = ino;
    if (r.root.depth <= 0) {
      await this.addDir(r, r.dir, 0, existing, false);
      this.log('debug', `watching ${r.dir} (depth 0)`);
      return;
    }
    // chokidar walks the folders down to depth - 1 and reports the deepest ones (`addDir`) without
    // watching them; it ignores every file (the folder watches follow those).
    let ready = false;
    const scans: Promise<void>[] = [];
    const ignored = (_p: string, s?: fs.Stats) => !!s && s.isFile();
    const w = watch(r.dir, { depth: r.root.depth - 1, ignoreInitial: false, persistent: true, awaitWriteFinish: false, ignored });
    r.watcher = w;
    w.on('addDir', (p) => {
      const level = levelOf(r.dir, p);
      if (level < 0 || level > r.root.depth || !r.active) return;
      const scan = this.addDir(r, path.resolve(p), level, existing && !ready, false);
      if (!ready) scans.push(scan);
    });
    w.on('unlinkDir', (p) => this.removeDirs(path.resolve(p)));
    w.on('error', (e) => this.logOnce(this.logged, `${r.dir}:${code(e)}`, 'warn', `watching ${r.dir}: ${String(e)}`));
    await new Promise<void>((resolve) => w.once('ready', resolve));
    ready = true;
    await Promise.all(scans);
    this.log('debug', `watching ${r.dir} (depth ${r.root.depth})`);
  }

  private async deactivate(r: RootState): Promise<void> {
    const w = r.watcher;
    r.watcher = r.ino = undefined;
    r.active = false;
    this.closeProbe(r);
    for (const d of [...this.dirs.values()]) if (d.root === r) this.closeDir(d);
    await w?.close();
    // The files that went with the folder (their own events may not all have arrived).
    const under = [...this.files.keys()].filter((p) => p.startsWith(r.dir + path.sep));
    for (const p of under) if (!this.disposed && !(await fsp.stat(p).catch(() => undefined))) this.onUnlink(p);
  }

  private openProbe(r: RootState, dir: string): void {
    this.closeProbe(r);
    try {
      r.probe = fs.watch(dir, { persistent: true }, () => void this.checkRoots());
      r.probe.on('error', () => this.closeProbe(r));
      r.probeDir = dir;
    } catch (e) {
      // The periodic re-check still finds the root.
      this.logOnce(this.logged, `${dir}:probe:${code(e)}`, 'warn', `cannot watch ${dir}: ${String(e)}`);
    }
  }

  private closeProbe(r: RootState): void {
    r.probe?.close();
    r.probe = r.probeDir = undefined;
  }

  // ---- folders ---------------------------------------------------------------------------------------

  /** Watches `dir` (its own fs.watch, or polling) and adds its matching files. Resolves once they are found. */
  private async addDir(r: RootState, dir: string, level: number, existing: boolean, findsDirs: boolean): Promise<void> {
    if (this.disposed || !r.active || this.dirs.has(dir)) return;
    const d: WatchedDir = { dir, root: r, level, files: new Set(), scanning: true, findsDirs, closed: false, pollRun: { again: false } };
    d.watch = new DirWatch(
      dir,
      {
        change: (event, name) => this.onDirEvent(d, event, name),
        poll: () => void this.pollDir(d),
        failed: (e) => {
          // chokidar's watch on this folder most likely failed the same way: find its subfolders by polling too.
          d.findsDirs = true;
          this.logOnce(
            this.logged,
            `watch:${code(e)}`,
            'warn',
            `cannot watch ${dir} (${code(e)}): polling it every ${this.pollMs / 1000} s instead; further folders that fail like this are not logged`,
          );
        },
      },
      { pollMs: this.pollMs, watch: this.opts.watchDir },
    );
    this.dirs.set(dir, d);
    if (!d.watch.open()) return this.closeDir(d); // gone already: chokidar reports it
    await this.scanDir(d, existing);
    d.scanning = false;
    const pending = d.pending;
    d.pending = undefined;
    if (pending && !d.closed) for (const name of pending) this.onDirEvent(d, 'rename', name);
  }

  private closeDir(d: WatchedDir): void {
    d.closed = true;
    d.watch?.close();
    if (this.dirs.get(d.dir) === d) this.dirs.delete(d.dir);
  }

  /** chokidar saw `dir` go: stop watching it and everything below; its files are reported once really gone. */
  private removeDirs(dir: string): void {
    for (const d of [...this.dirs.values()]) {
      if (d.dir !== dir && !d.dir.startsWith(dir + path.sep)) continue;
      this.closeDir(d);
      for (const f of d.files) this.verify(f);
    }
  }

  /** Lists `d` and adds the matching files not known yet (and, when it finds its own subfolders, those). */
  private async scanDir(d: WatchedDir, existing: boolean): Promise<void> {
    const entries = await fsp.readdir(d.dir, { withFileTypes: true }).catch((e: unknown) => {
      if (code(e) !== 'ENOENT') this.logOnce(this.logged, `readdir:${code(e)}`, 'warn', `listing ${d.dir}: ${String(e)}`);
    });
    if (!entries || d.closed) return;
    const adds: Promise<void>[] = [];
    for (const e of entries) {
      const p = d.dir + path.sep + e.name;
      if (e.isDirectory()) {
        if (d.findsDirs && d.level < d.root.root.depth) adds.push(this.addDir(d.root, p, d.level + 1, existing, true));
        continue;
      }
      const known = this.files.get(p);
      if (known) {
        if (known.dir !== d) this.moveTo(known, d);
      } else if (d.root.root.match(p)) adds.push(this.discover(d, p, existing));
    }
    await Promise.all(adds);
  }

  /** The folder's watch reported `name` (a basename; none: anything may have changed). */
  private onDirEvent(d: WatchedDir, event: string, name: string | undefined): void {
    if (this.disposed || d.closed) return;
    if (name === undefined) return void this.pollDir(d);
    const p = d.dir + path.sep + name;
    const f = this.files.get(p);
    // An append: the common case, and the only work it costs.
    if (f) return event === 'change' ? this.reads.readNow(f) : this.verify(f);
    // During the first listing a name may be known a moment later: look at it once the listing is done.
    if (d.scanning) return void (d.pending ??= new Set()).add(name);
    // A 'rename' for a name not followed: created, or moved in ('change': written before we knew it).
    if (d.root.root.match(p) || (d.findsDirs && d.level < d.root.root.depth)) void this.discover(d, p, false);
  }

  /** Fallback for a folder without a watch: list it, find new and vanished files, re-read files whose size or identity changed. */
  private pollDir(d: WatchedDir): Promise<void> {
    return coalesce(
      d.pollRun,
      async () => {
        if (d.scanning || d.closed) return;
        let gone = false;
        const entries = await fsp.readdir(d.dir, { withFileTypes: true }).catch((e: unknown) => void (gone = code(e) === 'ENOENT'));
        if (d.closed) return;
        // Deleted: stop polling it (chokidar, a polling parent or the root re-check brings it back).
        if (gone) this.closeDir(d);
        const seen = new Set<string>();
        const work: Promise<void>[] = [];
        for (const e of entries ?? []) {
          const p = d.dir + path.sep + e.name;
          const f = this.files.get(p);
          if (f) {
            seen.add(p);
            work.push(this.pollFile(f));
          } else if (e.isDirectory() ? d.findsDirs && d.level < d.root.root.depth && !this.dirs.has(p) : d.root.root.match(p)) {
            work.push(this.discover(d, p, false));
          }
        }
        for (const f of d.files) if (!seen.has(f.path)) this.verify(f);
        await Promise.all(work);
      },
      () => !d.closed && !this.disposed,
    );
  }

  private async pollFile(f: TailFile): Promise<void> {
    const s = await fsp.stat(f.path).catch(() => undefined);
    if (!s) return this.verify(f);
    if (s.ino !== f.ino || s.dev !== f.dev || s.size !== f.offset) await this.read(f);
  }

  // ---- files -----------------------------------------------------------------------------------------

  /** Something named `p` appeared in `d`: follow it if it is a file (or watch it, a folder `d` finds itself). */
  private async discover(d: WatchedDir, p: string, existing: boolean): Promise<void> {
    const s = await fsp.stat(p).catch(() => undefined);
    if (!s || this.disposed || d.closed) return;
    if (s.isDirectory()) {
      if (d.findsDirs && d.level < d.root.root.depth) await this.addDir(d.root, p, d.level + 1, false, true);
      return;
    }
    if (!s.isFile() || !d.root.root.match(p)) return;
    const known = this.files.get(p);
    if (known) return this.read(known);
    const dormant = existing && s.mtimeMs < this.clock.now() - this.maxAge;
    const f: TailFile = {
      path: p,
      dev: s.dev,
      ino: s.ino,
      offset: existing ? s.size : 0,
      fromBacklog: existing,
      dormant,
      skipPartial: false,
      ...(d.root.root.rewritesHead ? { head: -1 } : {}),
      splitter: new LineSplitter(),
      dir: d,
      verifyRun: { again: false },
      again: false,
      gone: false,
    };
    this.files.set(p, f);
    d.files.add(f);
    if (!dormant) void this.read(f);
  }

  private moveTo(f: TailFile, d: WatchedDir): void {
    f.dir.files.delete(f);
    f.dir = d;
    d.files.add(f);
  }

  /** It was renamed, deleted or replaced: read it if it is (still or again) there, else report it removed. */
  private verify(f: TailFile): void {
    void coalesce(
      f.verifyRun,
      async () => {
        for (let look = 0; !f.gone && !this.disposed; look++) {
          const s = await fsp.stat(f.path).catch(() => undefined);
          if (f.gone || this.disposed) return;
          // Back (replaced): the read sees the new identity and starts it over.
          if (s?.isFile()) return void this.read(f);
          if (look > 0) return this.onUnlink(f.path);
          await sleep(GONE_MS, { background: true });
        }
      },
      () => !f.gone && !this.disposed,
    );
  }

  private onUnlink(p: string): void {
    const f = this.files.get(p);
    if (!f) return;
    this.reads.forget(f);
    this.files.delete(p);
    f.dir.files.delete(f);
    this.reads.call(f, () => this.opts.onRemoved?.(p));
  }

  private read(f: TailFile): Promise<void> {
    return this.reads.read(f);
  }

  private logOnce(seen: Set<string>, key: string, level: 'debug' | 'info' | 'warn', msg: string): void {
    this.reads.logOnce(seen, key, level, msg);
  }

  /** A failing logger must not break tailing either. */
  log(level: 'debug' | 'info' | 'warn', msg: string): void {
    try {
      this.opts.log?.[level](msg);
    } catch {}
  }
}
