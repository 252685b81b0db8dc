import * as assert from 'assert';
import { TerminalDetector } from '../../../src/detect/detector';
import type { Detection } from '../../../src/detect/types';
import { replayCast } from '../../../src/replay/replay';
import { COMMAND_OF, recordings } from '../helpers';

const ESC = '\x1b';
const title = (t: string) => `${ESC}]0;${t}\x07`;
const at = (row: number, text: string) => `${ESC}[${row};1H${ESC}[2K${text}`;
const ALT_ON = `${ESC}[?1049h${ESC}[2J${ESC}[H`;
const ALT_OFF = `${ESC}[?1049l`;

/** A Claude Code 2.1.328-like frame at 120x35, as the recordings draw it. */
function claudeFrame(middle: string, footer: string): string {
  return (
    at(2, ' ▐▛███▛█   Claude Code v2.1.328') +
    at(20, middle) +
    at(31, '─'.repeat(120)) +
    at(32, '❯\u00a0') +
    at(33, '─'.repeat(120)) +
    at(34, footer)
  );
}

function run(chunks: [number, string][], opts: { commandLine?: string; cols?: number; rows?: number } = {}): Detection[] {
  const d = new TerminalDetector({ cols: opts.cols ?? 120, rows: opts.rows ?? 35, commandLine: opts.commandLine });
  const out: Detection[] = [d.detection];
  d.onDidChange((x) => out.push(x));
  for (const [t, data] of chunks) d.write(data, t);
  d.advance(1e6);
  return out;
}
const states = (ds: Detection[]) => ds.map((d) => `${d.agent}/${d.state}`);

