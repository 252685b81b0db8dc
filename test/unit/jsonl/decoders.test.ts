import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { CLAUDE_NEEDLES } from '../../../src/jsonl/claude';
import { CODEX_NEEDLES } from '../../../src/jsonl/codex';
import { GEMINI_NEEDLES } from '../../../src/jsonl/gemini';
import { mustParse } from '../../../src/jsonl/common';
import { createOpenCodeDecoder, decoderFor, type LogEvent, type OpenCodeRows } from '../../../src/jsonl';
import { FIXTURES, ROOT } from '../helpers';

/**
 * The session-log decoders against the logs the real CLIs wrote: hand-labelled recordings (../shared/recordings,
 * which keeps the logs the copies in test/fixtures/recordings leave out) and the harness's live fixtures.
 */

type Agent = 'claude-code' | 'codex' | 'gemini' | 'opencode';
type Origin = 'shared' | 'live';

/** What each scenario must end in, from its name and description, not from the decoder's output. */
interface Expect {
  /** No events at all (the CLI was never given a prompt). */
  none?: true;
  final?: LogEvent['state'];
  reason?: string;
  /** At least this many completed turns (multi-turn scenarios). */
  completed?: number;
  /** The final completed is held until the agent's turn-end hook (Gemini). */
  held?: true;
}

const DONE: Expect = { final: 'completed' };
const IDLE: Expect = { none: true };
const INTERRUPTED: Expect = { final: 'failed', reason: 'interrupted' };
/** Completed once the agent says the turn ended: the last event is a reply held for that word (`ifTurnEnded`). */
const HELD: Expect = { final: 'completed', held: true };

