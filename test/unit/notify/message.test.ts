import * as assert from 'assert';
import fc from 'fast-check';
import { messageOf, type NotifyEvent, summaryOf } from '../../../src/notify/message';

const base: NotifyEvent = {
  kind: 'wait',
  id: 'w',
  agent: 'opencode',
  terminal: 't',
  waitKind: 'question',
  detail: 'Which database?',
  openedAt: 0,
  at: 21_000,
};

describe('what a push says', () => {
  it('names the agent, the terminal, the kind of wait and for how long; the question only with details', () => {
    assert.deepStrictEqual(messageOf(base, false), {
      title: 'OpenCode needs you: waiting for an answer',
      body: 'in t, for 21s',
      event: 'wait',
      count: 1,
    });
    assert.strictEqual(messageOf(base, true).body, 'in t, for 21s\nWhich database?');
  });

  it('a long turn’s end: its outcome and how long it worked; a failure’s reason only with details', () => {
    const turn: NotifyEvent = {
      kind: 'turn',
      id: 's',
      agent: 'codex',
      terminal: 'api',
      state: 'failed',
      reason: 'API error 529',
      workedMs: 125_000,
      at: 0,
    };
    assert.deepStrictEqual(
      [messageOf(turn, false).title, messageOf(turn, true).title, messageOf(turn, false).event],
      ['Codex: turn failed', 'Codex: turn failed · API error 529', 'turn-failed'],
    );
    assert.strictEqual(messageOf(turn, false).body, 'in api, after 2m 5s of work');
  });

  it('outside text carries no link, no control or bidi character, no line break of its own, and is bounded', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.string({ maxLength: 2000 }), (terminal, detail) => {
        const m = messageOf({ ...base, terminal, detail }, true);
        for (const text of [m.title, m.body]) {
          assert.ok(!/:\/\/|\bwww\./i.test(text), text);
          assert.ok(!/\]\(/.test(text), text);
          assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(text), JSON.stringify(text));
        }
        assert.ok(m.body.split('\n').length <= 2);
        assert.ok(Array.from(m.body).length <= 700);
      }),
      { numRuns: 300, seed: 26 },
    );
    const m = messageOf({ ...base, terminal: 'https://evil.example/x www.evil.example', detail: '[Open](https://evil.example)' }, true);
    assert.strictEqual(m.body, 'in https[:]//evil.example/x www[.]evil.example, for 21s\n[Open] (https[:]//evil.example)');
  });

  it('a summary lists what it folds', () => {
    const a = messageOf(base, false);
    const s = summaryOf([a, { ...a, title: 'Codex needs you: waiting for approval' }]);
    assert.deepStrictEqual(
      [s.count, s.event, s.body],
      [2, 'summary', '• OpenCode needs you: waiting for an answer\n• Codex needs you: waiting for approval'],
    );
    assert.strictEqual(summaryOf([a]), a);
  });
});
