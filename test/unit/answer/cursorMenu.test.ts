/**
 * A selector dialog answered with the arrow keys and Enter read off the screen (src/answer/cursorMenu.ts), as pi
 * 0.73.1 draws its extensions' `select` (test/fixtures/live/pi/04-gate-approve at the dialog): read whole or not
 * at all, answered only while it is the dialog that was offered, Enter typed only once the screen shows the
 * cursor on the chosen option, and the dialog gone afterwards.
 */
import * as assert from 'assert';
import { AGENTS } from '../../../src/agents/registry';
import { answerMenu, type CursorMenu, readMenu, sameDialog, shapeReader } from '../../../src/answer/cursorMenu';
import type { KeyIO } from '../../../src/answer/screenKeys';

const PI = AGENTS.find((a) => a.id === 'pi')!.menu!;
const PI_READER = shapeReader(PI);
const RULE = '─'.repeat(120);
const HINT = ' ↑↓ navigate  enter select  escape/ctrl+c cancel';

/** pi's screen with the selector open: transcript, the border, the title, the options (cursor on `at`), the hint. */
function piScreen(title: string[], options: string[], at: number): string[] {
  return [
    ' $ rm -rf build',
    '',
    ' ⠴ Working...',
    '',
    RULE,
    '',
    ...title.map((t) => (t ? ` ${t}` : '')),
    '',
    ...options.map((o, i) => `${i === at ? ' → ' : '   '}${o}`.padEnd(120)),
    '',
    HINT,
    '',
    RULE,
    '/tmp/demo-app (main)',
    '↑1.4k ↓30 1.1%/128k (auto)                                                    mock-model',
  ];
}

const GATE = ['⚠️ Dangerous command:', '', '  rm -rf build', '', 'Allow?'];
const DB = ['Which database should the app use?'];

/** A selector that moves its cursor on the arrow keys and closes on Enter, with what was typed. */
function selector(title: string[], options: string[], o: { may?: boolean; stuck?: boolean; stays?: boolean } = {}) {
  let at = 0;
  let open = true;
  const typed: string[] = [];
  const io: KeyIO = {
    rows: () => (open ? piScreen(title, options, at) : [' Done.', '', RULE, '', RULE]),
    write: (d) => {
      typed.push(d);
      if (o.stuck) return;
      if (d === PI.keys.down) at = Math.min(options.length - 1, at + 1);
      if (d === PI.keys.up) at = Math.max(0, at - 1);
      if (d === PI.keys.pick && !o.stays) open = false;
    },
    mayType: async () => o.may ?? true,
    sleep: async () => undefined,
  };
  return { io, typed, picked: () => (open ? undefined : options[at]) };
}

const offered = (title: string[], options: string[]): CursorMenu => readMenu(piScreen(title, options, 0), PI)!;