const EXPECTED: Record<string, Expect> = {
  'shared/claude-code/01-idle-start': IDLE,
  'shared/claude-code/02-plain-text': DONE,
  'shared/claude-code/04-bash-permission-approve': DONE,
  'shared/claude-code/08-esc-interrupt': INTERRUPTED,
  'shared/claude-code/10-multiturn-write-exit': { final: 'completed', completed: 2 },
  'shared/codex/01-idle-start': IDLE,
  'shared/codex/02-plain-answer': DONE,
  'shared/codex/04-approval-approve': DONE,
  'shared/codex/07-interrupt-esc': INTERRUPTED,
  'shared/codex/09-multi-step-quit': DONE, // one turn of several steps
  'shared/opencode/01-idle': IDLE,
  'shared/opencode/02-plain-answer': DONE,
  'shared/opencode/04-permission-approve': DONE,
  'shared/opencode/07-interrupt-esc': INTERRUPTED,
  'shared/opencode/09-multistep-quit': DONE, // one turn of several steps
  'live/claude-code/01-idle-start': IDLE,
  'live/claude-code/02-plain-answer': DONE,
  'live/claude-code/03-question-reply': DONE,
  'live/claude-code/04-bash-permission-approve': DONE,
  'live/claude-code/05-bash-permission-deny': { final: 'failed', reason: 'permission rejected' },
  'live/claude-code/06-ask-user-question': DONE,
  'live/claude-code/06b-ask-user-question-dismiss': { final: 'failed', reason: 'question dismissed' },
  'live/claude-code/07-slow-streaming': DONE,
  'live/claude-code/08-esc-interrupt': INTERRUPTED,
  'live/claude-code/09-api-error-529': { final: 'failed', reason: 'API error 529' },
  'live/claude-code/10-multiturn-quit': { final: 'completed', completed: 2 },
  'live/claude-code/11-narrow-80x24-approval': DONE,
  // `claude -p` writes the prompt but no turn-duration record: the run's exit code decides (headless runs).
  'live/claude-code/20-headless-ok': { final: 'working' },
  'live/claude-code/21-headless-server-error': { final: 'failed', reason: 'API error 400' },
  'live/claude-code/22-folder-trust': IDLE,
  'live/claude-code/24-compact-after-question': DONE, // /compact writes no second turn
  'live/claude-code/26-auth-401': { final: 'failed', reason: 'API error 401' },
  'live/claude-code/27-model-404': { final: 'failed', reason: 'API error 404' },
  'live/claude-code/28-numbered-plan': DONE,
  'live/claude-code/25-background-subagent': DONE, // turn 1 ends with pendingBackgroundAgentCount 1 (working); the follow-up turn completes
  'live/codex/01-idle-start': IDLE, // a rollout with only session_meta
  'live/codex/02-plain-answer': DONE,
  'live/codex/03-question-reply': DONE,
  'live/codex/04-approval-approve': DONE,
  'live/codex/05-approval-deny': INTERRUPTED, // Codex writes turn_aborted "interrupted" for a denied approval
  'live/codex/06-question-async': { final: 'completed', completed: 2 }, // the answer starts a second turn
  'live/codex/07-slow-streaming': DONE,
  'live/codex/08-esc-interrupt': INTERRUPTED,
  'live/codex/09-api-error-429': { final: 'failed', reason: 'API error 429' },
  'live/codex/20-headless-ok': DONE,
  'live/codex/21-headless-server-error': { final: 'failed', reason: 'error' }, // exec's rollout names no status
  'live/codex/22-hooks-review': IDLE,
  'live/codex/23-folder-access': IDLE,
  'live/codex/10-multi-step-quit': { final: 'completed', completed: 2 },
  'live/codex/11-narrow-80x24-approval': DONE,
  'live/codex/28-numbered-plan': DONE,
  'live/codex/29-quit-while-working': INTERRUPTED, // "Exit" in its dialog aborts the turn
  'live/codex/30-slash-quit-while-working': { final: 'working' }, // /quit leaves the turn open in the rollout
  'live/opencode/01-idle-start': IDLE,
  'live/opencode/02-plain-answer': DONE,
  'live/opencode/03-question-reply': DONE,
  'live/opencode/04-permission-approve': DONE,
  'live/opencode/05-permission-reject': { final: 'failed', reason: 'permission rejected' },
  'live/opencode/06-question-answer': DONE,
  'live/opencode/06b-question-dismiss': { final: 'failed', reason: 'question dismissed' },
  'live/opencode/07-slow-streaming': DONE,
  'live/opencode/08-esc-interrupt': INTERRUPTED,
  'live/opencode/09-api-error-401': { final: 'failed', reason: 'API error 401' },
  'live/opencode/10-multistep-quit': { final: 'completed', completed: 2 }, // two prompts
  'live/opencode/28-numbered-plan': DONE,
  'live/opencode/20-headless-ok': DONE,
  'live/opencode/21-headless-server-error': { final: 'failed', reason: 'API error 400' },
  'live/opencode/11-narrow-80x24-permission': DONE,
  // Gemini: a finished turn ends on its last reply, held until the AfterAgent hook says the turn ended (HELD).
  'shared/gemini/04-shell-approve': HELD,
  'shared/gemini/07-esc-interrupt': INTERRUPTED,
  'live/gemini/01-idle-start': IDLE,
  'live/gemini/02-plain-answer': HELD,
  'live/gemini/03-question-reply': HELD,
  'live/gemini/04-shell-approve': HELD,
  'live/gemini/05-shell-deny': { final: 'failed', reason: 'permission rejected' },
  'live/gemini/07-esc-interrupt': INTERRUPTED,
  // Still retrying when the recording stopped: the prompt is all the log says.
  'live/gemini/08-server-error-500': { final: 'working' },
  'live/gemini/09-multistep-quit': { ...HELD, completed: 2 },
  'live/gemini/16-api-error-400': { final: 'failed', reason: 'API error 400' },
  'live/gemini/20-headless-ok': HELD,
  // Headless: retries, then the process exits 1 without an error record (the exit code decides).
  'live/gemini/21-headless-server-error': { final: 'working' },
  // Never given a prompt (Gemini deletes such a log at exit: saved empty).
  'live/gemini/22-first-start-vscode': IDLE,
  'live/gemini/28-numbered-plan': HELD,
};

const SHARED = process.env.AGENT_LENS_SHARED_RECORDINGS ?? path.join(ROOT, '..', 'shared', 'recordings');
const ROOTS: Record<Origin, string> = { shared: SHARED, live: path.join(FIXTURES, 'live') };
const LOG_FILE: Record<Agent, string> = {
  'claude-code': 'transcript.jsonl',
  codex: 'rollout.jsonl',
  gemini: 'gemini-session.jsonl',
  opencode: 'storage.json',
};

interface LogFixture {
  key: string;
  agent: Agent;
  file: string;
}

