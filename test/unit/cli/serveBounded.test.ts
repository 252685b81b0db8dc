// What a repository (or a token holder) can plant to freeze or fill `agent-lens serve`: registry and read.md files
// that never end or never open, thousands of agent folders, a flood of invented agent keys. Each case runs the
// real CLI as a child under a lifetime and an RSS watchdog: a hang or a balloon is killed and fails the test.
// AGENT_LENS_DIST=<dist folder> runs them against another build.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { send } from '../handoffContract';
import { runWatched, type ServeChild, sendWithin, startServe } from '../serveChild';

const MB = 1024 * 1024;
/** What serve may use: Node and the hub take ~50 MB; reading /dev/zero passed 300 MB within a second. */
const RSS_LIMIT_MB = 150;

describe('serve: bounded reads and bounded boards', function () {
  this.timeout(120_000);
  let tmp: string;
  let run: ServeChild | undefined;
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-bounded-'))));
  afterEach(async () => {
    await run?.stop();
    run = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const info = () => path.join(tmp, 'run', 'hub.json');
  const serveRoot = (root: string, lifeMs = 30_000) =>
    (run = startServe(['--root', root, '--team', path.join(root, 'team.toml')], info(), { limitMb: RSS_LIMIT_MB, lifeMs }));

  for (const [name, plant, want] of [
    ['a link to /dev/zero', (f: string) => fs.symlinkSync('/dev/zero', f), /team\.toml: .*(a device|not a regular file)/],
    [
      'a link to a FIFO',
      (f: string) => (execFileSync('mkfifo', [`${f}.fifo`]), fs.symlinkSync(`${f}.fifo`, f)),
      /team\.toml: .*(FIFO|not a regular file)/,
    ],
    ['a 10 MB file', (f: string) => fs.writeFileSync(f, `# ${'x'.repeat(10 * MB)}\n`), /team\.toml: .*\b(KB|MB)\b/],
  ] as const) {
    it(`a team.toml that is ${name}: a registry error at once, memory flat, the hub listens`, async () => {
      const root = path.join(tmp, 'handoff');
      fs.mkdirSync(root);
      plant(path.join(root, 'team.toml'));
      const t0 = Date.now();
      serveRoot(root, 15_000);
      const m = await run!.waitFor(want, 10_000);
      const ms = Date.now() - t0;
      await run!.info(5000);
      console.log(
        `      ${name}: registry error after ${ms} ms (process start included), peak RSS ${run!.peakMb().toFixed(0)} MB: ${m[0].slice(0, 160)}`,
      );
      assert.ok(run!.peakMb() < RSS_LIMIT_MB, `peak RSS ${run!.peakMb()} MB`);
    });
  }

  it('a read.md that is a link to /dev/zero, a FIFO or 10 MB: the dispatch fails at once naming it, memory flat', async () => {
    const root = path.join(tmp, 'handoff');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'team.toml'), ['zero', 'fifo', 'big'].map((k) => `[${k}]\nmode = "web"\n`).join('\n'));
    for (const k of ['zero', 'fifo', 'big']) fs.mkdirSync(path.join(root, k));
    fs.symlinkSync('/dev/zero', path.join(root, 'zero', 'read.md'));
    execFileSync('mkfifo', [path.join(root, 'fifo', 'read.md')]);
    fs.writeFileSync(path.join(root, 'big', 'read.md'), 'x'.repeat(10 * MB));
    serveRoot(root, 30_000);
    const { port, token } = await run!.info();
    for (const agent of ['zero', 'fifo', 'big']) {
      const t0 = Date.now();
      const a = await sendWithin(8000, port, 'POST', '/handoff/dispatch', {
        token,
        body: JSON.stringify({ agent, task_id: 't1', brief: 'b' }),
      }).catch((e: Error) => {
        throw new Error(
          `read.md of ${agent}: ${e.message} after ${Date.now() - t0} ms (serve: ${run!.killed() ?? 'still running'}, peak RSS ${run!.peakMb().toFixed(0)} MB)`,
        );
      });
      console.log(
        `      read.md of ${agent}: answered ${a.status} after ${Date.now() - t0} ms, peak RSS ${run!.peakMb().toFixed(0)} MB: ${String(a.json?.error).slice(0, 160)}`,
      );
      assert.strictEqual(a.status, 400, a.text);
      assert.match(a.json.error, /^artifact folder failed: .*read\.md/);
    }
    assert.ok(run!.peakMb() < RSS_LIMIT_MB, `peak RSS ${run!.peakMb()} MB`);
    assert.ok(fs.lstatSync(path.join(root, 'zero', 'read.md')).isSymbolicLink(), 'the planted link is left as it was');
  });

  it('agent-lens dispatch --brief of /dev/zero or a FIFO: a usage error at once, memory flat', async () => {
    const fifo = path.join(tmp, 'brief.fifo');
    execFileSync('mkfifo', [fifo]);
    for (const brief of ['/dev/zero', fifo]) {
      const t0 = Date.now();
      const c = runWatched(['dispatch', '--agent', 'w', '--task-id', 't1', '--brief', brief], {
        limitMb: RSS_LIMIT_MB,
        lifeMs: 10_000,
        env: { ...process.env, AGENT_LENS_HUB: path.join(tmp, 'none.json') },
      });
      const code = await c.exited;
      console.log(
        `      --brief ${brief}: exit ${code} after ${Date.now() - t0} ms (${c.killed() ?? 'not killed'}), peak RSS ${c.peakMb().toFixed(0)} MB: ${c.stderr().trim().slice(0, 160)}`,
      );
      assert.strictEqual(code, 2, c.killed() ?? c.stderr());
      assert.match(c.stderr(), /cannot read the brief: .*not a regular file/);
    }
  });

  it('10,000 planted agent folders: start lists none of them and rewrites no status.json', async () => {
    const root = path.join(tmp, 'handoff');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'team.toml'), '[w]\nmode = "web"\n');
    const old = new Date('2020-01-01T00:00:00Z');
    const planted = Array.from({ length: 10_000 }, (_, i) => path.join(root, `a${String(i).padStart(5, '0')}`, 'status.json'));
    for (const f of planted) {
      fs.mkdirSync(path.dirname(f));
      fs.writeFileSync(f, '{"mine": true}\n');
      fs.utimesSync(f, old, old);
    }
    // A registered agent's board left in flight by the last run: the one file a restart may rewrite (as idle).
    fs.mkdirSync(path.join(root, 'w'));
    fs.writeFileSync(path.join(root, 'w', 'status.json'), JSON.stringify({ agent: 'w', state: 'in_progress', task_id: 't0' }));
    const t0 = Date.now();
    serveRoot(root, 60_000);
    await run!.info(55_000);
    const ms = Date.now() - t0;
    const empty = startServe(
      ['--root', path.join(tmp, 'empty'), '--team', path.join(tmp, 'empty', 'team.toml')],
      path.join(tmp, 'run2', 'hub.json'),
    );
    const b0 = Date.now();
    await empty.info();
    const emptyMs = Date.now() - b0;
    await empty.stop();
    console.log(`      10,000 planted folders: listening after ${ms} ms; an empty root: ${emptyMs} ms (process start included in both)`);
    const changed = planted.filter((f) => fs.statSync(f).mtimeMs !== old.getTime() || fs.readFileSync(f, 'utf8') !== '{"mine": true}\n');
    assert.strictEqual(changed.length, 0, `${changed.length} planted status.json rewritten, e.g. ${changed[0]}`);
    const w = JSON.parse(fs.readFileSync(path.join(root, 'w', 'status.json'), 'utf8'));
    assert.deepStrictEqual([w.state, w.task_id], ['idle', null], 'the registered agent reads idle after the restart (seed 002 §7.5)');
  });

  it('1,000 doorbell events with new keys: no folder, boards capped, one warning, memory flat', async () => {
    const root = path.join(tmp, 'handoff');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'team.toml'), '[w]\nmode = "web"\n');
    serveRoot(root, 60_000);
    const { port, token } = await run!.info();
    const before = fs.readdirSync(root).sort();
    const t0 = Date.now();
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1000; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          send(port, 'POST', '/handoff', {
            token,
            body: JSON.stringify({ id: `key${i + j}::t1`, status: 'progress', summary: 'hello', report_path: null }),
          }),
        ),
      );
      for (const a of batch) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    }
    const ms = Date.now() - t0;
    const registered = await send(port, 'POST', '/handoff', {
      token,
      body: JSON.stringify({ id: 'w::t1', status: 'progress', summary: 'mine', report_path: null }),
    });
    const boards = (await send(port, 'GET', '/handoff/boards', { token })).json;
    const after = fs.readdirSync(root).sort();
    const warnings = run!
      .stderr()
      .split('\n')
      .filter((l) => /unregistered agents are kept in memory only/.test(l));
    console.log(
      `      1,000 new keys: ${ms} ms, answers ${JSON.stringify(Object.fromEntries(statuses))}, ${after.length - before.length} new entries in the root, ${boards.boards.length} boards, ${boards.ungrouped.length} ungrouped kept, ${String(boards.dropped)} counted as dropped, ${warnings.length} cap warning(s), peak RSS ${run!.peakMb().toFixed(0)} MB`,
    );
    assert.deepStrictEqual(Object.fromEntries(statuses), { 200: 1000 });
    assert.deepStrictEqual(
      after.filter((n) => n !== 'w'),
      before,
      'no folder for any unregistered key',
    );
    assert.ok(boards.boards.length <= 33, `${boards.boards.length} boards`);
    assert.ok(boards.ungrouped.length <= 20);
    assert.strictEqual(boards.dropped, 1000 - 32, 'the boards read-out counts what it dropped');
    assert.strictEqual(warnings.length, 1, warnings.join('\n'));
    assert.strictEqual(registered.status, 200);
    assert.match(
      fs.readFileSync(path.join(root, 'w', 'events.jsonl'), 'utf8'),
      /mine/,
      'a registered agent keeps its folder and events log',
    );
    assert.ok(run!.peakMb() < RSS_LIMIT_MB, `peak RSS ${run!.peakMb()} MB`);
  });
});