describe('detector rules', () => {
  it('identifies Claude Code from its own title without a command line', () => {
    const ds = run([[0, title('✳ Claude Code') + ALT_ON + claudeFrame('', '  ⏸ manual mode on · ? for shortcuts')]]);
    assert.deepStrictEqual(states(ds), ['shell/idle', 'claude-code/idle']);
    assert.match(ds[1].evidence, /cc\.title/);
  });

  it('reads working from the title spinner and the footer, waiting from a dialog, stopped from the completion shape', () => {
    const ds = run(
      [
        [0, ALT_ON + title('✳ Claude Code') + claudeFrame('', '  ⏸ manual mode on · ? for shortcuts')],
        [1, title('◐ Claude Code') + at(34, '  ⏸ manual mode on · esc to interrupt')],
        [
          2,
          at(25, ' Do you want to proceed?') +
            at(26, ' ❯ 1. Yes') +
            at(27, '   2. No') +
            at(29, ' Esc to cancel · Tab to amend') +
            at(31, '') +
            at(32, '') +
            at(33, '') +
            at(34, '') +
            title('✳ Claude Code'),
        ],
        [
          5,
          at(25, '') +
            at(26, '') +
            at(27, '') +
            at(29, '') +
            title('◑ Claude Code') +
            claudeFrame('● Done.', '  ⏸ manual mode on · esc to interrupt'),
        ],
        [6, title('✳ Claude Code') + at(22, '✻ Worked for 2s · done 4:35 PM') + at(34, '  ⏸ manual mode on · ? for shortcuts')],
      ],
      { commandLine: 'claude' },
    );
    assert.deepStrictEqual(states(ds), [
      'claude-code/idle',
      'claude-code/working',
      'claude-code/waiting',
      'claude-code/working',
      'claude-code/stopped',
    ]);
    assert.strictEqual(ds[2].waitKind, 'permission');
    // The agent is named by its command line (source command), every state after it by the screen.
    assert.deepStrictEqual(
      ds.map((d) => d.source),
      ['command', 'pty-scrape', 'pty-scrape', 'pty-scrape', 'pty-scrape'],
    );
    assert.match(ds[4].evidence, /Worked for 2s/);
  });

  it('shows a state within 150 ms of the screen showing it', () => {
    const ds = run(
      [
        [0, ALT_ON + title('✳ Claude Code') + claudeFrame('', '  ⏸ manual mode on · ? for shortcuts')],
        [10, title('◐ Claude Code')],
      ],
      { commandLine: 'claude' },
    );
    const working = ds.find((d) => d.state === 'working')!;
    assert.ok(working.t >= 10 && working.t <= 10.15, `working shown at ${working.t}`);
  });

  it('shows a state within 150 ms even when it appears right after a look (looks are throttled)', () => {
    for (const gap of [0.001, 0.01, 0.03, 0.06, 0.09]) {
      const ds = run(
        [
          [0, ALT_ON + title('✳ Claude Code') + claudeFrame('', '  ⏸ manual mode on · ? for shortcuts')],
          [10, at(20, 'x')],
          [10 + gap, title('◐ Claude Code')],
          [10.5, at(21, 'y')],
        ],
        { commandLine: 'claude' },
      );
      const working = ds.find((d) => d.state === 'working')!;
      assert.ok(
        working.t - (10 + gap) <= 0.15 + 1e-9,
        `gap ${gap}: shown ${(working.t - 10 - gap).toFixed(3)} s after the screen showed it`,
      );
    }
  });

  it('does not flicker on a short redraw', () => {
    // Codex draws a 70 ms working blip at start-up; it must not show.
    const ps = (s: string) => `${ESC}]7501;state=${s}:app=codex${ESC}\\`;
    const ds = run(
      [
        [0, ALT_ON + ps('idle')],
        [2.6, ps('working')],
        [2.67, ps('idle')],
        [3, at(5, 'x')],
      ],
      { commandLine: 'codex' },
    );
    assert.deepStrictEqual(states(ds), ['codex/idle']);
  });

  it('does not show a short program-status blip that a throttled look sees after an earlier change', () => {
    // Seen live (codex 0.169 compat): a redraw, then a 25 ms working blip caught by the next look.
    const ps = (s: string) => `${ESC}]7501;state=${s}:app=codex${ESC}\\`;
    const ds = run(
      [
        [0, ALT_ON + ps('idle')],
        [2.0, at(5, 'a')],
        [2.01, at(6, 'b')],
        [2.092, ps('working')],
        [2.1, at(7, 'c')],
        [2.117, ps('idle')],
        [2.2, at(8, 'd')],
        [3, at(5, 'x')],
      ],
      { commandLine: 'codex' },
    );
    assert.deepStrictEqual(states(ds), ['codex/idle']);
  });

  it('reads Codex program status (OSC 7501) as completed, failed and waiting', () => {
    const ps = (s: string) => `${ESC}]7501;state=${s}:app=codex${ESC}\\`;
    const ds = run(
      [
        [0, ALT_ON + ps('idle')],
        [1, ps('working')],
        [2, ps('blocked') + ''],
      ],
      { commandLine: 'codex' },
    );
    assert.deepStrictEqual(states(ds), ['codex/idle', 'codex/working', 'codex/waiting']);
    const done = run(
      [
        [0, ALT_ON + ps('working')],
        [1, at(10, '• All done.') + at(12, '  Worked for 3s • 16:16') + ps('done')],
      ],
      { commandLine: 'codex' },
    );
    assert.strictEqual(done.at(-1)!.state, 'completed');
    const err = run(
      [
        [0, ALT_ON + ps('working')],
        [1, ps('error')],
      ],
      { commandLine: 'codex' },
    );
    assert.strictEqual(err.at(-1)!.state, 'failed');
  });

  it('reads a reply that ends with a question as waiting (reply-question), not as a dialog', () => {
    const ds = run(
      [
        [0, ALT_ON + title('✳ Claude Code') + claudeFrame('', '  ⏸ manual mode on · ? for shortcuts')],
        [1, title('◐ Claude Code') + at(34, '  ⏸ manual mode on · esc to interrupt')],
        [
          3,
          title('✳ Claude Code') +
            at(18, '● Should I also delete the **cache** folder?') +
            at(20, '✻ Brewed for 2s · done 4:35 PM') +
            at(34, '  ⏸ manual mode on · ? for shortcuts'),
        ],
      ],
      { commandLine: 'claude' },
    );
    assert.strictEqual(ds.at(-1)!.state, 'waiting');
    assert.strictEqual(ds.at(-1)!.waitKind, 'reply-question');
  });

  it('reads an on-screen API error after retries as failed, and retries as working', () => {
    const ds = run(
      [
        [0, ALT_ON + title('✳ Claude Code') + claudeFrame('', '  ⏸ manual mode on · ? for shortcuts')],
        [
          1,
          title('◐ Claude Code') + at(20, '✻ API error · retrying in 1s · attempt 1/10') + at(34, '  ⏸ manual mode on · esc to interrupt'),
        ],
        [
          9,
          title('✳ Claude Code') +
            at(20, '● API Error: 500 Internal server error. This is a server-side issue') +
            at(34, '  ⏸ manual mode on · ? for shortcuts'),
        ],
      ],
      { commandLine: 'claude' },
    );
    assert.deepStrictEqual(states(ds), ['claude-code/idle', 'claude-code/working', 'claude-code/failed']);
    assert.match(ds[2].evidence, /API Error: 500/);
  });

  it('reads exited when the TUI leaves the alternate screen with its resume hint, and on process exit', () => {
    const ds = run([
      [0, ALT_ON + title('✳ Claude Code') + claudeFrame('', '  ⏸ manual mode on · ? for shortcuts')],
      [5, ALT_OFF + title('') + '\r\nResume this session with:\r\nclaude --resume 1234abcd-0000-0000-0000-000000000000\r\n'],
    ]);
    assert.deepStrictEqual(states(ds), ['shell/idle', 'claude-code/idle', 'claude-code/exited']);
    const d = new TerminalDetector({ commandLine: 'codex' });
    d.exit(130, 3);
    assert.strictEqual(d.detection.state, 'exited');
    assert.strictEqual(d.detection.source, 'command', 'the command’s end, as shell integration reports it');
    assert.match(d.detection.evidence, /130/);
  });

  it('handles resize: a dialog drawn after a resize to 80x24 is still found', () => {
    const d = new TerminalDetector({ cols: 120, rows: 35, commandLine: 'claude' });
    d.write(ALT_ON + title('✳ Claude Code'), 0);
    d.resize(80, 24, 1);
    d.write(at(20, ' Do you want to proceed?') + at(24, ' Esc to cancel · Tab to amend'), 2);
    d.advance(3);
    assert.strictEqual(d.detection.state, 'waiting');
    assert.strictEqual(d.screenText().split('\n').length <= 24, true);
  });

  it('identifies OpenCode from the OpenTUI capability query and Codex from its program status', () => {
    assert.strictEqual(run([[0, `${ESC}]99;i=opentui-notifications:p=?;${ESC}\\` + ALT_ON]]).at(-1)!.agent, 'opencode');
    assert.strictEqual(run([[0, ALT_ON + `${ESC}]7501;state=idle:app=codex${ESC}\\`]]).at(-1)!.agent, 'codex');
  });

  it('never reads seed dialog words as waiting in a plain shell', () => {
    const ds = run([[0, 'Do you want to proceed? (y/n)\r\nAllow once   Allow always   Deny\r\nrequires approval\r\n']]);
    assert.deepStrictEqual(states(ds), ['shell/idle']);
  });
});

