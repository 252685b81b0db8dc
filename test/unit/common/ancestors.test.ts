import * as assert from 'assert';
import { ancestorsOf } from '../../../src/common/ancestors';

/** A parent lookup over a plain pid → ppid table, counting the lookups (the walk must stay bounded). */
function table(links: Record<number, number>): { parentOf: (pid: number) => number | undefined; asked: () => number } {
  let n = 0;
  return {
    parentOf: (pid) => {
      n++;
      return links[pid];
    },
    asked: () => n,
  };
}

describe('ancestorsOf: one walk up a pid → parent table', () => {
  it('from the parent upward, stopping before the floor: init (1) on Linux and macOS, the idle process (0) on Windows', () => {
    const t = table({ 40: 30, 30: 20, 20: 1, 1: 0 });
    assert.deepStrictEqual(ancestorsOf(t.parentOf, 40), [30, 20]);
    const win = table({ 10020: 8720, 8720: 4, 4: 0 });
    assert.deepStrictEqual(ancestorsOf(win.parentOf, 10020, { above: 0 }), [8720, 4], 'Windows keeps System (4)');
  });

  it('an unknown process or parent ends the walk where the table ends', () => {
    const t = table({ 40: 30 });
    assert.deepStrictEqual(ancestorsOf(t.parentOf, 40), [30]);
    assert.deepStrictEqual(ancestorsOf(t.parentOf, 99), []);
  });

  it('a loop (a reused id linking back into the chain, or to the process itself) ends it without repeating anyone', () => {
    assert.deepStrictEqual(ancestorsOf(table({ 5: 6, 6: 5 }).parentOf, 5, { above: 0 }), [6]);
    assert.deepStrictEqual(ancestorsOf(table({ 5: 6, 6: 7, 7: 6 }).parentOf, 5, { above: 0 }), [6, 7]);
    assert.deepStrictEqual(ancestorsOf(table({ 5: 5 }).parentOf, 5, { above: 0 }), []);
  });

  it('at most `max` ancestors, asking no more than that many lookups beyond the first', () => {
    const links: Record<number, number> = {};
    for (let pid = 1000; pid > 2; pid--) links[pid] = pid - 1;
    const t = table(links);
    const chain = ancestorsOf(t.parentOf, 1000, { max: 64 });
    assert.strictEqual(chain.length, 64);
    assert.deepStrictEqual(chain.slice(0, 3), [999, 998, 997]);
    assert.ok(t.asked() <= 65, `asked ${t.asked()} times`);
  });
});
