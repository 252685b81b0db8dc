import * as assert from 'assert';
import { replayCast } from '../../src/replay/replay';
import { agreement, parseExpected } from '../../src/replay/score';
import { COMMAND_OF, recordings } from './helpers';

/**
 * Every recording of a real CLI replayed through the detector, scored against the states a careful
 * human named (expected.json). The threshold counts idle, stopped and completed as one "at rest" class;
 * the strict figure is printed too.
 */
describe('agreement with real recordings', () => {
  const all = recordings();
  const rows: string[] = [];

  it('has recordings of each of the three CLIs', () => {
    for (const a of ['claude-code', 'codex', 'opencode']) assert.ok(all.some((r) => r.agent === a), `no ${a} recordings`);
  });

  for (const r of all) {
    it(`${r.agent}/${r.scenario} agrees ≥ 0.95 with expected.json`, () => {
      const expected = parseExpected(r.expectedText);
      const withCmd = replayCast(r.cast, { commandLine: COMMAND_OF[r.agent] });
      const a = agreement(withCmd.detections, expected);
      const screenOnly = agreement(replayCast(r.cast).detections, expected);
      rows.push(`${`${r.agent}/${r.scenario}`.padEnd(42)} at-rest ${a.atRest.toFixed(3)}  strict ${a.strict.toFixed(3)}  screen-only at-rest ${screenOnly.atRest.toFixed(3)}`);
      assert.ok(a.atRest >= 0.95, `at-rest agreement ${a.atRest.toFixed(3)}; largest misses: ${JSON.stringify(a.misses)}`);
      // Without a command line the agent must still be recognised from the screen alone.
      assert.ok(screenOnly.atRest >= 0.85, `screen-only agreement ${screenOnly.atRest.toFixed(3)}: ${JSON.stringify(screenOnly.misses)}`);
    });
  }

  after(() => {
    if (rows.length) console.log('\n    agreement per recording:\n' + rows.map((r) => '      ' + r).join('\n'));
  });
});
