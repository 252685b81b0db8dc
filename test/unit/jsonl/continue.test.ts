import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createContinueDecoder, MAX_SESSION_FILE_BYTES, type LogEvent } from '../../../src/jsonl';
import { MAX_JSON_DEPTH } from '../../../src/common/json';
import { FIXTURES } from '../helpers';

/**
 * Continue CLI's session file (FACTS.md §7 in test/fixtures/live/continue-cli): every content the file had during
 * each recorded run (`continue-session-snapshots.jsonl`, polled every 40 ms), fed to the decoder in order.
 */

const DIR = path.join(FIXTURES, 'live', 'continue-cli');

interface Snapshot {
  t_cast: number;
  epoch_ms: number;
  file: string;
  content: '' | { sessionId: string; workspaceDirectory: string; history: unknown[] };
}

/**
 * What each run's file says, from FACTS.md §7 and §9: the outcome and the snapshot (cast time) that first shows it.
 * 07 (Esc), 08 (HTTP 500) and 16 (HTTP 400) end with the prompt: nothing is told.
 */
const EXPECTED: Record<string, { state: 'completed' | 'failed'; reason?: string; t: number }[]> = {
  '02-plain-answer': [{ state: 'completed', t: 8.011 }],
  '03-question-reply': [{ state: 'completed', t: 8.809 }],
  '04-bash-approve': [{ state: 'completed', t: 25.789 }],
  '05-bash-deny': [{ state: 'failed', reason: 'permission rejected', t: 24.825 }],
  '06-tool-runs': [{ state: 'completed', t: 13.492 }],
  '07-esc-interrupt': [],
  '08-server-error-500': [],
  '16-api-error-400': [],
  '20-headless-ok': [{ state: 'completed', t: 5.729 }],
  '28-numbered-plan': [{ state: 'completed', t: 11.734 }],
  // Two prompts (a Read without a dialog in the first): each reply is told; the title came with the first (5.621).
  '40-usage-two-turns': [
    { state: 'completed', t: 5.621 },
    { state: 'completed', t: 11.679 },
  ],
};

