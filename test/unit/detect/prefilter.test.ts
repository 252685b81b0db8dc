import * as assert from 'assert';
import fc from 'fast-check';
import { OutputTail, TAIL_LIMIT, TRIGGER_CARRY } from '../../../src/detect/prefilter';

/**
 * The plain path's bounded tail (src/detect/prefilter.ts): what it hands the emulator on promotion and the few
 * characters a split trigger is looked for in, whatever the chunking.
 */
describe('prefilter: the plain path’s tail and trigger carry', () => {
  it('recent() is the last TRIGGER_CARRY characters of all pushed, take() the last TAIL_LIMIT, however chunked', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 300 }), { maxLength: 200 }), (chunks) => {
        const tail = new OutputTail();
        let all = '';
        for (const c of chunks) {
          tail.push(c);
          all += c;
          assert.strictEqual(tail.recent(), all.slice(-TRIGGER_CARRY));
        }
        assert.strictEqual(tail.take(), all.slice(-TAIL_LIMIT));
        assert.strictEqual(tail.recent(), '', 'taken: nothing carried into the emulated path');
      }),
      { numRuns: 300 },
    );
  });
});