describe('answer: a selector dialog answered with the arrow keys and Enter', () => {
  it('readMenu reads pi’s dialog whole: the title without blank rows, the options in order, the cursor', () => {
    assert.deepStrictEqual(readMenu(piScreen(GATE, ['Yes', 'No'], 0), PI), {
      title: '⚠️ Dangerous command:\nrm -rf build\nAllow?',
      options: ['Yes', 'No'],
      cursor: 0,
    });
    assert.strictEqual(readMenu(piScreen(DB, ['SQLite', 'Postgres', 'MySQL'], 2), PI)!.cursor, 2);
  });

  it('readMenu leaves out a countdown, so two reads a second apart agree', () => {
    const a = readMenu(piScreen(['Allow? (12s)'], ['Yes', 'No'], 0), PI);
    const b = readMenu(piScreen(['Allow? (11s)'], ['Yes', 'No'], 0), PI);
    assert.strictEqual(a!.title, 'Allow?');
    assert.ok(sameDialog(a, b));
  });

  it('readMenu reads nothing it cannot read whole: no hint, no border, two cursors, a wrapped option, one option', () => {
    const base = piScreen(GATE, ['Yes', 'No'], 0);
    assert.strictEqual(
      readMenu(
        base.filter((r) => r !== HINT),
        PI,
      ),
      undefined,
      'no hint row',
    );
    assert.strictEqual(readMenu(base.slice(5), PI), undefined, 'no border above the title');
    const two = base.map((r) => (r.startsWith('   No') ? ' → No' : r));
    assert.strictEqual(readMenu(two, PI), undefined, 'two cursors');
    const wrapped = piScreen(GATE, ['Yes', 'No'], 0);
    wrapped.splice(wrapped.indexOf(' → Yes'.padEnd(120)) + 1, 0, ' continued label');
    assert.strictEqual(readMenu(wrapped, PI), undefined, 'a row that is not an option');
    assert.strictEqual(readMenu(piScreen(GATE, ['Yes'], 0), PI), undefined, 'one option');
    assert.strictEqual(readMenu([], PI), undefined);
  });

  it('picks the third option: two Down keys, Enter only once the cursor is there; the dialog closes', async () => {
    const s = selector(DB, ['SQLite', 'Postgres', 'MySQL']);
    const out = await answerMenu(s.io, PI_READER, offered(DB, ['SQLite', 'Postgres', 'MySQL']), 'MySQL');
    assert.deepStrictEqual(out, { ok: true, option: 'MySQL' });
    assert.deepStrictEqual(s.typed, [PI.keys.down, PI.keys.down, PI.keys.pick]);
    assert.strictEqual(s.picked(), 'MySQL');
  });

  it('picks the option under the cursor with Enter alone, and moves up when the cursor is below', async () => {
    const here = selector(GATE, ['Yes', 'No']);
    assert.ok((await answerMenu(here.io, PI_READER, offered(GATE, ['Yes', 'No']), 'Yes')).ok);
    assert.deepStrictEqual(here.typed, [PI.keys.pick]);
    const below = selector(DB, ['SQLite', 'Postgres', 'MySQL']);
    below.io.write(PI.keys.down);
    below.io.write(PI.keys.down);
    below.typed.length = 0;
    assert.ok((await answerMenu(below.io, PI_READER, offered(DB, ['SQLite', 'Postgres', 'MySQL']), 'SQLite')).ok);
    assert.deepStrictEqual(below.typed, [PI.keys.up, PI.keys.up, PI.keys.pick]);
  });

  it('types nothing for another dialog than the one offered, or an option it does not have', async () => {
    const other = selector(['⚠️ Dangerous command:', '', '  sudo rm -rf /', '', 'Allow?'], ['Yes', 'No']);
    const out = await answerMenu(other.io, PI_READER, offered(GATE, ['Yes', 'No']), 'Yes');
    assert.deepStrictEqual(out, { ok: false, why: 'the dialog on the screen is not the one offered', typed: false });
    assert.deepStrictEqual(other.typed, []);
    const s = selector(GATE, ['Yes', 'No']);
    assert.strictEqual((await answerMenu(s.io, PI_READER, offered(GATE, ['Yes', 'No']), 'Always')).ok, false);
    assert.deepStrictEqual(s.typed, []);
  });

  it('types nothing when the two reads differ, or while typing is not allowed', async () => {
    const reads = [piScreen(GATE, ['Yes', 'No'], 0), piScreen(GATE, ['Yes', 'No'], 1)];
    let n = 0;
    const typed: string[] = [];
    const changing: KeyIO = {
      rows: () => reads[Math.min(n++, 1)],
      write: (d) => typed.push(d),
      mayType: async () => true,
      sleep: async () => undefined,
    };
    const out = await answerMenu(changing, PI_READER, offered(GATE, ['Yes', 'No']), 'No');
    assert.deepStrictEqual(out, { ok: false, why: 'the dialog changed between two reads of the screen', typed: false });
    assert.deepStrictEqual(typed, []);
    const barred = selector(GATE, ['Yes', 'No'], { may: false });
    assert.strictEqual((await answerMenu(barred.io, PI_READER, offered(GATE, ['Yes', 'No']), 'No')).ok, false);
    assert.deepStrictEqual(barred.typed, []);
  });

  it('never presses Enter when the cursor does not arrive; says so when Enter leaves the dialog open', async () => {
    const stuck = selector(GATE, ['Yes', 'No'], { stuck: true });
    const out = await answerMenu(stuck.io, PI_READER, offered(GATE, ['Yes', 'No']), 'No');
    assert.deepStrictEqual(out, { ok: false, why: 'the cursor did not reach “No”; nothing was picked', typed: true });
    assert.deepStrictEqual(stuck.typed, [PI.keys.down], 'the move, and no Enter');
    const stays = selector(GATE, ['Yes', 'No'], { stays: true });
    const kept = await answerMenu(stays.io, PI_READER, offered(GATE, ['Yes', 'No']), 'No');
    assert.strictEqual(kept.ok, false);
    assert.strictEqual(!kept.ok && kept.typed, true);
  });
});
