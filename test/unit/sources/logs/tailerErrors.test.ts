import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LogTailer, type TailerOptions } from '../../../../src/sources/logs/tailer';
import { jsonl, Sink, until } from './tailerSink';

// What the tailer does when watching or reading fails: it polls, logs once, and keeps following the rest.
describe('LogTailer', function () {
  this.timeout(20000);
  let dir: string;
  let sink: Sink;
  let tailer: LogTailer | undefined;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-tailer-'));
    sink = new Sink();
  });
  afterEach(async () => {
    await tailer?.dispose();
    tailer = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function startTailer(opts: Partial<TailerOptions> = {}, root = dir, depth = 2): Promise<LogTailer> {
    tailer = new LogTailer({ roots: [{ dir: root, depth, match: jsonl }], ...sink.options(), ...opts });
    await tailer.start();
    return tailer;
  }

  it('polls a folder whose fs.watch cannot be had (ENOSPC), logging it once', async () => {
    const a = path.join(dir, 'a.jsonl');
    fs.writeFileSync(a, 'x0\n');
    fs.mkdirSync(path.join(dir, 'sub'));
    const watchDir = () => {
      throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached, watch'), { code: 'ENOSPC' });
    };
    await startTailer({ watchDir, pollMs: 50 });
    assert.deepStrictEqual(sink.of(a), ['x0']);
    fs.appendFileSync(a, 'x1\n');
    await until(() => sink.of(a).length === 2);
    const b = path.join(dir, 'sub', 'b.jsonl');
    fs.writeFileSync(b, 'y0\n');
    await until(() => sink.of(b).length === 1);
    // A folder created later, under a folder that is polled, is polled as well.
    const c = path.join(dir, 'sub', 'new', 'c.jsonl');
    fs.mkdirSync(path.dirname(c));
    fs.writeFileSync(c, 'z0\n');
    await until(() => sink.of(c).length === 1);
    // Shorter than before: a poll only sees the size (a same-size rewrite between two polls is invisible).
    fs.truncateSync(a, 0);
    fs.appendFileSync(a, 'z\n');
    await until(() => sink.of(a).length === 1 && sink.resets.includes(a));
    fs.unlinkSync(b);
    await until(() => sink.removed.includes(b));
    assert.deepStrictEqual(sink.of(a), ['z']);
    assert.strictEqual(sink.logs.filter((l) => l.includes('ENOSPC')).length, 1, JSON.stringify(sink.logs));
  });

  it('falls back to polling when a folder watch fails later (error event)', async () => {
    const a = path.join(dir, 'a.jsonl');
    fs.writeFileSync(a, '');
    const watchers: fs.FSWatcher[] = [];
    const watchDir = (d: string, l: (event: string, name: string | null) => void) => {
      const w = fs.watch(d, l);
      watchers.push(w);
      return w;
    };
    await startTailer({ watchDir, pollMs: 50 }, dir, 0);
    assert.strictEqual(watchers.length, 1);
    watchers[0].emit('error', Object.assign(new Error('EMFILE: too many open files, watch'), { code: 'EMFILE' }));
    for (let i = 0; i < 3; i++) fs.appendFileSync(a, `${i}\n`);
    await until(() => sink.of(a).length === 3);
    assert.deepStrictEqual(sink.of(a), ['0', '1', '2']);
    assert.strictEqual(sink.logs.filter((l) => l.includes('EMFILE')).length, 1, JSON.stringify(sink.logs));
  });

  it('logs an unreadable file once and keeps following the others', async function () {
    if (process.getuid?.() === 0) this.skip(); // root reads anything
    const bad = path.join(dir, 'bad.jsonl');
    const good = path.join(dir, 'good.jsonl');
    // Readable when found (chokidar skips files without the owner-read bit), then write-only.
    fs.writeFileSync(bad, '');
    fs.writeFileSync(good, '');
    const t = await startTailer();
    fs.chmodSync(bad, 0o200);
    for (let i = 0; i < 3; i++) {
      fs.appendFileSync(bad, 'secret\n');
      fs.appendFileSync(good, `ok${i}\n`);
      await until(
        () => sink.of(good).length === i + 1,
        5000,
        () => t.flush(),
      );
    }
    assert.strictEqual(sink.logs.filter((l) => l.includes('EACCES')).length, 1, JSON.stringify(sink.logs));
    assert.deepStrictEqual(sink.of(bad), []);
  });

  it('survives a throwing consumer and files that vanish right after being written', async () => {
    const f = path.join(dir, 'a.jsonl');
    fs.writeFileSync(f, '');
    let calls = 0;
    const t = await startTailer({
      onLines: (file, l) => {
        calls++;
        sink.lines.set(file, [...sink.of(file), ...l]);
        throw new Error('consumer bug');
      },
    });
    for (let i = 0; i < 20; i++) {
      const g = path.join(dir, `tmp${i}.jsonl`);
      fs.writeFileSync(g, 'blink\n');
      fs.unlinkSync(g);
    }
    fs.appendFileSync(f, '1\n');
    await until(
      () => sink.of(f).length === 1,
      5000,
      () => t.flush(),
    );
    fs.appendFileSync(f, '2\n');
    await until(
      () => sink.of(f).length === 2,
      5000,
      () => t.flush(),
    );
    assert.ok(calls >= 2);
    assert.strictEqual(sink.logs.filter((l) => l.includes('consumer bug')).length, 1);
  });
});
