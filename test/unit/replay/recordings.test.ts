import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { replayCast } from '../../../src/replay/replay';
import { agreement, parseExpected } from '../../../src/replay/score';
import { recordedCommandLine } from '../../../harness/commandLine';
import { COMMAND_OF, FIXTURES, recordings } from '../helpers';

/**
 * Every recording of a real CLI replayed through the detector, scored against the states a careful
 * human named (expected.json). The threshold counts idle, stopped and completed as one "at rest" class;
 * the strict figure is printed too.
 */
describe('agreement with real recordings', () => {
  const all = recordings();
  const rows: string[] = [];

  it('has recordings of each of the three CLIs', () => {
    for (const a of ['claude-code', 'codex', 'opencode'])
      assert.ok(
        all.some((r) => r.agent === a),
        `no ${a} recordings`,
      );
  });

  for (const r of all) {
    it(`${r.agent}/${r.scenario} agrees ≥ 0.95 with expected.json`, () => {
      const expected = parseExpected(r.expectedText);
      const withCmd = replayCast(r.cast, { commandLine: COMMAND_OF[r.agent] });
      const a = agreement(withCmd.detections, expected);
      const screenOnly = agreement(replayCast(r.cast).detections, expected);
      rows.push(
        `${`${r.agent}/${r.scenario}`.padEnd(42)} at-rest ${a.atRest.toFixed(3)}  strict ${a.strict.toFixed(3)}  screen-only at-rest ${screenOnly.atRest.toFixed(3)}`,
      );
      assert.ok(a.atRest >= 0.95, `at-rest agreement ${a.atRest.toFixed(3)}; largest misses: ${JSON.stringify(a.misses)}`);
      // Without a command line the agent must still be recognised from the screen alone.
      assert.ok(screenOnly.atRest >= 0.85, `screen-only agreement ${screenOnly.atRest.toFixed(3)}: ${JSON.stringify(screenOnly.misses)}`);
    });
  }

  after(() => {
    if (rows.length) console.log('\n    agreement per recording:\n' + rows.map((r) => '      ' + r).join('\n'));
  });
});

/**
 * Recordings made here by `npm run record` (the real CLIs against the loopback mocks), labelled by
 * anchors. Known shortfalls are listed with their cause in SHORTFALLS.json and held to a floor.
 */
describe('agreement with recordings of the real CLIs made by the harness', () => {
  const all = recordings('live');
  const shortfalls = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'live', 'SHORTFALLS.json'), 'utf8')) as Record<
    string,
    { floor: number; why: string }
  >;
  const rows: string[] = [];

  it('has harness recordings of each CLI, at least 10 scenarios each', () => {
    for (const a of ['claude-code', 'codex', 'opencode'])
      assert.ok(all.filter((r) => r.agent === a).length >= 10, `too few ${a} recordings`);
  });

  for (const r of all) {
    const key = `${r.agent}/${r.scenario}`;
    const known = shortfalls[key];
    it(`${key} agrees ≥ ${known ? `${known.floor} (known shortfall)` : '0.95'}`, () => {
      const a = agreement(
        replayCast(r.cast, { commandLine: recordedCommandLine(r.dir, r.agent) }).detections,
        parseExpected(r.expectedText),
      );
      rows.push(`${key.padEnd(42)} at-rest ${a.atRest.toFixed(3)}  strict ${a.strict.toFixed(3)}${known ? '  (known shortfall)' : ''}`);
      assert.ok(
        a.atRest >= (known?.floor ?? 0.95),
        `at-rest agreement ${a.atRest.toFixed(3)}; largest misses: ${JSON.stringify(a.misses)}`,
      );
    });
  }

  it('lists no shortfall that is not needed any more', () => {
    for (const key of Object.keys(shortfalls).filter((k) => !k.startsWith('_'))) {
      const r = all.find((x) => `${x.agent}/${x.scenario}` === key);
      assert.ok(r, `SHORTFALLS.json names ${key}, which has no recording`);
      const a = agreement(
        replayCast(r!.cast, { commandLine: recordedCommandLine(r!.dir, r!.agent) }).detections,
        parseExpected(r!.expectedText),
      );
      assert.ok(a.atRest < 0.95, `${key} now agrees ${a.atRest.toFixed(3)}: remove it from SHORTFALLS.json`);
    }
  });

  after(() => {
    if (rows.length) console.log('\n    agreement per harness recording:\n' + rows.map((r) => '      ' + r).join('\n'));
  });
});
