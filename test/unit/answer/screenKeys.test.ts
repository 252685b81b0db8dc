/**
 * A dialog answered with one key read off the screen (src/answer/screenKeys.ts): the key of the one option that
 * means the choice, only for a dialog that shows the command the hook reported, only after two reads agree, and
 * only while typing is allowed; afterwards the dialog must be gone. Screens as Codex 0.169.0 and Gemini CLI 0.61.0
 * draw them (../shared/recordings/*\/FACTS.md).
 */
import * as assert from 'assert';
import { AGENTS } from '../../../src/agents/registry';
import { answerWithKey, type KeyIO, planKey, screenShows } from '../../../src/answer/screenKeys';
import { matchesScreen } from '../../../src/answer/pending';

const CODEX = AGENTS.find((a) => a.id === 'codex')!.dialogKeys!;
const GEMINI = AGENTS.find((a) => a.id === 'gemini')!.dialogKeys!;
const CMD = 'touch build-marker.txt && echo created build-marker.txt';

const codexDialog = (cmd = CMD): string[] => [
  `• Running ${cmd}`,
  '',
  '  Would you like to run the following command?',
  '',
  '  Reason: Do you want to allow me to create build-marker.txt in the project root?',
  '',
  `  $ ${cmd}`,
  '',
  '› 1. Yes, proceed (y)',
  "  2. Yes, and don't ask again for commands that start with `touch build-marker.txt` (p)",
  '  3. No, and tell Codex what to do differently (esc)',
  '',
  '  Press enter to confirm or esc to cancel',
];

const geminiDialog = [
  '╭──────────────────────────────────────────────╮',
  '│ ? Shell rm -rf build                         │',
  '│ ╭──────────────────────────────────────────╮ │',
  '│ │ rm -rf build                             │ │',
  '│ ╰──────────────────────────────────────────╯ │',
  '│ Allow execution of [Shell]?                  │',
  '│ ● 1. Allow once                              │',
  '│   2. Allow for this session                  │',
  '│   3. No, suggest changes (esc)               │',
  '╰──────────────────────────────────────────────╯',
];

/** A terminal whose screen is `screens[i]` at the i-th read (the last one stays), and what was typed. */
function io(screens: string[][], may = true): KeyIO & { typed: string[] } {
  let i = 0;
  const typed: string[] = [];
  return {
    typed,
    rows: () => screens[Math.min(i++, screens.length - 1)],
    write: (d) => typed.push(d),
    mayType: async () => may,
    sleep: async () => undefined,
  };
}

describe('answer: keys read off the screen', () => {
  it('planKey: the digit of the one option that allows once or denies, on Codex’s and Gemini CLI’s screens', () => {
    assert.deepStrictEqual(planKey(codexDialog(), CODEX, 'allow', CMD), { key: '1', option: 'Yes, proceed (y)' });
    assert.deepStrictEqual(planKey(codexDialog(), CODEX, 'deny', CMD), {
      key: '3',
      option: 'No, and tell Codex what to do differently (esc)',
    });
    assert.deepStrictEqual(planKey(geminiDialog, GEMINI, 'allow', 'rm -rf build'), { key: '1', option: 'Allow once' });
    assert.deepStrictEqual(planKey(geminiDialog, GEMINI, 'deny', 'rm -rf build'), { key: '3', option: 'No, suggest changes (esc)' });
  });

  it('planKey refuses: no dialog, another command, an ambiguous or missing option', () => {
    assert.ok('refused' in planKey(['just a reply', '1. a plan step'], CODEX, 'allow', CMD));
    assert.match(String((planKey(codexDialog('rm -rf /'), CODEX, 'allow', CMD) as { refused: string }).refused), /not about the command/);
    const twice = [...codexDialog().slice(0, 8), '› 1. Yes, proceed (y)', '  2. Yes, proceed (y)', '  3. No'];
    assert.match(String((planKey(twice, CODEX, 'allow', CMD) as { refused: string }).refused), /2 options/);
    assert.match(String((planKey(geminiDialog, GEMINI, 'allow', CMD) as { refused: string }).refused), /not about the command/);
  });

  it('answerWithKey types the key once and reports the option when the dialog closes after it', async () => {
    const t = io([codexDialog(), codexDialog(), ['• Ran touch build-marker.txt']]);
    assert.deepStrictEqual(await answerWithKey(t, CODEX, 'allow', CMD), { ok: true, option: 'Yes, proceed (y)' });
    assert.deepStrictEqual(t.typed, ['1']);
  });

  it('answerWithKey types nothing when the dialog changed between the two reads, or typing is not allowed', async () => {
    const changed = io([codexDialog(), codexDialog('rm -rf ~')]);
    assert.deepStrictEqual(await answerWithKey(changed, CODEX, 'allow', CMD), {
      ok: false,
      why: 'the dialog changed between two reads of the screen',
      typed: false,
    });
    const reordered = io([codexDialog(), [...codexDialog().slice(0, 8), '› 1. No', '  2. Yes, proceed (y)']]);
    assert.deepStrictEqual(await answerWithKey(reordered, CODEX, 'allow', CMD), {
      ok: false,
      why: 'the dialog changed between two reads of the screen',
      typed: false,
    });
    assert.deepStrictEqual(changed.typed, []);
    assert.deepStrictEqual(reordered.typed, []);
    const notMine = io([codexDialog()], false);
    assert.strictEqual((await answerWithKey(notMine, CODEX, 'allow', CMD)).ok, false);
    assert.deepStrictEqual(notMine.typed, []);
  });

  it('answerWithKey says so when the dialog is still there after the key', async () => {
    const stuck = io([codexDialog()]);
    const out = await answerWithKey(stuck, CODEX, 'deny', CMD);
    assert.deepStrictEqual(out, { ok: false, why: 'the dialog was still on the screen 3 s after the key', typed: true });
    assert.deepStrictEqual(stuck.typed, ['3']);
  });

  it('screenShows finds a command however the terminal wrapped it; matchesScreen takes a held request to it', () => {
    const wrapped = ['│ touch answered-from-vsc │', '│   ode.txt && echo "made it" │'];
    assert.ok(screenShows(wrapped, 'touch answered-from-vscode.txt && echo "made it"'));
    assert.ok(!screenShows(wrapped, 'touch answered-from-vscode.txt && rm -rf ~'));
    assert.ok(!screenShows(wrapped, '   '), 'an empty command is never "shown"');
    const held = { input: { command: 'rm -rf build', description: 'Remove' } };
    assert.ok(matchesScreen(held, geminiDialog));
    assert.ok(!matchesScreen(held, codexDialog()), 'another dialog on the screen: no buttons');
    assert.ok(matchesScreen({ input: { file_path: '/x' } }, []), 'nothing to compare: not held back here');
    assert.ok(matchesScreen({ input: {}, questions: [] }, []));
  });
});
