import * as assert from 'assert';
import fc from 'fast-check';
import { OutputTail, TAIL_LIMIT, TRIGGER_CARRY, WEAK_TRIGGER } from '../../../src/detect/prefilter';

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

  it('weakTrigger(chunk) finds what a scan of the carry and the whole chunk finds, however the output is chunked', () => {
    const piece = fc.constantFrom('OpenAI Codex v0.169.0\r\n--------\r\n', '\x1b[?1049h', '\n', '\r\n', 'text ', 'OpenAI ', '---', '\x1b[');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.array(fc.nat({ max: 90 }), { maxLength: 40 }), (pieces, cuts) => {
        const all = pieces.join('');
        const tail = new OutputTail();
        let at = 0;
        for (const cut of [...cuts, all.length]) {
          const chunk = all.slice(at, Math.min(all.length, at + cut + 1));
          if (!chunk) break;
          at += chunk.length;
          assert.strictEqual(tail.weakTrigger(chunk), WEAK_TRIGGER.test(tail.recent() + chunk), JSON.stringify([tail.recent(), chunk]));
          tail.push(chunk);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
