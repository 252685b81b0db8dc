import * as assert from 'assert';
import { execFileSync, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { atomicTemps, FileReadError, readRegularFile, writeFileAtomic } from '../../../src/common/fsutil';

/** A pid that ran and exited: what a writer killed with SIGKILL leaves in its temp file's name. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('writeFileAtomic', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-fsutil-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('replaces the file whole and leaves no temp file', () => {
    const f = path.join(dir, 'status.json');
    fs.writeFileSync(f, 'old');
    writeFileAtomic(f, 'new', 0o600);
    assert.strictEqual(fs.readFileSync(f, 'utf8'), 'new');
    assert.strictEqual(fs.statSync(f).mode & 0o777, 0o600);
    assert.deepStrictEqual(fs.readdirSync(dir), ['status.json']);
  });

  it("removes a killed writer's leftover temp file of the same target, keeps a running one's and other files' (regression: a SIGKILL mid-write left .settings.json.<pid>.<ms>.tmp in ~/.claude for good)", () => {
    const f = path.join(dir, 'settings.json');
    const dead = `.settings.json.${deadPid()}.1764806400000.tmp`;
    const running = `.settings.json.${process.ppid}.1764806400001.tmp`;
    const other = `.team.toml.${deadPid()}.1764806400002.tmp`;
    for (const n of [dead, running, other]) fs.writeFileSync(path.join(dir, n), '{"torn":');
    assert.strictEqual(atomicTemps(dir, 'settings.json').length, 2);
    writeFileAtomic(f, '{}\n');
    assert.deepStrictEqual(fs.readdirSync(dir).sort(), [running, other, 'settings.json'].sort());
  });
});

describe('readRegularFile', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-read-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const refusal = (f: () => unknown): FileReadError => {
    try {
      f();
    } catch (e) {
      if (e instanceof FileReadError) return e;
      throw e;
    }
    throw new assert.AssertionError({ message: 'expected a FileReadError' });
  };

  it('reads a regular file whole or only its head, and refuses one over the limit by its size', () => {
    const f = path.join(dir, 'team.toml');
    fs.writeFileSync(f, 'x'.repeat(100));
    assert.strictEqual(readRegularFile(f, { max: 100 }).length, 100);
    assert.strictEqual(readRegularFile(f, { max: 1000, head: 10 }).toString(), 'x'.repeat(10));
    const big = refusal(() => readRegularFile(f, { max: 99 }));
    assert.strictEqual(big.code, 'EFBIG');
    assert.match(big.message, new RegExp(`^${f.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is .* KB.*shorten it`));
    assert.strictEqual(refusal(() => readRegularFile(path.join(dir, 'nope'), { max: 10 })).code, 'ENOENT');
  });

  it('refuses a link unless told to follow it, and follows one only to a regular file', () => {
    const real = path.join(dir, 'real.toml');
    fs.writeFileSync(real, 'mine');
    fs.symlinkSync(real, path.join(dir, 'link.toml'));
    fs.symlinkSync('/dev/zero', path.join(dir, 'zero'));
    const link = refusal(() => readRegularFile(path.join(dir, 'link.toml'), { max: 10 }));
    assert.deepStrictEqual([link.code, /symbolic link/.test(link.message)], ['ELOOP', true]);
    assert.strictEqual(readRegularFile(path.join(dir, 'link.toml'), { max: 10, followLink: true }).toString(), 'mine');
    const zero = refusal(() => readRegularFile(path.join(dir, 'zero'), { max: 1024, followLink: true }));
    assert.deepStrictEqual([zero.code, /a device, not a regular file/.test(zero.message)], ['ENOTREG', true]);
  });

  it('refuses a FIFO at once (no writer is waited for) and a folder', () => {
    const fifo = path.join(dir, 'read.md');
    execFileSync('mkfifo', [fifo]);
    // Should the open wait for a writer, this one arrives after 2 s: the read then returns and the test fails
    // on its time instead of hanging the run.
    const writer = spawn('sh', ['-c', `sleep 2; echo late > '${fifo}'`], { stdio: 'ignore' });
    try {
      const t0 = Date.now();
      const e = refusal(() => readRegularFile(fifo, { max: 1024 }));
      assert.ok(Date.now() - t0 < 1000, `took ${Date.now() - t0} ms`);
      assert.deepStrictEqual([e.code, /FIFO/.test(e.message)], ['ENOTREG', true]);
    } finally {
      writer.kill('SIGKILL');
    }
    assert.match(refusal(() => readRegularFile(dir, { max: 1024 })).message, /is a folder, not a regular file/);
  });
});
