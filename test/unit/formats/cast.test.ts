import * as assert from 'assert';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CastError, parseCast } from '../../../src/formats/cast';
import { FIXTURES, ROOT } from '../helpers';

describe('asciinema parsing', () => {
  it('reads v2 with absolute times', () => {
    const c = parseCast('{"version":2,"width":100,"height":30}\n[0.5,"o","a"]\n[1.25,"i","b"]\n[2,"x","0"]\n');
    assert.deepStrictEqual([c.cols, c.rows, c.events.length, c.duration], [100, 30, 3, 2]);
  });
  it('reads v3 with intervals and comments', () => {
    const c = parseCast('{"version":3,"term":{"cols":90,"rows":20}}\n# a comment\n[0.5,"o","a"]\n[0.25,"r","80x24"]\n[1,"x","1"]\n');
    assert.deepStrictEqual(
      c.events.map((e) => e.t),
      [0.5, 0.75, 1.75],
    );
    assert.strictEqual(c.cols, 90);
  });
  for (const [text, line, re] of [
    ['not json', 1, /header is not JSON/],
    ['{"version":1,"width":1,"height":1}', 1, /unsupported asciinema version/],
    ['{"version":2}', 1, /width/],
    ['{"version":2,"width":80,"height":24}\n[1,"o","a"]\n[0.5,"o","b"]', 3, /goes back/],
    ['{"version":2,"width":80,"height":24}\n[1,"o"]', 2, /\[time: number, code: string, data: string\]/],
    ['{"version":2,"width":80,"height":24}\n{oops', 2, /not JSON/],
  ] as [string, number, RegExp][]) {
    it(`rejects ${JSON.stringify(text.slice(0, 30))} naming line ${line}`, () => {
      assert.throws(
        () => parseCast(text, 'f.cast'),
        (e: unknown) => e instanceof CastError && e.line === line && re.test(e.problem),
      );
    });
  }
});

describe('agent-lens replay (the built CLI)', () => {
  const cli = path.join(ROOT, 'dist', 'cli.js');
  const cast = path.join(FIXTURES, 'recordings', 'claude-code', '04-bash-permission-approve', 'session.cast');

  it('prints one JSON object per change, with the documented fields', () => {
    const out = execFileSync(process.execPath, [cli, 'replay', cast, '--command-line', 'claude'], { encoding: 'utf8' });
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepStrictEqual(
      lines.map((l) => l.state),
      ['idle', 'working', 'waiting', 'working', 'stopped', 'exited'],
    );
    for (const l of lines) {
      assert.deepStrictEqual(
        Object.keys(l).filter((k) => k !== 'waitKind'),
        ['t', 'agent', 'state', 'source', 'evidence'],
      );
      assert.strictEqual(l.agent, 'claude-code');
      assert.ok(typeof l.t === 'number' && l.t >= 0);
    }
    const waiting = lines.find((l) => l.state === 'waiting');
    assert.ok(waiting.t > 5.7 && waiting.t < 6.0, `waiting at ${waiting.t}`);
  });

  it('prints the final screen with --screen and honours --cols/--rows', () => {
    const out = execFileSync(process.execPath, [cli, 'replay', cast, '--screen'], { encoding: 'utf8' });
    assert.match(out, /✻ Worked for 2s/);
    assert.match(out, /Claude Code v2\.1\.328/);
    const narrow = execFileSync(process.execPath, [cli, 'replay', cast, '--screen', '--cols', '60', '--rows', '20'], { encoding: 'utf8' });
    const screen = narrow
      .trimEnd()
      .split('\n')
      .filter((l) => !l.startsWith('{'));
    assert.ok(screen.length <= 20 && screen.every((l) => [...l].length < 100), 'screen not resized to 60x20');
  });

  it('fails with one line naming the file, line and problem, exit 2, on a malformed file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-'));
    const bad = path.join(dir, 'bad.cast');
    fs.writeFileSync(bad, '{"version":2,"width":80,"height":24}\n[0.1,"o","ok"]\n[oops\n');
    const r = spawnSync(process.execPath, [cli, 'replay', bad], { encoding: 'utf8' });
    assert.strictEqual(r.status, 2);
    assert.strictEqual(r.stderr.trim().split('\n').length, 1);
    assert.match(r.stderr, new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: event line is not JSON`));
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    const missing = spawnSync(process.execPath, [cli, 'replay', path.join(dir, 'nope.cast')], { encoding: 'utf8' });
    assert.strictEqual(missing.status, 2);
    assert.match(missing.stderr, /nope\.cast: cannot read: ENOENT/);
    const usage = spawnSync(process.execPath, [cli, 'replay', cast, '--cols', 'x'], { encoding: 'utf8' });
    assert.strictEqual(usage.status, 2);
    assert.match(usage.stderr, /--cols needs a whole number/);
  });
});
