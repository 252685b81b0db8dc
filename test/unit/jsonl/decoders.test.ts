import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { CLAUDE_NEEDLES } from '../../../src/jsonl/claude';
import { CODEX_NEEDLES } from '../../../src/jsonl/codex';
import { GEMINI_NEEDLES } from '../../../src/jsonl/gemini';
import { QWEN_NEEDLES } from '../../../src/jsonl/qwen';
import { DROID_NEEDLES } from '../../../src/jsonl/droid';
import { COPILOT_NEEDLES } from '../../../src/jsonl/copilot';
import { mustParse } from '../../../src/jsonl/common';
import { createOpenCodeDecoder, decoderFor, type LogEvent, type OpenCodeRows } from '../../../src/jsonl';
import { FIXTURES, ROOT } from '../helpers';
import { decodeLogFile } from '../../../src/replay/logFiles';
import { inOpenCodeFamily, type OpenCodeFamily } from '../../../src/agents/opencode/family';
import { EXPECTED } from './decoderExpectations';

/**
 * The session-log decoders against the logs the real CLIs wrote: hand-labelled recordings (../shared/recordings,
 * which keeps the logs the copies in test/fixtures/recordings leave out) and the harness's live fixtures.
 */

type Agent = 'claude-code' | 'codex' | 'gemini' | 'qwen' | 'droid' | 'copilot' | OpenCodeFamily;
type Origin = 'shared' | 'live';