/** Every scenario folder of the three agents that holds a session log (an empty one counts). */
function logFixtures(): LogFixture[] {
  const out: LogFixture[] = [];
  for (const origin of Object.keys(ROOTS) as Origin[]) {
    for (const agent of Object.keys(LOG_FILE) as Agent[]) {
      const dir = path.join(ROOTS[origin], agent);
      if (!fs.existsSync(dir)) continue;
      for (const scenario of fs.readdirSync(dir).sort()) {
        const file = path.join(dir, scenario, LOG_FILE[agent]);
        if (fs.existsSync(file)) out.push({ key: `${origin}/${agent}/${scenario}`, agent, file });
      }
    }
  }
  return out;
}

function lines(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
}

function decodeFile(f: LogFixture): { events: LogEvent[]; problems: number } {
  if (f.agent === 'opencode') {
    const d = createOpenCodeDecoder();
    const events = d.rows(readRows(f.file));
    return { events, problems: d.problems.total };
  }
  const d = decoderFor(f.agent);
  const events = lines(f.file).flatMap((l) => d.line(l));
  return { events, problems: d.problems.total };
}

function readRows(file: string): OpenCodeRows {
  const s = JSON.parse(fs.readFileSync(file, 'utf8')) as OpenCodeRows;
  return { session: s.session, message: s.message, part: s.part };
}

/** The rows one at a time, in the order `key` gives (ties by table, then id, so the order is stable). */
function oneByOne(rows: OpenCodeRows, key: 'time_updated' | 'time_created'): LogEvent[] {
  const tagged = [
    ...rows.session.map((r) => ({ t: r[key], n: 0, id: r.id, feed: { session: [r], message: [], part: [] } })),
    ...rows.message.map((r) => ({ t: r[key], n: 1, id: r.id, feed: { session: [], message: [r], part: [] } })),
    ...rows.part.map((r) => ({ t: r[key], n: 2, id: r.id, feed: { session: [], message: [], part: [r] } })),
  ].sort((a, b) => a.t - b.t || a.n - b.n || (a.id < b.id ? -1 : 1));
  const d = createOpenCodeDecoder();
  const events = tagged.flatMap((x) => d.rows(x.feed));
  assert.strictEqual(d.problems.total, 0, JSON.stringify(d.problems.byKind()));
  return events;
}

/** Turns whose last event is a completed one (Gemini: held replies), by the turn's id. */
function completedTurns(events: LogEvent[]): number {
  const lastOf = new Map<string, LogEvent>();
  for (const e of events) lastOf.set(e.turn ?? '', e);
  return [...lastOf.values()].filter((e) => e.state === 'completed').length;
}

function describeEnd(events: LogEvent[]): string {
  const e = events[events.length - 1];
  return e ? `${e.state}${e.reason ? ` (${e.reason})` : ''}` : 'no events';
}