function snapshots(scenario: string): Snapshot[] {
  return fs
    .readFileSync(path.join(DIR, scenario, 'continue-session-snapshots.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Snapshot)
    .filter((s) => !s.file.endsWith('/sessions.json'));
}

/** The file's text as cn writes it: pretty-printed, two spaces (continue-session.json). */
const text = (s: Snapshot) => (s.content === '' ? '' : JSON.stringify(s.content, null, 2));

describe('Continue CLI session file decoder (recorded snapshots)', () => {
  it('every recording with a session file is labelled here', () => {
    const have = fs.readdirSync(DIR).filter((d) => fs.existsSync(path.join(DIR, d, 'continue-session-snapshots.jsonl')));
    assert.deepStrictEqual(have.sort(), Object.keys(EXPECTED).sort());
  });

  for (const [scenario, want] of Object.entries(EXPECTED)) {
    it(`${scenario}: ${want.map((w) => w.reason ?? w.state).join(', ') || 'nothing'}, told once, when the file first shows it`, () => {
      const snaps = snapshots(scenario);
      const d = createContinueDecoder();
      const got: LogEvent[] = [];
      for (const s of snaps) got.push(...d.snapshot(text(s), s.epoch_ms));
      assert.strictEqual(d.problems.total, 0, JSON.stringify(d.problems.byKind()));
      const at = (t: number) => snaps.find((s) => s.t_cast === t)?.epoch_ms;
      assert.deepStrictEqual(
        got.map((e) => ({ state: e.state, reason: e.reason, at: e.at })),
        want.map((w) => ({ state: w.state, reason: w.reason, at: at(w.t) })),
      );
      const last = JSON.parse(fs.readFileSync(path.join(DIR, scenario, 'continue-session.json'), 'utf8')) as {
        sessionId: string;
        workspaceDirectory: string;
      };
      for (const e of got) {
        assert.deepStrictEqual([e.agent, e.sessionId, e.cwd], ['continue-cli', last.sessionId, last.workspaceDirectory]);
        assert.match(e.evidence, /^continue\.(reply|tool-call): /);
      }
      // The file as the run left it, read by a fresh decoder (a reader started late), tells the same last outcome.
      const late = createContinueDecoder().snapshot(fs.readFileSync(path.join(DIR, scenario, 'continue-session.json'), 'utf8'), 1);
      assert.deepStrictEqual(
        late.map((e) => e.state),
        want.slice(-1).map((w) => w.state),
      );
    });
  }

  const answered = () =>
    snapshots('02-plain-answer')
      .filter((s) => s.content !== '')
      .at(-1)!;

  it('a text cut off mid-write and an empty file are skipped without a problem; the whole text then tells', () => {
    const whole = text(answered());
    const d = createContinueDecoder();
    assert.deepStrictEqual(d.snapshot('', 1), []);
    assert.deepStrictEqual(d.snapshot(whole.slice(0, Math.floor(whole.length / 2)), 2), []);
    assert.strictEqual(d.problems.total, 0);
    assert.deepStrictEqual(
      d.snapshot(whole, 3).map((e) => [e.state, e.at]),
      [['completed', 3]],
    );
  });

  it('the next turn’s reply is told again; rereading the same history item is not', () => {
    const s = answered();
    const c = s.content as Exclude<Snapshot['content'], ''>;
    const d = createContinueDecoder();
    assert.strictEqual(d.snapshot(text(s), 1).length, 1);
    assert.strictEqual(d.snapshot(JSON.stringify({ ...c, title: 'renamed' }), 2).length, 0);
    const user = { message: { role: 'user', content: 'and Spain?' }, contextItems: [] };
    const reply = { message: { role: 'assistant', content: 'Madrid.' }, contextItems: [] };
    assert.strictEqual(d.snapshot(JSON.stringify({ ...c, history: [...c.history, user] }), 3).length, 0);
    assert.deepStrictEqual(
      d.snapshot(JSON.stringify({ ...c, history: [...c.history, user, reply] }), 4).map((e) => [e.state, e.at]),
      [['completed', 4]],
    );
    // A history rewound to the first reply and answered anew at the same place: another item, told.
    const other = { message: { role: 'assistant', content: 'Paris, again.' }, contextItems: [] };
    assert.strictEqual(d.snapshot(JSON.stringify({ ...c, history: [c.history[0], other] }), 5).length, 1);
  });

  it('a tool call canceled with another output reads interrupted, not permission rejected', () => {
    const denied = snapshots('05-bash-deny').at(-1)!;
    const c = JSON.parse(text(denied).replace('Permission denied by user', 'Cancelled by user')) as Record<string, unknown>;
    const got = createContinueDecoder().snapshot(JSON.stringify(c), 1);
    assert.deepStrictEqual(
      got.map((e) => [e.state, e.reason]),
      [['failed', 'interrupted']],
    );
  });

  it('refuses a file over the size cap and text nested too deep, counting each; never throws', () => {
    const d = createContinueDecoder();
    const huge = `{"sessionId":"s","history":[],"pad":"${'x'.repeat(MAX_SESSION_FILE_BYTES)}"}`;
    assert.deepStrictEqual(d.snapshot(huge, 1), []);
    const deep = `{"sessionId":"s","history":[${'['.repeat(MAX_JSON_DEPTH + 10)}${']'.repeat(MAX_JSON_DEPTH + 10)}],"pad":"${'x'.repeat(5000)}"}`;
    assert.deepStrictEqual(d.snapshot(deep, 2), []);
    assert.deepStrictEqual(d.snapshot('[{"sessionId":"s"}]', 3), []); // the index sessions.json: not a session
    assert.deepStrictEqual(d.problems.byKind(), { size: 1, depth: 1, schema: 1 });
  });
});