const SHARED = process.env.AGENT_LENS_SHARED_RECORDINGS ?? path.join(ROOT, '..', 'shared', 'recordings');
const ROOTS: Record<Origin, string> = { shared: SHARED, live: path.join(FIXTURES, 'live') };
const LOG_FILE: Record<Agent, string> = {
  'claude-code': 'transcript.jsonl',
  codex: 'rollout.jsonl',
  gemini: 'gemini-session.jsonl',
  qwen: 'qwen-session.jsonl',
  droid: 'droid-session.jsonl',
  copilot: 'copilot-events.jsonl',
  opencode: 'storage.json',
  kilocode: 'kilo-storage.json',
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

/** The Copilot records its decoder reads (FACTS.md §10), named here apart from the decoder's needles. */
const COPILOT_RECORDS = [
  'session.start',
  'user.message',
  'assistant.message',
  'assistant.turn_end',
  'tool.execution_complete',
  'permission.requested',
  'permission.completed',
  'abort',
  'session.error',
];

function lines(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
}

const rowsOf = (f: LogFixture): f is LogFixture & { agent: OpenCodeFamily } => inOpenCodeFamily(f.agent);

function decodeFile(f: LogFixture): { events: LogEvent[]; problems: number } {
  if (inOpenCodeFamily(f.agent)) {
    const d = createOpenCodeDecoder(undefined, f.agent);
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
function oneByOne(rows: OpenCodeRows, key: 'time_updated' | 'time_created', agent: OpenCodeFamily): LogEvent[] {
  const tagged = [
    ...rows.session.map((r) => ({ t: r[key], n: 0, id: r.id, feed: { session: [r], message: [], part: [] } })),
    ...rows.message.map((r) => ({ t: r[key], n: 1, id: r.id, feed: { session: [], message: [r], part: [] } })),
    ...rows.part.map((r) => ({ t: r[key], n: 2, id: r.id, feed: { session: [], message: [], part: [r] } })),
  ].sort((a, b) => a.t - b.t || a.n - b.n || (a.id < b.id ? -1 : 1));
  const d = createOpenCodeDecoder(undefined, agent);
  const events = tagged.flatMap((x) => d.rows(x.feed));
  assert.strictEqual(d.problems.total, 0, JSON.stringify(d.problems.byKind()));
  return events;
}

/** Turns whose last event is a completed one (Gemini, Qwen Code: held replies), by the turn's id. */
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

  it('finds the live fixtures of every agent with logs', () => {
    for (const a of ['claude-code', 'codex', 'gemini', 'qwen', 'droid', 'copilot', 'opencode', 'kilocode'])
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
          events.every((e) => e.state !== 'failed' || e.ifTurnEnded),
          `unexpected failure: ${JSON.stringify(events)}`,
        );
      // Gemini and Qwen Code offer every reply as a possible end: count the turns that end on one.
      const holds = f.agent === 'gemini' || f.agent === 'qwen';
      const completed = holds ? completedTurns(events) : events.filter((e) => e.state === 'completed').length;
      assert.strictEqual(last.ifTurnEnded === true, want.held === true, 'held for the turn-end hook only where the log has no end record');
      if (!holds)
        assert.ok(
          events.every((e) => !e.ifTurnEnded),
          'only Gemini and Qwen Code hold records',
        );
      if (!rowsOf(f)) assert.ok(completed >= (want.completed ?? (want.final === 'completed' ? 1 : 0)), `${completed} completed`);
      assert.strictEqual(events[0].state, rowsOf(f) ? last.state : 'working', 'a session log starts with a prompt');
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
    for (const f of fixtures.filter((x) => !rowsOf(x))) {
      for (const l of lines(f.file)) {
        const needles: readonly string[] = {
          'claude-code': CLAUDE_NEEDLES,
          gemini: GEMINI_NEEDLES,
          qwen: QWEN_NEEDLES,
          droid: DROID_NEEDLES,
          copilot: COPILOT_NEEDLES,
          codex: CODEX_NEEDLES,
          opencode: [],
          kilocode: [],
        }[f.agent];
        if (mustParse(l, needles)) continue;
        const e = JSON.parse(l) as { type: string; subtype?: string; payload?: { type?: string }; projectHash?: string };
        const relevant =
          f.agent === 'claude-code'
            ? e.type === 'user' || e.type === 'assistant' || (e.type === 'system' && e.subtype === 'turn_duration')
            : f.agent === 'gemini'
              ? e.projectHash !== undefined || ['user', 'gemini', 'info', 'error'].includes(e.type)
              : f.agent === 'qwen'
                ? ['user', 'assistant', 'tool_result'].includes(e.type) || l.includes('"qwen-code.api_error"')
                : f.agent === 'droid'
                  ? ['session_start', 'message', 'agent_turn_outcome'].includes(e.type)
                  : f.agent === 'copilot'
                    ? COPILOT_RECORDS.includes(e.type)
                    : e.type === 'session_meta' ||
                      (e.type === 'event_msg' &&
                        ['task_started', 'task_complete', 'turn_aborted', 'item_completed'].includes(e.payload?.type ?? ''));
        // item_completed matters only for a UserMessage, which carries the needle.
        assert.ok(!relevant || e.payload?.type === 'item_completed', `${f.key}: a relevant line was skipped: ${l.slice(0, 120)}`);
      }
    }
  });

  describe('OpenCode (and Kilo) rows arriving incrementally', () => {
    for (const f of fixtures.filter(rowsOf)) {
      it(`${f.key}: all at once and one row at a time end the same`, () => {
        const rows = readRows(f.file);
        const all = createOpenCodeDecoder(undefined, f.agent).rows(rows);
        assert.strictEqual(describeEnd(oneByOne(rows, 'time_updated', f.agent)), describeEnd(all));
        const inserted = oneByOne(rows, 'time_created', f.agent);
        assert.strictEqual(describeEnd(inserted), describeEnd(all));
        const want = EXPECTED[f.key];
        const completed = inserted.filter((e) => e.state === 'completed').length;
        assert.ok(completed >= (want?.completed ?? 0), `${completed} completed turns in insertion order`);
      });
    }

    it('replay --log: a rows dump is Kilo’s when its db is kilo.db, else OpenCode’s', () => {
      for (const key of ['live/kilocode/05-permission-reject', 'live/opencode/05-permission-reject']) {
        const f = fixtures.find((x) => x.key === key)!;
        const d = decodeLogFile(f.file, fs.readFileSync(f.file, 'utf8'));
        assert.deepStrictEqual([...new Set(d.events.map((e) => e.agent))], [f.agent], key);
        assert.strictEqual(describeEnd(d.events), 'failed (permission rejected)', key);
      }
    });

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

  it('Copilot: a log followed from its middle takes its session from its folder; broken lines are counted', () => {
    const rec = (type: string, data: Record<string, unknown>) => JSON.stringify({ type, data, id: 'x', timestamp: ts, parentId: null });
    const file = path.join('/h', '.copilot', 'session-state', 'c0ffee', 'events.jsonl');
    const d = decoderFor('copilot', undefined, file);
    const lines = [
      rec('user.message', { content: 'hi', interactionId: 'i1' }),
      rec('assistant.message', { content: 'ok', toolRequests: [] }),
      '{"type":"assistant.turn_end",',
      rec('assistant.turn_end', { turnId: '0' }),
      rec('abort', { reason: 'user_abort' }),
    ];
    assert.deepStrictEqual(
      lines.flatMap((l) => d.line(l)).map((e) => [e.state, e.sessionId, e.turn]),
      [
        ['working', 'c0ffee', 'i1'],
        ['completed', 'c0ffee', 'i1'],
      ],
      'the turn ended once: a later abort does not end it again',
    );
    assert.deepStrictEqual(d.problems.byKind(), { json: 1 });
    // A copy elsewhere (a recording) names no session until its session.start.
    const copy = decoderFor('copilot', undefined, '/tmp/copilot-events.jsonl');
    assert.deepStrictEqual(copy.line(lines[0]), []);
    copy.line(rec('session.start', { sessionId: 's1', context: { cwd: '/p' } }));
    assert.deepStrictEqual(
      copy.line(lines[0]).map((e) => [e.sessionId, e.cwd]),
      [['s1', '/p']],
    );
  });

  it('Copilot: a dialog refused by Esc fails the turn as a rejection, whether its abort is written before or after its completion', () => {
    const rec = (type: string, data: Record<string, unknown>) => JSON.stringify({ type, data, id: 'x', timestamp: ts, parentId: null });
    const file = path.join('/h', '.copilot', 'session-state', 'c0ffee', 'events.jsonl');
    const asked = rec('permission.requested', { requestId: 'r1', permissionRequest: { kind: 'shell' } });
    const done = rec('permission.completed', { requestId: 'r1', result: { kind: 'cancelled', reason: 'Session aborted' } });
    const head = [rec('user.message', { content: 'clean', interactionId: 'i1' }), rec('assistant.message', { toolRequests: [{}] }), asked];
    const tail = [rec('assistant.turn_end', { turnId: '0' }), rec('abort', { reason: 'user_initiated' })];
    const endOf = (ls: string[]) => {
      const d = decoderFor('copilot', undefined, file);
      return ls
        .flatMap((l) => d.line(l))
        .map((e) => `${e.state}${e.reason ? `(${e.reason})` : ''}`)
        .pop();
    };
    assert.strictEqual(endOf([...head, done, ...tail]), 'failed(permission rejected)', 'completed, then the abort');
    assert.strictEqual(endOf([...head, ...tail, done]), 'failed(permission rejected)', 'the abort before the completion');
    const approved = rec('permission.completed', { requestId: 'r1', result: { kind: 'approved' } });
    assert.strictEqual(endOf([...head, approved, ...tail]), 'failed(interrupted)', 'Esc Esc after an approval is an interruption');
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
