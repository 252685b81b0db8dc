import * as assert from 'assert';
import { decoderFor, type LogEvent } from '../../../src/jsonl';
import { errorReason } from '../../../src/jsonl/gemini';
import { TurnEnds } from '../../../src/sources/logs/turnEnds';

/**
 * Gemini CLI chat-log rules on small hand-made lines, shaped as 0.61.0 writes them (test/fixtures/live/gemini),
 * for the cases the recordings do not have: notes and errors outside a turn, a rewritten history, subagent logs,
 * Esc while a tool runs, broken lines.
 */

function brief(events: LogEvent[]): string[] {
  return events.map((e) => `${e.state}${e.reason ? `(${e.reason})` : ''}${e.ifTurnEnded ? '?' : ''}`);
}

describe('Gemini chat-log rules', () => {
  let clock = 0;
  const at = () => new Date(Date.UTC(2026, 11, 5, 10, 0, clock++)).toISOString();
  const meta = (kind = 'main') => JSON.stringify({ sessionId: 'g1', projectHash: 'h', startTime: at(), lastUpdated: at(), kind });
  const msg = (type: string, extra: object) => JSON.stringify({ id: `m${clock}`, timestamp: at(), type, ...extra });
  const prompt = (text = 'do it') => msg('user', { content: [{ text }] });
  const reply = (toolCalls?: object[]) =>
    msg('gemini', { content: 'ok', tokens: { input: 1 }, model: 'm', ...(toolCalls ? { toolCalls } : {}) });
  const call = (status: string, error?: string) => ({
    id: 'c1',
    name: 'run_shell_command',
    status,
    result: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: error ? { error } : { output: 'x' } } }],
  });
  const toolResult = () => msg('user', { content: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: {} } }] });
  const set = (o: object) => JSON.stringify({ $set: o });
  const run = (lines: string[]) => {
    const d = decoderFor('gemini');
    const events = lines.flatMap((l) => d.line(l));
    assert.strictEqual(d.problems.total, 0, JSON.stringify(d.problems.byKind()));
    return events;
  };

  it('a prompt starts a turn; every reply is only a possible end, held for the turn-end hook', () => {
    const events = run([meta(), set({ lastUpdated: at() }), prompt(), reply(), reply([call('success')]), toolResult(), reply()]);
    assert.deepStrictEqual(brief(events), ['working', 'completed?', 'completed?', 'working', 'completed?']);
    assert.ok(events.every((e) => e.sessionId === 'g1' && e.turn === events[0].turn));
    assert.strictEqual(events[0].prompt, true);
    assert.strictEqual(events[3].prompt, undefined, 'a tool result is no prompt');
  });

  it('Esc: "Request cancelled." fails the turn as interrupted; a denied tool call makes it "permission rejected"', () => {
    const cancel = () => msg('info', { content: 'Request cancelled.' });
    assert.deepStrictEqual(brief(run([meta(), prompt(), cancel()])), ['working', 'failed(interrupted)']);
    // Esc while the approved command runs: cancelled, but not denied.
    assert.deepStrictEqual(brief(run([meta(), prompt(), reply(), reply([call('cancelled', 'aborted')]), cancel()])), [
      'working',
      'completed?',
      'completed?',
      'failed(interrupted)',
    ]);
    const denied = call('cancelled', '[Operation Cancelled] Reason: User denied execution.');
    assert.deepStrictEqual(brief(run([meta(), prompt(), reply(), reply([denied]), cancel()])).slice(-1), ['failed(permission rejected)']);
  });

  it('an API error fails the turn once; the note after it and notes or errors outside a turn say nothing', () => {
    const events = run([
      meta(),
      msg('error', { content: 'Unknown command: /frobnicate' }),
      prompt(),
      msg('error', { content: '[API Error: {"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}]' }),
      msg('info', { content: 'This request failed. Press F12 for diagnostics.' }),
      msg('error', { content: 'a second error' }),
      msg('info', { content: 'Request cancelled.' }),
    ]);
    assert.deepStrictEqual(brief(events), ['working', 'failed(API error 429)']);
    assert.match(events[1].evidence, /^gemini\.error: "\[API Error/);
  });

  it('the system context Gemini re-sends as a user message (at start, after a denial) starts no turn', () => {
    const context = msg('user', { content: [{ text: '<session_context>\nThis is the Gemini CLI.' }, { text: 'do it' }] });
    assert.deepStrictEqual(brief(run([meta(), context])), []);
    assert.deepStrictEqual(brief(run([meta(), prompt(), msg('info', { content: 'Request cancelled.' }), context])), [
      'working',
      'failed(interrupted)',
    ]);
  });

  it('a subagent’s own log says nothing of the session’s turns', () => {
    assert.deepStrictEqual(brief(run([meta('subagent'), prompt(), reply()])), []);
  });

  it('broken, truncated and foreign lines are counted, never thrown; big $set lines are skipped unparsed', () => {
    const d = decoderFor('gemini');
    const events = [
      meta(),
      '{"id":"x","timestamp":"2026-12-05T10:00:00Z","type":"user","content":[{"text":"half',
      '{"type":"user","content":"no timestamp"}',
      '{"id":"y","timestamp":"not a date","type":"user","content":[{"text":"p"}]}',
      '[1,2]',
      '',
      `{"$set":{"messages":[${'{"type":"user"},'.repeat(1000)}{}]}}`,
      prompt(),
    ].flatMap((l) => d.line(l));
    assert.deepStrictEqual(brief(events), ['working']);
    assert.deepStrictEqual(d.problems.byKind(), { json: 2, schema: 1, timestamp: 1, empty: 1 });
    assert.deepStrictEqual(brief(decoderFor('gemini').line(prompt())), [], 'no session line yet: counted, nothing said');
  });

  it('errorReason: the HTTP code where the error names one', () => {
    assert.strictEqual(errorReason('[API Error: {"error":{"code":400,"message":"API key not valid."}}]'), 'API error 400');
    assert.strictEqual(errorReason('[API Error: fetch failed]'), 'API error');
    assert.strictEqual(errorReason('Something else broke'), 'error');
  });
});

