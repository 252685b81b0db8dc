import * as assert from 'assert';
import { TerminalDetector } from '../../../src/detect/detector';
import { replayCast } from '../../../src/replay/replay';
import { negatives } from '../helpers';

/** Plain shell sessions recorded here: never an agent, never waiting. */
describe('negative fixtures (plain shell sessions)', () => {
  const all = negatives();
  it('has the recorded plain-shell sessions', () => assert.ok(all.length >= 6, `only ${all.length} negative casts`));
  for (const n of all) {
    it(`${n.name}: never an agent, never waiting`, () => {
      for (const commandLine of [undefined, n.name.replace(/-/g, ' ')]) {
        const res = replayCast(n.cast, { commandLine });
        const bad = res.detections.filter((d) => d.agent !== 'shell' || d.state === 'waiting');
        assert.deepStrictEqual(bad, [], `with command line ${JSON.stringify(commandLine)}`);
      }
    });
  }
});

describe('cheap path for plain terminals', () => {
  it('does not emulate plain output, and promotes when an agent title appears', () => {
    const d = new TerminalDetector({ cols: 80, rows: 24 });
    for (let i = 0; i < 2000; i++) d.write(`\x1b[32mfile-${i}.txt\x1b[0m  ${'x'.repeat(60)}\r\n`, i / 1000);
    assert.strictEqual(d.emulating, false);
    d.write('\x1b]0;✳ Claude Code\x07', 3);
    assert.strictEqual(d.emulating, true);
  });

  it('goes back to the cheap path when a full-screen program is not an agent', () => {
    const d = new TerminalDetector({ cols: 80, rows: 24 });
    d.write('\x1b[?1049h\x1b[H top - 10:00:00 up 1 day', 0);
    assert.strictEqual(d.emulating, true);
    for (let t = 0; t < 20; t += 0.1) d.write(`\x1b[H${'%Cpu(s): 1.0 us '.repeat(5)}\r\n${'PID USER '.repeat(8)}\r\n`.repeat(30), t);
    assert.strictEqual(d.emulating, false);
    assert.strictEqual(d.detection.agent, 'shell');
  });
});
