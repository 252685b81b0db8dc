import * as assert from 'assert';
import { CODEX_COMPLETION, COMPLETION_SHAPE, isCompletionLine } from '../../../src/agents/completion';

describe('completion shape', () => {
  const matches: [string, string][] = [
    ['✻ Cogitated for 1s', 'Claude Code 2.1.328, constant ✻ glyph'],
    ['✻ Worked for 2s · done 4:35 PM', 'with the wall-clock suffix'],
    ['✻ Brewed for 0s · done 4:46 PM', 'zero seconds'],
    ['✽ Worked for 2m 30s', "seed 000's own example"],
    ['✶ Churned for 1h 2m 3s', 'hours and minutes'],
    ['  * Crunched for 12s', 'indented ASCII star frame'],
    ['✢ Baked for 3 s', 'space before the unit'],
    ['· Cooked for 45s', 'middle-dot frame'],
    ['Sautéed for 2m 3s', 'legacy unanchored verb'],
    ['Cogitated for 9s', 'legacy unanchored verb'],
    ['∗ Dreamt for 5s', 'irregular past tense ending in t'],
  ];
  const nonMatches: [string, string][] = [
    ['Retried for 3s', 'ordinary text without a spinner anchor'],
    ['log: ✻ Worked for 3s · done', 'mid-line symbol'],
    ['I Worked for 3s on this', 'no anchor'],
    ['✻ working for 3s', 'lower-case verb'],
    ['✻ Worked for ages', 'no duration'],
    ['✻ Worked for 3', 'no unit'],
    ['✢ Nebulizing… (3s · ↓ 12 tokens)', 'a working spinner, not a completion'],
    ['✻ API error · retrying in 1s · attempt 1/10', 'retry line'],
    ['✻ Waiting for 1 background agent to finish', 'background agent, no duration'],
  ];
  for (const [line, why] of matches) it(`matches ${JSON.stringify(line)} (${why})`, () => assert.ok(isCompletionLine(line)));
  for (const [line, why] of nonMatches) it(`does not match ${JSON.stringify(line)} (${why})`, () => assert.ok(!isCompletionLine(line)));

  it('captures the verb', () => {
    assert.strictEqual(COMPLETION_SHAPE.exec('✻ Churned for 4s')?.[1], 'Churned');
    assert.strictEqual(COMPLETION_SHAPE.exec('Sautéed for 4s')?.[2], 'Sautéed');
  });

  it('recognises Codex 0.169 completion rows and nothing mid-line', () => {
    assert.ok(CODEX_COMPLETION.test('  Worked for 23s • 16:16'));
    assert.ok(CODEX_COMPLETION.test('  Worked for 1m 2s • 16:16'));
    assert.ok(CODEX_COMPLETION.test('  Worked for <1s • 16:16'), 'sub-second turns (0.169.0)');
    assert.ok(!CODEX_COMPLETION.test('  I Worked for 23s'));
    assert.ok(!CODEX_COMPLETION.test('  Retried for 3s'));
  });

  it('stays linear on hostile rows', () => {
    // A row is at most a screen wide; even 100 000 digits must not hang the matcher.
    const hostile = '✻ Worked for ' + '1'.repeat(100_000) + 'x';
    assert.ok(!COMPLETION_SHAPE.test(hostile));
    const hostile2 = '✻ Worked for ' + '1m'.repeat(30_000) + 'x';
    assert.ok(!COMPLETION_SHAPE.test(hostile2));
  });
});
