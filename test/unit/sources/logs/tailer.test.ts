import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LogTailer, type TailerOptions } from '../../../../src/sources/logs/tailer';
import { jsonl, Sink, until } from './tailerSink';

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

  it('delivers appended lines from the watcher alone, each right after the previous delivery', async () => {
    const f = path.join(dir, 'a.jsonl');
    fs.writeFileSync(f, '');
    await startTailer();
    // Each append lands just after the previous one was read (a watcher that throttles events per file,
    // as chokidar does for 50 ms, would drop these).
    for (let i = 0; i < 5; i++) {
      fs.appendFileSync(f, `{"n":${i}}\n`);
      await until(
        () => sink.of(f).length === i + 1,
        2000,
        () => new Promise((r) => setTimeout(r, 1)),
      );
    }
    assert.deepStrictEqual(
      sink.of(f),
      [0, 1, 2, 3, 4].map((i) => `{"n":${i}}`),
    );
  });

  it('with 300 idle sessions beside it, follows appends and finds a session and a project created later (watcher alone)', async () => {
    // Claude's layout: <root>/<project>/<session>.jsonl, depth 1.
    const proj = path.join(dir, 'proj');
    fs.mkdirSync(proj);
    const old = new Date(Date.now() - 7 * 24 * 3600 * 1000);
    for (let i = 0; i < 300; i++) {
      const g = path.join(proj, `old-${i}.jsonl`);
      fs.writeFileSync(g, '{"type":"summary"}\n');
      fs.utimesSync(g, old, old);
    }
    const live = path.join(proj, 'live.jsonl');
    fs.writeFileSync(live, '');
    const t = await startTailer({}, dir, 1);
    assert.strictEqual(t.stats().files, 301);
    assert.strictEqual(t.stats().bytesRead, 0, 'idle sessions are not read');
    for (let i = 0; i < 20; i++) {
      fs.appendFileSync(live, `{"n":${i}}\n`);
      await until(
        () => sink.of(live).length === i + 1,
        2000,
        () => new Promise((r) => setTimeout(r, 1)),
      );
    }
    const later = path.join(proj, 'later.jsonl');
    fs.writeFileSync(later, '{"first":true}\n');
    await until(() => sink.of(later).length === 1);
    fs.appendFileSync(later, '{"second":true}\n');
    await until(() => sink.of(later).length === 2);
    // A new project folder is found too (chokidar's part), its sessions read from 0.
    const proj2 = path.join(dir, 'proj2');
    fs.mkdirSync(proj2);
    const s2 = path.join(proj2, 's.jsonl');
    fs.writeFileSync(s2, '{"p2":1}\n');
    await until(() => sink.of(s2).length === 1);
    assert.deepStrictEqual(
      sink.of(live),
      Array.from({ length: 20 }, (_, i) => `{"n":${i}}`),
    );
    assert.deepStrictEqual(sink.of(later), ['{"first":true}', '{"second":true}']);
    assert.deepStrictEqual(sink.of(s2), ['{"p2":1}']);
    assert.strictEqual(t.stats().bytesRead, fs.statSync(live).size + fs.statSync(later).size + fs.statSync(s2).size);
    // Removing a project folder reports its sessions removed.
    fs.rmSync(proj2, { recursive: true });
    await until(() => sink.removed.includes(s2));
    assert.deepStrictEqual(sink.removed, [s2]);
    assert.strictEqual(t.stats().files, 302);
  });

  it('follows new day folders three levels down (Codex layout) without a flush', async () => {
    const sessions = path.join(dir, 'sessions');
    const day1 = path.join(sessions, '2026', '01', '31');
    fs.mkdirSync(day1, { recursive: true });
    const a = path.join(day1, 'rollout-a.jsonl');
    fs.writeFileSync(a, '{"a":0}\n');
    await startTailer({}, sessions, 3);
    assert.deepStrictEqual(sink.of(a), ['{"a":0}']);
    fs.appendFileSync(a, '{"a":1}\n');
    await until(() => sink.of(a).length === 2);
    const day2 = path.join(sessions, '2026', '02', '01');
    fs.mkdirSync(day2, { recursive: true });
    const b = path.join(day2, 'rollout-b.jsonl');
    fs.writeFileSync(b, '{"b":0}\n');
    await until(() => sink.of(b).length === 1);
    fs.appendFileSync(b, '{"b":1}\n');
    await until(() => sink.of(b).length === 2);
    // Deeper than the depth: not followed.
    const deep = path.join(day2, 'x', 'rollout-c.jsonl');
    fs.mkdirSync(path.dirname(deep));
    fs.writeFileSync(deep, '{"c":0}\n');
    await new Promise((r) => setTimeout(r, 200));
    assert.deepStrictEqual(sink.of(deep), []);
    assert.deepStrictEqual(sink.of(b), ['{"b":0}', '{"b":1}']);
  });

  it('reads an append too big for one synchronous read (1.2 MB at once) whole and in order', async () => {
    const f = path.join(dir, 'a.jsonl');
    fs.writeFileSync(f, '{"small":0}\n');
    await startTailer();
    fs.appendFileSync(f, '{"small":1}\n');
    await until(() => sink.of(f).length === 2);
    const big = Array.from({ length: 1200 }, (_, i) => `{"big":${i},"pad":"${'p'.repeat(1000)}"}`);
    fs.appendFileSync(f, big.join('\n') + '\n');
    fs.appendFileSync(f, '{"small":2}\n');
    await until(() => sink.of(f).length === 1203);
    assert.deepStrictEqual(sink.of(f), ['{"small":0}', '{"small":1}', ...big, '{"small":2}']);
  });

  it('holds a partial last line until it is completed', async () => {
    const f = path.join(dir, 'a.jsonl');
    fs.writeFileSync(f, '{"a":1}\n{"b":');
    const t = await startTailer();
    assert.deepStrictEqual(sink.of(f), ['{"a":1}']);
    fs.appendFileSync(f, '2');
    await t.flush();
    assert.deepStrictEqual(sink.of(f), ['{"a":1}']);
    fs.appendFileSync(f, '}\n');
    await until(
      () => sink.of(f).length === 2,
      5000,
      () => t.flush(),
    );
    assert.deepStrictEqual(sink.of(f), ['{"a":1}', '{"b":2}']);
  });

  it('resets and re-reads a truncated file', async () => {
    const f = path.join(dir, 'a.jsonl');
    fs.writeFileSync(f, 'one\ntwo\n');
    const t = await startTailer();
    fs.truncateSync(f, 0);
    fs.appendFileSync(f, 'x\n');
    await until(
      () => sink.of(f).length === 1,
      5000,
      () => t.flush(),
    );
    assert.deepStrictEqual(sink.resets, [f]);
    assert.deepStrictEqual(sink.of(f), ['x']);
  });

  it('resets on rotation: renamed away and a new file at the same path', async () => {
    const f = path.join(dir, 'a.jsonl');
    fs.writeFileSync(f, 'old-1\nold-2\nold-3\n');
    await startTailer();
    fs.renameSync(f, `${f}.1`);
    fs.writeFileSync(f, 'new\n');
    await until(() => sink.of(f).length === 1);
    assert.deepStrictEqual(sink.resets, [f]);
    assert.deepStrictEqual(sink.of(f), ['new']);
    assert.deepStrictEqual(sink.removed, []);
  });

  it('reports a deleted file as removed and forgets it', async () => {
    const f = path.join(dir, 'a.jsonl');
    const g = path.join(dir, 'b.jsonl');
    fs.writeFileSync(f, 'x\n');
    fs.writeFileSync(g, 'y\n');
    const t = await startTailer();
    assert.strictEqual(t.stats().files, 2);
    fs.unlinkSync(f);
    await until(() => sink.removed.length === 1);
    assert.deepStrictEqual(sink.removed, [f]);
    assert.strictEqual(t.stats().files, 1);
  });

  it('picks up a root created after start (nearest parent watched), reading its files from 0', async () => {
    const root = path.join(dir, 'sessions', '2026', '12', '03');
    await startTailer({ backlogBytes: 4 }, root, 0);
    assert.strictEqual(tailer!.stats().files, 0);
    fs.mkdirSync(root, { recursive: true });
    const f = path.join(root, 'rollout.jsonl');
    fs.writeFileSync(f, '{"first":true}\n');
    await until(() => sink.of(f).length === 1); // no flush: the parent watch must find it
    fs.appendFileSync(f, '{"second":true}\n');
    await until(() => sink.of(f).length === 2);
    assert.deepStrictEqual(sink.of(f), ['{"first":true}', '{"second":true}']);
  });

  it('follows a root that is deleted and created again', async () => {
    const root = path.join(dir, 'projects');
    fs.mkdirSync(root);
    fs.mkdirSync(path.join(root, 'p'));
    const before = path.join(root, 'p', 'before.jsonl');
    fs.writeFileSync(before, 'x\n');
    const t = await startTailer({}, root, 1);
    fs.rmSync(root, { recursive: true });
    await t.flush();
    await until(
      () => sink.removed.length === 1,
      5000,
      () => t.flush(),
    );
    assert.deepStrictEqual(sink.removed, [before]);
    fs.mkdirSync(path.join(root, 'p'), { recursive: true });
    const f = path.join(root, 'p', 's.jsonl');
    fs.writeFileSync(f, 'back\n');
    await until(
      () => sink.of(f).length === 1,
      5000,
      () => t.flush(),
    );
    assert.deepStrictEqual(sink.of(f), ['back']);
  });

  it('follows 200 files with interleaved appends: every line once, in order', async () => {
    const N = 200;
    const ROUNDS = 6;
    const files = Array.from({ length: N }, (_, i) => path.join(dir, `d${i % 10}`, `f${i}.jsonl`));
    for (let i = 0; i < 10; i++) fs.mkdirSync(path.join(dir, `d${i}`));
    files.slice(0, N / 2).forEach((f) => fs.writeFileSync(f, ''));
    const t = await startTailer();
    for (let r = 0; r < ROUNDS; r++) {
      files.forEach((f, i) => {
        const line = `{"file":${i},"round":${r}}\n`;
        // Every third append is split in two, so partial lines meet concurrent reads.
        if ((i + r) % 3 === 0) {
          fs.appendFileSync(f, line.slice(0, 7));
          fs.appendFileSync(f, line.slice(7));
        } else fs.appendFileSync(f, line);
      });
    }
    await until(
      () => sink.total >= N * ROUNDS,
      15000,
      () => t.flush(),
    );
    files.forEach((f, i) => {
      const want = Array.from({ length: ROUNDS }, (_, r) => `{"file":${i},"round":${r}}`);
      assert.deepStrictEqual(sink.of(f), want, f);
    });
    assert.strictEqual(t.stats().files, N);
    assert.deepStrictEqual(sink.resets, []);
  });

  it('reads only the backlog tail of a big existing file, from a line start', async () => {
    const f = path.join(dir, 'big.jsonl');
    const lines = Array.from({ length: 20000 }, (_, i) => `{"i":${i},"pad":"${'x'.repeat(40)}"}`);
    fs.writeFileSync(f, lines.join('\n') + '\n');
    const backlog = 64 * 1024;
    const t = await startTailer({ backlogBytes: backlog });
    const got = sink.of(f);
    assert.ok(t.stats().bytesRead <= backlog + 1, `read ${t.stats().bytesRead}`);
    assert.ok(got.length > 1000 && got.length < 1500, `${got.length} lines`);
    assert.deepStrictEqual(got, lines.slice(lines.length - got.length), 'a whole-line suffix of the file');
  });

  it('does not read files older than ignoreOlderThanMs until they change', async () => {
    const f = path.join(dir, 'old.jsonl');
    fs.writeFileSync(f, 'history-1\nhistory-2\n');
    const old = new Date(Date.now() - 48 * 3600 * 1000);
    fs.utimesSync(f, old, old);
    const t = await startTailer();
    assert.strictEqual(t.stats().bytesRead, 0);
    await t.flush();
    assert.strictEqual(t.stats().bytesRead, 0, 'a flush does not wake an unchanged file');
    fs.appendFileSync(f, 'fresh\n');
    await until(() => sink.of(f).includes('fresh'));
    assert.deepStrictEqual(sink.of(f), ['history-1', 'history-2', 'fresh'], 'woken: its backlog, then the new line');
  });

  it('reads only appended bytes of a 100 MB growing log', async function () {
    this.timeout(60000);
    const f = path.join(dir, 'huge.jsonl');
    const line = `{"type":"assistant","message":{"content":"${'y'.repeat(200)}"}}\n`;
    const block = Buffer.from(line.repeat(Math.floor((1 << 20) / line.length)));
    const fd = fs.openSync(f, 'w');
    for (let written = 0; written < 100 * (1 << 20); written += block.length) fs.writeSync(fd, block);
    fs.closeSync(fd);
    assert.ok(fs.statSync(f).size >= 100 * (1 << 20));
    const backlog = 256 * 1024;
    const t = await startTailer();
    const atStart = t.stats().bytesRead;
    assert.ok(atStart <= backlog + 1, `start read ${atStart} bytes`);
    const before = sink.of(f).length;
    let appended = 0;
    for (let burst = 0; burst < 10; burst++) {
      const chunk = Array.from({ length: 100 }, (_, i) => `{"appended":${burst * 100 + i}}\n`).join('');
      fs.appendFileSync(f, chunk);
      appended += Buffer.byteLength(chunk);
      await new Promise((r) => setTimeout(r, 5));
    }
    await until(
      () => sink.of(f).length === before + 1000,
      10000,
      () => t.flush(),
    );
    const got = sink.of(f).slice(before);
    assert.deepStrictEqual(
      got,
      Array.from({ length: 1000 }, (_, i) => `{"appended":${i}}`),
    );
    const read = t.stats().bytesRead;
    assert.ok(read >= atStart + appended && read <= atStart + appended + 1, `read ${read} = start ${atStart} + appended ${appended}`);
    console.log(`      100 MB log: ${atStart} B backlog + ${appended} B appended, ${read} B read in total`);
  });
});