describe('detector robustness on real recordings', () => {
  const fixtures = recordings().filter((r) =>
    ['claude-code/04-bash-permission-approve', 'codex/04-approval-approve', 'opencode/04-permission-approve'].includes(
      `${r.agent}/${r.scenario}`,
    ),
  );

  it('has the three approval recordings', () => assert.strictEqual(fixtures.length, 3));

  for (const f of fixtures) {
    it(`${f.agent}/${f.scenario}: the same states when chunks split mid-escape and mid-UTF-8`, () => {
      const whole = replayCast(f.cast, { commandLine: COMMAND_OF[f.agent] }).detections;
      // Split every output chunk into pieces of 1..7 UTF-16 code units: cuts land inside escape
      // sequences and surrogate pairs. Pieces keep their chunk's timestamp.
      const split = {
        ...f.cast,
        events: f.cast.events.flatMap((ev) => {
          if (ev.code !== 'o') return [ev];
          const parts = [];
          for (let i = 0, k = 0; i < ev.data.length; k++) {
            const n = 1 + (k % 7);
            parts.push({ ...ev, data: ev.data.slice(i, i + n) });
            i += n;
          }
          return parts;
        }),
      };
      const pieces = replayCast(split, { commandLine: COMMAND_OF[f.agent] }).detections;
      assert.deepStrictEqual(states(pieces), states(whole));
      for (let i = 0; i < whole.length; i++)
        assert.ok(Math.abs(whole[i].t - pieces[i].t) < 0.06, `transition ${i} moved from ${whole[i].t} to ${pieces[i].t}`);
    });
  }
});