describe('session-log decoders on real logs', () => {
  const fixtures = logFixtures();

  it('finds the live fixtures of all four agents with logs', () => {
    for (const a of ['claude-code', 'codex', 'gemini', 'opencode'])
      assert.ok(
        fixtures.some((f) => f.key.startsWith(`live/${a}/`)),
        `no live ${a} logs`,
      );
  });

  it('has an expectation for every recording with a log, and no stale ones', () => {
    const missing = fixtures.filter((f) => !(f.key in EXPECTED)).map((f) => f.key);
    assert.deepStrictEqual(missing, [], 'add these recordings to EXPECTED');
    const found = new Set(fixtures.map((f) => f.key));
    const stale = Object.keys(EXPECTED).filter((k) => !found.has(k) && fs.existsSync(ROOTS[k.split('/')[0] as Origin]));
    assert.deepStrictEqual(stale, [], 'EXPECTED names recordings that are gone');
  });

  for (const f of fixtures) {
    it(`${f.key} ends as its scenario says`, () => {
      const want = EXPECTED[f.key];
      assert.ok(want, `no expectation for ${f.key}`);
      const { events, problems } = decodeFile(f);
      assert.strictEqual(problems, 0, 'a real log line did not parse');
      if (want.none) return assert.deepStrictEqual(events, []);
      const last = events[events.length - 1];
      assert.ok(last, 'no events');
      assert.strictEqual(describeEnd(events), `${want.final}${want.reason ? ` (${want.reason})` : ''}`);
      if (want.final !== 'failed')
        assert.ok(
          events.every((e) => e.state !== 'failed'),
          `unexpected failure: ${JSON.stringify(events)}`,
        );
      // Gemini offers every reply as a possible end: count the turns that end on one.
      const completed = f.agent === 'gemini' ? completedTurns(events) : events.filter((e) => e.state === 'completed').length;
      assert.strictEqual(last.ifTurnEnded === true, want.held === true, 'held for the turn-end hook only where the log has no end record');
      if (f.agent !== 'gemini')
        assert.ok(
          events.every((e) => !e.ifTurnEnded),
          'only Gemini holds replies',
        );
      if (f.agent !== 'opencode')
        assert.ok(completed >= (want.completed ?? (want.final === 'completed' ? 1 : 0)), `${completed} completed`);
      assert.strictEqual(events[0].state, f.agent === 'opencode' ? last.state : 'working', 'a session log starts with a prompt');
      for (const e of events) {
        assert.strictEqual(e.agent, f.agent);
        // Gemini's log names no folder (its hooks do).
        assert.ok(e.sessionId && (e.cwd || f.agent === 'gemini') && e.evidence, JSON.stringify(e));
        assert.ok(Number.isFinite(e.at) && e.at > Date.UTC(2020, 0, 1), `at ${e.at}`);
      }
      // Line logs are written in order, so their events are too.
      for (let i = 1; i < events.length; i++) assert.ok(events[i].at >= events[i - 1].at, `event ${i} goes back in time`);
    });
  }

  it('skips unparsed only lines whose type cannot matter (prefilter is safe on every real line)', () => {
    for (const f of fixtures.filter((x) => x.agent !== 'opencode')) {
      for (const l of lines(f.file)) {
        const needles = f.agent === 'claude-code' ? CLAUDE_NEEDLES : f.agent === 'gemini' ? GEMINI_NEEDLES : CODEX_NEEDLES;
        if (mustParse(l, needles)) continue;
        const e = JSON.parse(l) as { type: string; subtype?: string; payload?: { type?: string }; projectHash?: string };
        const relevant =
          f.agent === 'claude-code'
            ? e.type === 'user' || e.type === 'assistant' || (e.type === 'system' && e.subtype === 'turn_duration')
            : f.agent === 'gemini'
              ? e.projectHash !== undefined || ['user', 'gemini', 'info', 'error'].includes(e.type)
              : e.type === 'session_meta' ||
                (e.type === 'event_msg' &&
                  ['task_started', 'task_complete', 'turn_aborted', 'item_completed'].includes(e.payload?.type ?? ''));
        // item_completed matters only for a UserMessage, which carries the needle.
        assert.ok(!relevant || e.payload?.type === 'item_completed', `${f.key}: a relevant line was skipped: ${l.slice(0, 120)}`);
      }
    }
  });

  describe('OpenCode rows arriving incrementally', () => {
    for (const f of fixtures.filter((x) => x.agent === 'opencode')) {
      it(`${f.key}: all at once and one row at a time end the same`, () => {
        const rows = readRows(f.file);
        const all = createOpenCodeDecoder().rows(rows);
        assert.strictEqual(describeEnd(oneByOne(rows, 'time_updated')), describeEnd(all));
        const inserted = oneByOne(rows, 'time_created');
        assert.strictEqual(describeEnd(inserted), describeEnd(all));
        const want = EXPECTED[f.key];
        const completed = inserted.filter((e) => e.state === 'completed').length;
        assert.ok(completed >= (want?.completed ?? 0), `${completed} completed turns in insertion order`);
      });
    }

    it('accepts data as JSON text (the DB column) as well as parsed', () => {
      const f = fixtures.find((x) => x.key === 'live/opencode/05-permission-reject');
      if (!f) return;
      const rows = readRows(f.file);
      const text = <R extends { data: unknown }>(r: R): R => ({ ...r, data: typeof r.data === 'string' ? r.data : JSON.stringify(r.data) });
      const asText: OpenCodeRows = { session: rows.session, message: rows.message.map(text), part: rows.part.map(text) };
      assert.deepStrictEqual(createOpenCodeDecoder().rows(asText), createOpenCodeDecoder().rows(rows));
    });
  });
});

