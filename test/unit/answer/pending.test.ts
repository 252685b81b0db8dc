/**
 * The requests held open for an answer from VS Code: single-use handles, ambiguity when two dialogs share a
 * terminal, every held hook answered (with nothing) when dropped or disposed.
 */
import * as assert from 'assert';
import type { HeldAnswer } from '../../../src/hooks/decision';
import { ALLOW_AFTER_MS, answerOffers, PendingAnswers, type PendingRequest } from '../../../src/answer/pending';

type Req = Omit<PendingRequest, 'handle'>;

function req(more: Partial<Req> = {}): Req {
  return { agent: 'claude-code', terminalId: 'T', waitId: 'W', tool: 'Bash', input: { command: 'ls' }, since: 10_000, ...more };
}

/** A PendingAnswers whose every settle is recorded, by the request's wait id. */
function rig() {
  const pending = new PendingAnswers();
  const settled: { waitId: string; answer: HeldAnswer }[] = [];
  let changes = 0;
  pending.onDidChange(() => changes++);
  const add = (r: Req = req()) => pending.add(r, (answer) => settled.push({ waitId: r.waitId, answer }));
  return { pending, settled, add, changes: () => changes };
}

describe('answer: PendingAnswers', () => {
  it('adds a request with a fresh handle, offers it on its wait, and gets it by handle', () => {
    const { pending, add, changes } = rig();
    const r = add();
    assert.deepStrictEqual({ ...r, handle: undefined }, { ...req(), handle: undefined });
    assert.strictEqual(pending.size, 1);
    assert.strictEqual(pending.offered('W'), r);
    assert.strictEqual(pending.offered('other-wait'), undefined);
    assert.strictEqual(pending.get(r.handle), r);
    assert.strictEqual(pending.get('0'.repeat(32)), undefined);
    assert.deepStrictEqual(pending.forWait('W'), [r]);
    assert.strictEqual(changes(), 1);
  });

  it('answers once: the decision goes to its hook, a second answer with the same handle is gone', () => {
    const { pending, settled, add } = rig();
    const r = add();
    assert.strictEqual(pending.answer(r.handle, { behavior: 'allow' }), 'sent');
    assert.deepStrictEqual(settled, [{ waitId: 'W', answer: { decision: { behavior: 'allow' } } }]);
    assert.strictEqual(pending.answer(r.handle, { behavior: 'deny', message: 'changed my mind' }), 'gone');
    assert.strictEqual(pending.answer(r.handle, { behavior: 'allow' }), 'gone');
    assert.strictEqual(settled.length, 1, 'settled exactly once');
    assert.strictEqual(pending.size, 0);
    assert.strictEqual(pending.get(r.handle), undefined);
    assert.strictEqual(pending.offered('W'), undefined);
    pending.drop(r.handle);
    assert.strictEqual(settled.length, 1, 'a drop after the answer settles nothing');
  });

  it('an unknown handle is gone and settles nothing', () => {
    const { pending, settled, add } = rig();
    const r = add();
    for (const h of ['', 'x', r.handle.toUpperCase(), r.handle.slice(1), `${r.handle} `, '0'.repeat(32)])
      assert.strictEqual(pending.answer(h, { behavior: 'allow' }), 'gone', JSON.stringify(h));
    assert.deepStrictEqual(settled, []);
    assert.strictEqual(pending.size, 1);
  });

  it('two requests on one terminal: neither is offered or answerable, nothing is settled; one left is offered again', () => {
    const { pending, settled, add } = rig();
    const a = add(req({ waitId: 'W1' }));
    const b = add(req({ waitId: 'W2', tool: 'Write' }));
    const elsewhere = add(req({ terminalId: 'U', waitId: 'W3' }));
    assert.strictEqual(pending.offered('W1'), undefined);
    assert.strictEqual(pending.offered('W2'), undefined);
    assert.strictEqual(pending.get(a.handle), undefined);
    assert.strictEqual(pending.get(b.handle), undefined);
    assert.ok(pending.holds(a.handle) && pending.holds(b.handle), 'still held: the user is told "two dialogs", not "gone"');
    assert.strictEqual(pending.answer(a.handle, { behavior: 'allow' }), 'ambiguous');
    assert.strictEqual(pending.answer(b.handle, { behavior: 'deny' }), 'ambiguous');
    assert.deepStrictEqual(settled, []);
    assert.strictEqual(pending.size, 3);
    assert.strictEqual(pending.offered('W3'), elsewhere, 'another terminal is not affected');
    pending.drop(a.handle);
    assert.deepStrictEqual(settled, [{ waitId: 'W1', answer: {} }]);
    assert.strictEqual(pending.offered('W2'), b);
    assert.strictEqual(pending.answer(b.handle, { behavior: 'deny' }), 'sent');
    assert.ok(!pending.holds(b.handle) && !pending.holds(a.handle));
    assert.deepStrictEqual(settled[1], { waitId: 'W2', answer: { decision: { behavior: 'deny' } } });
  });

  it('two requests for the same wait on one terminal are ambiguous too', () => {
    const { pending, settled, add } = rig();
    const a = add();
    add();
    assert.strictEqual(pending.offered('W'), undefined);
    assert.strictEqual(pending.answer(a.handle, { behavior: 'allow' }), 'ambiguous');
    assert.strictEqual(pending.forWait('W').length, 2);
    assert.deepStrictEqual(settled, []);
  });

  it('drop settles with {} once and fires a change; dropping an unknown handle does nothing', () => {
    const { pending, settled, add, changes } = rig();
    const r = add();
    pending.drop('nope');
    assert.strictEqual(changes(), 1);
    pending.drop(r.handle);
    assert.deepStrictEqual(settled, [{ waitId: 'W', answer: {} }]);
    assert.strictEqual(changes(), 2);
    pending.drop(r.handle);
    assert.strictEqual(settled.length, 1);
    assert.strictEqual(pending.answer(r.handle, { behavior: 'allow' }), 'gone');
    assert.strictEqual(settled.length, 1);
  });

  it('dispose settles every held request with {}, ambiguous ones included', () => {
    const { pending, settled, add } = rig();
    add(req({ waitId: 'A' }));
    add(req({ waitId: 'B' }));
    add(req({ terminalId: 'U', waitId: 'C' }));
    pending.dispose();
    assert.deepStrictEqual(settled.map((s) => s.waitId).sort(), ['A', 'B', 'C']);
    assert.ok(settled.every((s) => Object.keys(s.answer).length === 0));
    assert.strictEqual(pending.size, 0);
  });

  it('handles are 32 hex characters and distinct', () => {
    const { add } = rig();
    const handles = Array.from({ length: 500 }, (_, i) => add(req({ terminalId: `T${i}`, waitId: `W${i}` })).handle);
    for (const h of handles) assert.match(h, /^[0-9a-f]{32}$/);
    assert.strictEqual(new Set(handles).size, handles.length);
  });

  it('Allow is ready only ALLOW_AFTER_MS after the request came', () => {
    const { add } = rig();
    const r = add(req({ since: 50_000 }));
    assert.strictEqual(PendingAnswers.allowReady(r, 50_000), false);
    assert.strictEqual(PendingAnswers.allowReady(r, 50_000 + ALLOW_AFTER_MS - 1), false);
    assert.strictEqual(PendingAnswers.allowReady(r, 50_000 + ALLOW_AFTER_MS), true);
    assert.strictEqual(PendingAnswers.allowReady(r, 49_000), false, 'a clock going back does not make it ready');
  });

  it('answerOffers maps only the offered waits, with their handle and readiness', () => {
    const { pending, add } = rig();
    const alone = add(req({ terminalId: 'T1', waitId: 'W1', since: 1000 }));
    const fresh = add(req({ terminalId: 'T4', waitId: 'W4', since: 1900 }));
    add(req({ terminalId: 'T2', waitId: 'W2' }));
    add(req({ terminalId: 'T2', waitId: 'W2b' }));
    const offers = answerOffers(pending, ['W1', 'W2', 'W2b', 'W3', 'W4'], 1000 + ALLOW_AFTER_MS);
    assert.deepStrictEqual(
      [...offers.entries()],
      [
        ['W1', { handle: alone.handle, allowReady: true, question: false, byKeys: false }],
        ['W4', { handle: fresh.handle, allowReady: false, question: false, byKeys: false }],
      ],
    );
    assert.strictEqual(answerOffers(pending, [], 0).size, 0);
  });

  it('keeps who answered where, with the option and never the command, for the state history', () => {
    const pending = new PendingAnswers();
    const r = pending.add(
      { agent: 'claude-code', terminalId: 'T', waitId: 'W', tool: 'Bash', input: { command: 'rm -rf build' }, since: 0 },
      () => undefined,
    );
    assert.strictEqual(pending.answer(r.handle, { behavior: 'deny', message: 'secret words' }), 'sent');
    assert.deepStrictEqual(
      pending.answered.map(({ at: _at, ...a }) => a),
      [{ terminalId: 'T', agent: 'claude-code', where: 'VS Code', option: 'deny, with a message' }],
    );
    assert.ok(!JSON.stringify(pending.answered).includes('rm -rf') && !JSON.stringify(pending.answered).includes('secret'));
    for (let i = 0; i < 60; i++) pending.note({ at: i, terminalId: 'T', agent: 'codex', where: 'terminal', option: 'answered there' });
    assert.strictEqual(pending.answered.length, 50, 'bounded');
  });
});
