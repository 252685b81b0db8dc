/**
 * The generic dialog shape (src/answer/numberedMenu.ts): numbered options with a cursor, read whole or not at all,
 * and answered with the arrow keys and Enter. Screens as Claude Code 2.1.328, Codex 0.169.0 and Gemini CLI 0.61.0
 * draw their dialogs (test/fixtures/live/*), and shapes that must read as no dialog.
 */
import * as assert from 'assert';
import { answerMenu } from '../../../src/answer/cursorMenu';
import { NUMBERED_MENU, readNumberedMenu } from '../../../src/answer/numberedMenu';
import type { KeyIO } from '../../../src/answer/screenKeys';

const SOLID = '─'.repeat(100);
const DASHED = '╌'.repeat(100);

/** Claude Code's Bash dialog (04-bash-permission-approve at the dialog), the cursor on option `at`. */
const claude = (at = 0): string[] => [
  '● Removing the build directory',
  '  ⎿  $ rm -rf build',
  '',
  SOLID,
  ' Bash command',
  ' Remove the build directory',
  DASHED,
  ' rm -rf build',
  DASHED,
  ' Do you want to proceed?',
  ...['Yes', 'Yes, and always allow access to build/ from this project', 'No'].map((o, i) => `${i === at ? ' ❯' : '  '} ${i + 1}. ${o}`),
  '',
  ' Esc to cancel · Tab to amend',
];

const gemini = [
  '╭──────────────────────────────────────────────╮',
  '│ ? Shell rm -rf build                         │',
  '│ Allow execution of [Shell]?                  │',
  '│                                              │',
  '│ ● 1. Allow once                              │',
  '│   2. Allow for this session                  │',
  '│   3. No, suggest changes (esc)               │',
  '╰──────────────────────────────────────────────╯',
];

describe('answer: the generic dialog shape (numbered options with a cursor)', () => {
  it('reads Claude Code’s dialog: its text down from the rule (dashed rules left out), the options, the cursor', () => {
    assert.deepStrictEqual(readNumberedMenu(claude(2)), {
      title: 'Bash command\nRemove the build directory\nrm -rf build\nDo you want to proceed?',
      options: ['Yes', 'Yes, and always allow access to build/ from this project', 'No'],
      cursor: 2,
    });
  });

  it('reads Gemini CLI’s boxed radio list (● marks the cursor, the frame is left out)', () => {
    const m = readNumberedMenu(gemini)!;
    assert.deepStrictEqual(m.options, ['Allow once', 'Allow for this session', 'No, suggest changes (esc)']);
    assert.strictEqual(m.cursor, 0);
    assert.strictEqual(m.title, '? Shell rm -rf build\nAllow execution of [Shell]?');
  });

  it('reads no dialog without exactly one cursor, with a wrapped option, a broken count or one option', () => {
    assert.strictEqual(readNumberedMenu(['Steps:', ' 1. install', ' 2. build', ' 3. test']), undefined, 'a numbered list in a reply');
    const two = claude().map((r) => r.replace('   3. No', ' ❯ 3. No'));
    assert.strictEqual(readNumberedMenu(two), undefined, 'two cursors');
    const wrapped = claude();
    wrapped.splice(wrapped.indexOf(' ❯ 1. Yes') + 2, 0, '      from this project');
    assert.strictEqual(readNumberedMenu(wrapped), undefined, 'a wrapped option');
    assert.strictEqual(readNumberedMenu(['Pick', ' ❯ 1. Yes', ' 3. No']), undefined, 'numbers not 1, 2, 3…');
    assert.strictEqual(readNumberedMenu(['Pick', ' ❯ 1. Yes']), undefined, 'one option');
    assert.strictEqual(readNumberedMenu([' ❯ 1. Yes', '   2. No']), undefined, 'no text above the options');
  });

  it('answers with the arrow keys and Enter, Enter only once the cursor shows on the option', async () => {
    let at = 0;
    let open = true;
    const typed: string[] = [];
    const io: KeyIO = {
      rows: () => (open ? claude(at) : ['● Done.']),
      write: (d) => {
        typed.push(d);
        if (d === NUMBERED_MENU.keys.down) at = Math.min(2, at + 1);
        if (d === NUMBERED_MENU.keys.pick) open = false;
      },
      mayType: async () => true,
      sleep: async () => undefined,
    };
    const out = await answerMenu(io, NUMBERED_MENU, readNumberedMenu(claude())!, 'No');
    assert.deepStrictEqual(out, { ok: true, option: 'No' });
    assert.deepStrictEqual(typed, ['\x1b[B', '\x1b[B', '\r']);
  });
});