describe('TurnEnds: replies held until the agent says the turn ended', () => {
  const ev = (state: LogEvent['state'], extra: Partial<LogEvent> = {}): LogEvent => ({
    agent: 'gemini',
    sessionId: 's',
    at: 1,
    state,
    evidence: 'e',
    ...extra,
  });

  it('tells other events at once, holds the newest reply per session, releases it once without the flag', () => {
    const t = new TurnEnds();
    assert.deepStrictEqual(t.offer(ev('working')), ev('working'));
    assert.strictEqual(t.offer(ev('completed', { ifTurnEnded: true, at: 2 }), 'f1'), undefined);
    assert.strictEqual(t.offer(ev('completed', { ifTurnEnded: true, at: 3 }), 'f1'), undefined);
    assert.strictEqual(t.release('gemini', 'other'), undefined, 'another session holds nothing');
    assert.deepStrictEqual(t.release('gemini', 's'), { event: ev('completed', { at: 3 }), file: 'f1' });
    assert.strictEqual(t.release('gemini', 's'), undefined, 'released once');
  });

  it('any later record of the session drops the held reply: a tool result, a cancel, a new prompt', () => {
    const t = new TurnEnds();
    t.offer(ev('completed', { ifTurnEnded: true }));
    t.offer(ev('working'));
    assert.strictEqual(t.release('gemini', 's'), undefined);
    t.offer(ev('completed', { ifTurnEnded: true }));
    t.offer(ev('failed', { reason: 'interrupted' }));
    assert.strictEqual(t.release('gemini', 's'), undefined);
  });

  it('holds a bounded number of sessions, forgetting the oldest', () => {
    const t = new TurnEnds();
    for (let i = 0; i < 300; i++) t.offer(ev('completed', { ifTurnEnded: true, sessionId: `s${i}` }));
    assert.strictEqual(t.release('gemini', 's0'), undefined);
    assert.ok(t.release('gemini', 's299'));
  });
});
