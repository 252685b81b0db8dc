import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HandoffPaths, isSafeSegment, PathError } from '../../../src/handoff/paths';
import { hostPlatform } from '../../../src/common/platform';

let tmp: string;

describe('HandoffPaths.reportPathFor: resolves links and stays in the agent’s reports/', () => {
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-paths-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('refuses a link inside the folder that points outside, a linked reports/ and a dangling link', () => {
    const paths = new HandoffPaths(path.join(tmp, 'root'));
    const reports = paths.reportsDir('w');
    const outside = path.join(tmp, 'outside');
    fs.mkdirSync(reports, { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.md'), 'x');
    fs.symlinkSync(outside, path.join(reports, 'dir-link'));
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(reports, 'file-link.md'));
    fs.symlinkSync(path.join(outside, 'missing.md'), path.join(reports, 'dangling.md'));
    for (const given of [
      'reports/dir-link/secret.md',
      'reports/dir-link/new.md',
      path.join(reports, 'file-link.md'),
      'reports/dangling.md',
    ]) {
      assert.throws(() => paths.reportPathFor('w', given), PathError, given);
    }
    // reports/ itself swapped for a link out.
    fs.rmSync(paths.reportsDir('v'), { recursive: true, force: true });
    fs.mkdirSync(paths.agentDir('v'), { recursive: true });
    fs.symlinkSync(outside, paths.reportsDir('v'));
    assert.throws(() => paths.reportPathFor('v', 'reports/secret.md'), /symbolic link/);
  });

  it('limits report paths to the agent’s own reports/ folder, and accepts what the brief names', () => {
    const paths = new HandoffPaths(path.join(tmp, 'root'));
    fs.mkdirSync(paths.reportsDir('w'), { recursive: true });
    for (const given of [
      'status.json',
      'read.md',
      '../other/reports/x.md',
      'reports',
      '/etc/passwd',
      '../../outside.md',
      paths.statusJson('w'),
    ]) {
      assert.throws(() => paths.reportPathFor('w', given), PathError, given);
    }
    assert.strictEqual(paths.reportPathFor('w', paths.report('w', 't1')), paths.report('w', 't1'));
    assert.strictEqual(paths.reportPathFor('w', 'reports/t1-report.md'), paths.report('w', 't1'));
    assert.strictEqual(paths.reportPathFor('w', 'reports/sub/not-yet.md'), path.join(paths.reportsDir('w'), 'sub', 'not-yet.md'));
  });

  it(`refuses Windows device names as reports and agent keys on Windows only (now: ${hostPlatform()})`, () => {
    const paths = new HandoffPaths(path.join(tmp, 'root'));
    fs.mkdirSync(paths.reportsDir('w'), { recursive: true });
    const win = hostPlatform() === 'win32';
    for (const given of ['reports/CON.md', 'reports/nul', 'reports/sub/COM1.txt']) {
      if (win) assert.throws(() => paths.reportPathFor('w', given), /names a Windows device/, given);
      else assert.strictEqual(paths.reportPathFor('w', given), path.join(paths.reportsDir('w'), given.slice('reports/'.length)));
    }
    assert.strictEqual(isSafeSegment('con'), !win);
    assert.strictEqual(isSafeSegment('aux.md'), !win);
    assert.ok(isSafeSegment('console'));
  });

  it('a root reached through a link of the user’s own is fine', () => {
    fs.mkdirSync(path.join(tmp, 'real', 'w', 'reports'), { recursive: true });
    fs.symlinkSync(path.join(tmp, 'real'), path.join(tmp, 'via-link'));
    const paths = new HandoffPaths(path.join(tmp, 'via-link'));
    assert.strictEqual(paths.reportPathFor('w', 'reports/t1-report.md'), path.join(tmp, 'via-link', 'w', 'reports', 't1-report.md'));
  });
});
