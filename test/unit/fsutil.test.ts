import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { atomicTemps, writeFileAtomic } from '../../src/fsutil';

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
