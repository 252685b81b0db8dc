import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Boards } from '../../../src/handoff/boards';
import { ring } from '../../../src/handoff/doorbell';
import { HandoffPaths } from '../../../src/handoff/paths';
import { logTo } from '../../../src/common/log';
import { NASTY, RAW_CONTROL } from '../helpers';

let tmp: string;
function useTmp(): void {
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-doorbell-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));
}

describe('doorbell: an event that groups nowhere keeps no report_path', () => {
  useTmp();

  it('is dropped, whatever it names: no unchecked path reaches the ungrouped list', () => {
    const paths = new HandoffPaths(tmp);
    const boards = new Boards(paths);
    const routes = { boards, checkReportPath: (a: string, p: string) => paths.reportPathFor(a, p) };
    for (const [id, report] of [
      ['no-prefix', '../../etc/passwd'],
      ['no-prefix', '/etc/passwd'],
      ['../evil::t', '/etc/passwd'],
      ['a/b::t', '../outside.md'],
      ['::t', path.join(tmp, 'w', 'reports', 'x.md')],
    ]) {
      const r = ring(routes, { id, status: 'done', summary: 's', report_path: report });
      assert.strictEqual((r.body as { outcome: string }).outcome, 'ungrouped', id);
      assert.strictEqual(boards.ungrouped[boards.ungrouped.length - 1].report_path, null, `${id} ${report}`);
    }
  });
});

describe('doorbell: ids and report paths from a request are escaped in its log, warnings and errors', () => {
  useTmp();

  it('the doorbell’s log line and warnings carry no raw control character', () => {
    const paths = new HandoffPaths(tmp);
    const log: string[] = [];
    const boards = new Boards(paths, { log: logTo((_l, m) => void log.push(m)) });
    const routes = {
      boards,
      checkReportPath: (a: string, p: string) => paths.reportPathFor(a, p),
      log: logTo((_l, m) => void log.push(m)),
    };
    for (const id of [NASTY, `${NASTY}::t`, `w::${NASTY}`]) {
      const r = ring(routes, { id, status: 'progress', summary: 's', report_path: null });
      const warning = (r.body as { warning?: string }).warning;
      if (warning) assert.doesNotMatch(warning, RAW_CONTROL, warning);
    }
    assert.ok(log.length >= 3);
    for (const l of log) assert.doesNotMatch(l, RAW_CONTROL, l);
    assert.ok(
      log.some((l) => l.includes('\\u001b]0;pwned\\u0007\\u009b2J\\u007f')),
      log.join('\n'),
    );
  });

  it('a refused report_path is answered with an escaped message', () => {
    const paths = new HandoffPaths(tmp);
    const routes = { boards: new Boards(paths), checkReportPath: (a: string, p: string) => paths.reportPathFor(a, p) };
    assert.throws(
      () => ring(routes, { id: 'w::t', status: 'done', summary: 's', report_path: `/etc/${NASTY}` }),
      (e: Error) => !RAW_CONTROL.test(e.message) && /\\u009b/.test(e.message),
    );
  });
});
