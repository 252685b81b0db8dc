import * as assert from 'assert';
import { OSC_BODY_CAP, OscCap } from '../../../src/detect/oscCap';
import { Screen } from '../../../src/detect/screen';

function through(chunks: string[]): string {
  const cap = new OscCap();
  return chunks.map((c) => cap.filter(c)).join('');
}

/** Every split of `text` into two chunks gives what the whole did. */
function everySplit(text: string): string[] {
  const out: string[] = [];
  for (let k = 0; k <= text.length; k++) out.push(through([text.slice(0, k), text.slice(k)]));
  return out;
}

describe('OSC bodies cut before the emulator (linear time on endless titles)', () => {
  it('passes output and short OSC strings through unchanged, however it is split', () => {
    const text = 'ls\r\n\x1b]0;✳ Claude Code\x07 \x1b]7501;state=working\x1b\\ \x9d2;t\x9c plain \x1b[31mred\x1b[0m';
    for (const got of everySplit(text)) assert.strictEqual(got, text);
  });

  it('keeps the first OSC_BODY_CAP characters of a long body and its end, across chunks', () => {
    const body = 'x'.repeat(OSC_BODY_CAP * 3);
    const text = `a\x1b]0;${body}\x07b`;
    const want = `a\x1b]0;${body.slice(0, OSC_BODY_CAP - 2)}\x07b`;
    assert.strictEqual(through([text]), want);
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += 1000) chunks.push(text.slice(i, i + 1000));
    assert.strictEqual(through(chunks), want);
    for (const got of everySplit(text.slice(0, 20) + text.slice(-20))) assert.strictEqual(got, text.slice(0, 20) + text.slice(-20));
  });

  it('drops an unterminated body past the cap, and output after its end comes through', () => {
    const cap = new OscCap();
    let kept = cap.filter('\x1b]0;');
    for (let i = 0; i < 100; i++) kept += cap.filter('y'.repeat(4096));
    assert.strictEqual(kept.length, 2 + OSC_BODY_CAP, 'ESC ] and the cap (the ident counts in it)');
    assert.strictEqual(cap.filter('\x07$ '), '\x07$ ');
    assert.strictEqual(cap.filter('\x1b]0;t\x07'), '\x1b]0;t\x07');
  });

  it('an OSC opened by ESC at the end of one chunk and ] at the start of the next is counted', () => {
    const cap = new OscCap();
    let out = cap.filter('z\x1b') + cap.filter(`]0;${'q'.repeat(OSC_BODY_CAP + 50)}`) + cap.filter('\x07!');
    assert.strictEqual(out, `z\x1b]0;${'q'.repeat(OSC_BODY_CAP - 2)}\x07!`);
    out = cap.filter('\x1b') + cap.filter('[1mbold');
    assert.strictEqual(out, '\x1b[1mbold');
  });

  it('the emulator still shows a long title by its start, and the screen after it', () => {
    const screen = new Screen(40, 5, [], () => undefined);
    screen.write(`\x1b]0;✳ Claude Code ${'w'.repeat(100_000)}\x07hello`);
    const v = screen.view();
    assert.ok(v.title.startsWith('✳ Claude Code www'), v.title.slice(0, 40));
    assert.strictEqual(v.title.length, OSC_BODY_CAP - 2);
    assert.strictEqual(v.rows[0], 'hello');
  });
});
