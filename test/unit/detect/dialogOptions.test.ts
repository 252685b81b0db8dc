import * as assert from 'assert';
import { dialogOptions } from '../../../src/detect/dialogOptions';
import { replayCast } from '../../../src/replay/replay';
import { COMMAND_OF, recordings } from '../helpers';

/** The choices a dialog draws, read from the real CLIs' screens, so the Needs-you row can list them. */
describe('dialog options on screen', () => {
  const want: Record<string, string[]> = {
    'claude-code/04-bash-permission-approve': ['Yes', 'Yes, and always allow access to', 'Yes, and switch to auto mode', 'No'],
    'codex/04-approval-approve': ['Yes, proceed (y)', "Yes, and don't ask again", 'No, and tell Codex what to do differently (esc)'],
    'gemini/04-shell-approve': ['Allow once', 'Allow for this session', 'No, suggest changes (esc)'],
    'opencode/04-permission-approve': ['Allow once', 'Allow always', 'Reject'],
  };

  for (const r of recordings()) {
    const expected = want[`${r.agent}/${r.scenario}`];
    if (!expected) continue;
    it(`${r.agent}: each permission dialog lists its choices (${r.scenario})`, () => {
      const waits = replayCast(r.cast, { commandLine: COMMAND_OF[r.agent] }).detections.filter((d) => d.state === 'waiting');
      assert.ok(waits.length > 0, 'the recording has a dialog');
      for (const d of waits) {
        assert.strictEqual(d.options?.length, expected.length, JSON.stringify(d.options));
        d.options!.forEach((o, i) => assert.ok(o.startsWith(expected[i]), `${o} starts with ${expected[i]}`));
      }
    });
  }

  it('has a recording of each agent’s dialog', () => {
    const have = new Set(recordings().map((r) => `${r.agent}/${r.scenario}`));
    for (const k of Object.keys(want)) assert.ok(have.has(k), `missing ${k}`);
  });

  it('reads boxed and wrapped options, and only the bottom run numbered from 1', () => {
    const rows = [
      '● Here is the plan:',
      '  1. Read the code',
      '  2. Fix the bug',
      '',
      '╭────────────────────────╮',
      '│ Allow this command?    │',
      '│ ● 1. Allow once        │',
      '│   2. Allow for this    │',
      '│      session           │',
      '│   3. No (esc)          │',
      '╰────────────────────────╯',
    ];
    assert.deepStrictEqual(dialogOptions(rows), ['Allow once', 'Allow for this session', 'No (esc)']);
  });

  it('finds nothing in a reply or a prompt box, and nothing from a lone numbered line', () => {
    assert.deepStrictEqual(dialogOptions(['● Done.', '', '> ', '  ? for shortcuts']), []);
    assert.deepStrictEqual(dialogOptions(['1. only one', '', 'more text']), []);
    assert.deepStrictEqual(dialogOptions(['Allow me to explain   the rest']), []);
  });
});