describe('session-log decoders on broken input', () => {
  const ts = '2026-12-02T10:00:00.000Z';
  const claudeBase = { sessionId: 's1', timestamp: ts, cwd: '/p', isSidechain: false };
  const prompt = JSON.stringify({
    ...claudeBase,
    type: 'user',
    uuid: 'u1',
    message: { role: 'user', content: 'hi' },
    origin: { kind: 'human' },
    promptSource: 'typed',
  });
  const endTurn = JSON.stringify({
    ...claudeBase,
    type: 'assistant',
    uuid: 'a1',
    message: { role: 'assistant', stop_reason: 'end_turn', content: [{ type: 'text', text: 'ok' }] },
  });
  const duration = JSON.stringify({ ...claudeBase, type: 'system', subtype: 'turn_duration', durationMs: 12, uuid: 'd1' });

  it('Claude: garbage, truncated, empty and unknown lines do not stop later lines', () => {
    const d = decoderFor('claude-code');
    const out: LogEvent[] = [];
    for (const l of [
      'not json at all',
      prompt.slice(0, 40),
      '',
      JSON.stringify({ ...claudeBase, type: 'brand-new-entry', uuid: 'x' }),
      '[1,2]',
    ])
      out.push(...d.line(l));
    assert.deepStrictEqual(out, []);
    // '[1,2]' parses but is not one object: shaped like none, it is counted without JSON.parse, as the garbage is.
    assert.deepStrictEqual(d.problems.byKind(), { json: 3, empty: 1 });
    // A relevant entry with a wrong field type is a schema problem, not a throw.
    assert.deepStrictEqual(d.line(JSON.stringify({ ...claudeBase, type: 'user', sessionId: 5, message: { content: 'x' } })), []);
    assert.strictEqual(d.problems.byKind().schema, 1);
    const states = [prompt, endTurn, duration].flatMap((l) => d.line(l)).map((e) => e.state);
    assert.deepStrictEqual(states, ['working', 'completed']);
    assert.strictEqual(d.problems.total, 5);
  });

  it('Claude: a huge irrelevant line is skipped without parsing and without a problem', () => {
    const d = decoderFor('claude-code');
    const big = JSON.stringify({ type: 'api-request-blob', sessionId: 's1', blob: 'x'.repeat(300_000) });
    assert.deepStrictEqual(d.line(big), []);
    assert.strictEqual(d.problems.total, 0);
  });

  it('Codex: lines before session_meta are counted, garbage is counted, later lines decode', () => {
    const d = decoderFor('codex');
    const started = JSON.stringify({ timestamp: ts, ordinal: 1, type: 'event_msg', payload: { type: 'task_started', turn_id: 't1' } });
    assert.deepStrictEqual(d.line(started), []);
    assert.deepStrictEqual(d.problems.byKind(), { 'no-session-meta': 1 });
    const meta = JSON.stringify({ timestamp: ts, ordinal: 0, type: 'session_meta', payload: { id: 'c1', cwd: '/p' } });
    const unknown = JSON.stringify({ timestamp: ts, ordinal: 2, type: 'event_msg', payload: { type: 'brand_new_event' } });
    const completed = JSON.stringify({
      timestamp: ts,
      ordinal: 3,
      type: 'event_msg',
      payload: { type: 'task_complete', turn_id: 't1', duration_ms: 5 },
    });
    const out = [meta, '{"timestamp":', '', 'garbage', unknown, started, completed].flatMap((l) => d.line(l));
    assert.deepStrictEqual(
      out.map((e) => [e.state, e.turn, e.sessionId, e.cwd]),
      [
        ['working', 't1', 'c1', '/p'],
        ['completed', 't1', 'c1', '/p'],
      ],
    );
    assert.deepStrictEqual(d.problems.byKind(), { 'no-session-meta': 1, json: 2, empty: 1 });
  });

  it('OpenCode: broken rows are counted, the rest decode', () => {
    const d = createOpenCodeDecoder();
    const session = { id: 'ses_1', directory: '/p', parent_id: null, time_created: 1, time_updated: 1 };
    const user = { id: 'msg_1', session_id: 'ses_1', time_created: 2, time_updated: 2, data: '{"role":"user","time":{"created":2}}' };
    const events = d.rows({
      session: [session, { id: 7 } as never],
      message: [{ ...user, id: 'msg_0', data: '{"role":' }, { ...user, id: 'msg_00', data: '{"role":"user"}' }, user],
      part: [{ id: 'prt_1', message_id: 'msg_1', session_id: 'ses_1', time_created: 2, time_updated: 2, data: { type: 'brand-new-part' } }],
    });
    assert.deepStrictEqual(
      events.map((e) => [e.state, e.turn, e.cwd]),
      [['working', 'msg_1', '/p']],
    );
    assert.deepStrictEqual(d.problems.byKind(), { schema: 2, json: 1 });
  });
});
