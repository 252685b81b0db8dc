import * as assert from 'assert';
import { answerLine, ENTER_DELAY_MS, typeAnswer } from '../../../../src/sources/terminal/answer';
import type { Scheduler } from '../../../../src/common/scheduler';

function fakeClock(): Scheduler & { advance(ms: number): void } {
  let now = 0;
  const timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => now,
    setTimeout: (fn, ms) => timers.push({ at: now + ms, fn }),
    clearTimeout: () => undefined,
    advance(ms) {
      now += ms;
      for (const t of timers.splice(0).sort((a, b) => a.at - b.at)) t.at <= now ? t.fn() : timers.push(t);
    },
  };
}

describe('answering a reply that asks, from VS Code', () => {
  it('types the answer as one line, then Enter as its own write a second later', async () => {
    const clock = fakeClock();
    const writes: { at: number; data: string }[] = [];
    const done = typeAnswer((data) => writes.push({ at: clock.now(), data }), 'Yes,\nrun them\r\nboth', clock);
    assert.deepStrictEqual(writes, [{ at: 0, data: 'Yes, run them both' }]);
    clock.advance(ENTER_DELAY_MS - 1);
    assert.strictEqual(writes.length, 1, 'no Enter before a second has passed');
    clock.advance(1);
    assert.deepStrictEqual(writes[1], { at: ENTER_DELAY_MS, data: '\r' });
    assert.strictEqual(await done, 'Yes, run them both');
    assert.ok(ENTER_DELAY_MS >= 1000);
  });

  it('never sends a control key the user did not type, and refuses an empty answer', async () => {
    assert.strictEqual(answerLine('\x1b[A\x03ok\x7f\t'), '[Aok');
    assert.strictEqual(answerLine('  \n '), '');
    const writes: string[] = [];
    await assert.rejects(
      typeAnswer((d) => writes.push(d), '\r\n', fakeClock()),
      /empty/,
    );
    assert.deepStrictEqual(writes, []);
  });
});
