import * as assert from 'assert';
import { pollUntil, sleep } from '../../../src/common/poll';

describe('pollUntil: the one polling loop', () => {
  it('returns the first value a probe gives, probing no more after it', async () => {
    let n = 0;
    const v = await pollUntil(() => (++n === 3 ? 'found' : undefined), { everyMs: 1, forMs: 10_000 });
    assert.deepStrictEqual([v, n], ['found', 3]);
  });

  it('a falsy value is a value; only undefined means "not yet"', async () => {
    let n = 0;
    assert.strictEqual(await pollUntil(() => (++n === 2 ? false : undefined), { everyMs: 1, forMs: 10_000 }), false);
    assert.strictEqual(n, 2);
  });

  it('gives up with undefined once the time is up, having probed once more at the deadline', async () => {
    let n = 0;
    const v = await pollUntil(
      async () => {
        n++;
        return undefined;
      },
      { everyMs: 5, forMs: 30 },
    );
    assert.strictEqual(v, undefined);
    assert.ok(n >= 2, `probed ${n} times`);
  });

  it('a wait of 0 ms still probes once; stop ends the wait before the next probe', async () => {
    let n = 0;
    await pollUntil(() => void n++, { everyMs: 1, forMs: 0 });
    assert.strictEqual(n, 1);
    let m = 0;
    const v = await pollUntil(() => void m++, { everyMs: 1, forMs: 10_000, stop: () => m >= 2 });
    assert.deepStrictEqual([v, m], [undefined, 2]);
  });

  it('a probe that throws ends the wait with its error', async () => {
    await assert.rejects(
      pollUntil(
        () => {
          throw new Error('the terminal closed');
        },
        { everyMs: 1, forMs: 10_000 },
      ),
      /the terminal closed/,
    );
  });

  it('sleep resolves, in the background too', async () => {
    await sleep(1);
    await sleep(1, { background: true });
  });
});
