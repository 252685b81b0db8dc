import * as assert from 'assert';
import { main } from '../../../src/cli/cli';
import { CastError, parseCast } from '../../../src/formats/cast';
import { decodeLogFile, LogFileError } from '../../../src/replay/logFiles';

/** Defects the fuzzers found, each pinned by the input that showed it. */
describe('fuzz regressions', () => {
  it('replay --log: a rows dump whose "part" is not a list is refused with one line, not a TypeError', () => {
    const dump = JSON.stringify({ db: 'x', session: [], message: [], part: {} });
    assert.throws(
      () => decodeLogFile('dump.json', dump),
      (e: unknown) => e instanceof LogFileError && /"part" is not a list of rows/.test(e.message) && !e.message.includes('\n'),
    );
  });

  it('replay --log: rows that are not objects are counted as problems and skipped', () => {
    const dump = JSON.stringify({ session: [null], message: [7, 'x', [1]], part: [null] });
    const d = decodeLogFile('dump.json', dump);
    assert.strictEqual(d.kind, 'opencode rows');
    assert.deepStrictEqual(d.events, []);
    assert.ok(d.problems >= 5, `problems ${d.problems}`);
  });

  it('the CLI: an argument with a line break or an escape is shown escaped in its one-line error', () => {
    const errs: string[] = [];
    const code = main(
      ['\n\x1b[2J'],
      () => undefined,
      (s) => errs.push(s),
    );
    assert.strictEqual(code, 2);
    assert.deepStrictEqual(errs, ['agent-lens: unknown command "\\u000a\\u001b[2J" (try: agent-lens --help)']);
  });

  it('the cast reader: a header without "version" says so instead of "version undefined"', () => {
    assert.throws(
      () => parseCast('{"port":1}\n', 'x.cast'),
      (e: unknown) => e instanceof CastError && /has no "version"/.test(e.message),
    );
  });
});
