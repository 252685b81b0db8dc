import * as assert from 'assert';
import fc from 'fast-check';
import { LineSplitter } from '../../../src/jsonl/lines';

/** The obvious, whole-input definition the streaming splitter must agree with. */
function reference(bytes: Buffer, max: number): { lines: string[]; oversized: number; pending: number } {
  const lines: string[] = [];
  let oversized = 0;
  let start = 0;
  for (let nl = bytes.indexOf(10); nl >= 0; nl = bytes.indexOf(10, start)) {
    const line = bytes.subarray(start, nl);
    start = nl + 1;
    if (line.length > max) oversized++;
    else {
      const text = line.toString('utf8').replace(/\r$/, '');
      if (text) lines.push(text);
    }
  }
  const rest = bytes.length - start;
  if (rest > max) oversized++;
  return { lines, oversized, pending: rest > max ? 0 : rest };
}

/** Pushes `bytes` cut at `cuts` (offsets, any order, duplicates allowed). */
function pushSplit(s: LineSplitter, bytes: Buffer, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const c of [...at, bytes.length]) {
    out.push(...s.push(bytes.subarray(prev, c)));
    prev = c;
  }
  return out;
}

// Pieces that stress the edges: newlines, CRLF, empty lines, 2-, 3- and 4-byte UTF-8 characters.
const piece = fc.constantFrom('\n', '\r\n', '\r', 'a', 'bc', '{"k":1}', 'é', '€', '😀', ' ', '\n\n');
const stream = fc.array(piece, { maxLength: 60 }).map((p) => Buffer.from(p.join(''), 'utf8'));

describe('LineSplitter', () => {
  it('splits complete lines and holds back the incomplete last one', () => {
    const s = new LineSplitter();
    assert.deepStrictEqual(s.push(Buffer.from('{"a":1}\n{"b"')), ['{"a":1}']);
    assert.strictEqual(s.pendingBytes, 4);
    assert.deepStrictEqual(s.push(Buffer.from(':2}\r\n\n')), ['{"b":2}']);
    assert.strictEqual(s.pendingBytes, 0);
  });

  it('keeps a multi-byte character split across chunks intact', () => {
    const bytes = Buffer.from('€😀\n', 'utf8');
    const s = new LineSplitter();
    const out: string[] = [];
    for (let i = 0; i < bytes.length; i++) out.push(...s.push(bytes.subarray(i, i + 1)));
    assert.deepStrictEqual(out, ['€😀']);
  });

  it('drops an oversized line without holding it, and goes on at the next line', () => {
    const s = new LineSplitter(10);
    assert.deepStrictEqual(s.push(Buffer.from('ok\n' + 'x'.repeat(8))), ['ok']);
    assert.deepStrictEqual(s.push(Buffer.from('x'.repeat(100))), []);
    assert.strictEqual(s.pendingBytes, 0, 'an oversized line is not kept in memory');
    assert.deepStrictEqual(s.push(Buffer.from('xx\nnext\n')), ['next']);
    assert.strictEqual(s.oversized, 1);
    assert.deepStrictEqual(s.push(Buffer.from('y'.repeat(11) + '\nz\n')), ['z']);
    assert.strictEqual(s.oversized, 2);
  });

  it('reset forgets the incomplete line', () => {
    const s = new LineSplitter();
    s.push(Buffer.from('half'));
    s.reset();
    assert.deepStrictEqual(s.push(Buffer.from('new\n')), ['new']);
  });

  it("does not keep a reference to the caller's buffer", () => {
    const s = new LineSplitter();
    const buf = Buffer.from('abc');
    s.push(buf);
    buf.fill(0x7a);
    assert.deepStrictEqual(s.push(Buffer.from('\n')), ['abc']);
  });

  it('property: any split into chunks gives the lines of splitting at once', () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 20 }), fc.constantFrom(4, 9, 64, 1 << 20), (bytes, cuts, max) => {
        const whole = new LineSplitter(max);
        const once = whole.push(bytes);
        const split = new LineSplitter(max);
        assert.deepStrictEqual(pushSplit(split, bytes, cuts), once);
        assert.strictEqual(split.oversized, whole.oversized);
        assert.strictEqual(split.pendingBytes, whole.pendingBytes);
      }),
      { numRuns: 500 },
    );
  });

  it('property: agrees with the whole-input definition', () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 20 }), fc.constantFrom(4, 9, 1 << 20), (bytes, cuts, max) => {
        const s = new LineSplitter(max);
        const want = reference(bytes, max);
        assert.deepStrictEqual(pushSplit(s, bytes, cuts), want.lines);
        assert.strictEqual(s.oversized, want.oversized);
        assert.strictEqual(s.pendingBytes, want.pending);
      }),
      { numRuns: 500 },
    );
  });

  it('property: arbitrary bytes decode like Buffer#toString per line', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.array(fc.nat(), { maxLength: 10 }), (arr, cuts) => {
        const bytes = Buffer.from(arr);
        assert.deepStrictEqual(pushSplit(new LineSplitter(), bytes, cuts), reference(bytes, 1 << 20).lines);
      }),
      { numRuns: 300 },
    );
  });
});
