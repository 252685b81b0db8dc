import * as assert from 'assert';
import { errorReason } from '../../../src/jsonl/codex';
import { createOpenCodeDecoder, decoderFor, type LogEvent, type MessageRow, type PartRow, type SessionRow } from '../../../src/jsonl';

/**
 * The decoders' rules on small hand-made entries, for the cases the real recordings do not have (background
 * agents, subagents, Esc during a running command, error variants, rows out of order).
 */

function brief(events: LogEvent[]): string[] {
  return events.map((e) => (e.reason ? `${e.state}(${e.reason})` : e.state));
}

describe('Claude transcript rules', () => {
  let clock = 0;
  const at = () => new Date(Date.UTC(2026, 11, 2, 10, 0, clock++)).toISOString();
  const base = (extra: object) => JSON.stringify({ sessionId: 's1', cwd: '/p', isSidechain: false, timestamp: at(), ...extra });
  const prompt = (uuid: string, kind = 'human') =>
    base({
      type: 'user',
      uuid,
      message: { role: 'user', content: kind === 'human' ? 'do it' : '<task-notification>done</task-notification>' },
      origin: { kind },
      promptSource: kind === 'human' ? 'typed' : 'system',
    });
  const toolUse = (id: string, name: string) =>
    base({
      type: 'assistant',
      uuid: `a-${id}`,
      message: { role: 'assistant', stop_reason: 'tool_use', content: [{ type: 'tool_use', id, name, input: {} }] },
    });
  const toolResult = (id: string, extra: object = {}) =>
    base({
      type: 'user',
      uuid: `r-${id}`,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'x', is_error: 'toolDenialKind' in extra }] },
      ...extra,
    });
  const endTurn = () =>
    base({
      type: 'assistant',
      uuid: 'e',
      message: { role: 'assistant', stop_reason: 'end_turn', content: [{ type: 'text', text: 'ok' }] },
    });
  const duration = (extra: object = {}) => base({ type: 'system', subtype: 'turn_duration', uuid: 'd', durationMs: 900, ...extra });
  const interrupted = (forTool: boolean) =>
    base({
      type: 'user',
      uuid: 'i',
      message: { role: 'user', content: [{ type: 'text', text: `[Request interrupted by user${forTool ? ' for tool use' : ''}]` }] },
    });
  const run = (lines: string[]) => {
    const d = decoderFor('claude-code');
    const events = lines.flatMap((l) => d.line(l));
    assert.strictEqual(d.problems.total, 0, JSON.stringify(d.problems.byKind()));
    return events;
  };

  it('a prompt starts a turn named by its uuid; turn_duration completes it', () => {
    const events = run([prompt('p1'), endTurn(), base({ type: 'system', subtype: 'stop_hook_summary', uuid: 'h' }), duration()]);
    assert.deepStrictEqual(brief(events), ['working', 'completed']);
    assert.deepStrictEqual(
      events.map((e) => e.turn),
      ['p1', 'p1'],
    );
    assert.strictEqual(events[1].evidence, 'claude.turn-duration: "durationMs 900"');
  });

  it('background agents keep the session working until the task-notification turn ends', () => {
    const events = run([
      prompt('p1'),
      endTurn(),
      duration({ pendingBackgroundAgentCount: 1 }),
      prompt('p2', 'task-notification'),
      endTurn(),
      duration(),
    ]);
    assert.deepStrictEqual(brief(events), ['working', 'working', 'working', 'completed']);
    assert.match(events[1].evidence, /pendingBackgroundAgentCount 1/);
    assert.strictEqual(events[3].turn, 'p2');
  });

  it('ignores subagent (sidechain) entries', () => {
    const side = (l: string) => JSON.stringify({ ...JSON.parse(l), isSidechain: true });
    assert.deepStrictEqual(run([side(prompt('p1')), side(toolResult('t1')), side(duration())]), []);
  });

  it('a rejected permission is one failure, even with the interruption line after it', () => {
    const events = run([
      prompt('p1'),
      toolUse('t1', 'Bash'),
      toolResult('t1', { toolDenialKind: 'user-rejected', toolDenialBeforeRun: true }),
      interrupted(true),
    ]);
    assert.deepStrictEqual(brief(events), ['working', 'failed(permission rejected)']);
  });

  it('Esc while a command runs is an interruption; a dismissed question says so', () => {
    const esc = run([prompt('p1'), toolUse('t1', 'Bash'), toolResult('t1', { toolDenialKind: 'user-rejected' }), interrupted(true)]);
    assert.deepStrictEqual(brief(esc), ['working', 'failed(interrupted)']);
    const q = run([
      prompt('p1'),
      toolUse('t2', 'AskUserQuestion'),
      toolResult('t2', { toolDenialKind: 'user-rejected', toolDenialBeforeRun: true }),
    ]);
    assert.deepStrictEqual(brief(q), ['working', 'failed(question dismissed)']);
  });

  it('a tool result (approved or failed command) keeps the turn working', () => {
    const events = run([prompt('p1'), toolUse('t1', 'Bash'), toolResult('t1'), endTurn(), duration()]);
    assert.deepStrictEqual(brief(events), ['working', 'working', 'completed']);
  });

  it('API errors fail the turn with their status', () => {
    const apiError = (extra: object) =>
      base({
        type: 'assistant',
        uuid: 'x',
        message: {
          role: 'assistant',
          model: '<synthetic>',
          stop_reason: 'stop_sequence',
          content: [{ type: 'text', text: 'API Error: 500' }],
        },
        isApiErrorMessage: true,
        ...extra,
      });
    assert.deepStrictEqual(brief(run([prompt('p1'), apiError({ apiErrorStatus: 500, apiErrorType: 'api_error' })])), [
      'working',
      'failed(API error 500)',
    ]);
    assert.deepStrictEqual(brief(run([prompt('p1'), apiError({})])), ['working', 'failed(API error)']);
  });

  it('meta entries, compaction summaries and local command echoes do not start turns', () => {
    const meta = base({ type: 'user', uuid: 'm', isMeta: true, message: { role: 'user', content: '<local-command-caveat>' } });
    const summary = base({ type: 'user', uuid: 'c', isCompactSummary: true, message: { role: 'user', content: 'summary' } });
    const echo = base({ type: 'user', uuid: 'l', message: { role: 'user', content: '<command-name>/model</command-name>' } });
    assert.deepStrictEqual(run([meta, summary, echo]), []);
  });

  it('a new prompt after a failure starts a fresh turn that can complete', () => {
    const events = run([prompt('p1'), interrupted(false), prompt('p2'), endTurn(), duration()]);
    assert.deepStrictEqual(brief(events), ['working', 'failed(interrupted)', 'working', 'completed']);
  });
});

describe('Codex rollout rules', () => {
  it('names failed turns from codex_error_info', () => {
    assert.strictEqual(errorReason('internal_server_error'), 'server error');
    assert.strictEqual(errorReason({ response_too_many_failed_attempts: { http_status_code: 429 } }), 'API error 429');
    assert.strictEqual(errorReason('context_window_exceeded'), 'context window exceeded');
    assert.strictEqual(errorReason({ response_stream_disconnected: {} }), 'response stream disconnected');
    assert.strictEqual(errorReason(undefined), 'error');
    assert.strictEqual(errorReason('other'), 'error');
  });

  it('maps task_complete with an error, and turn_aborted, to failures', () => {
    const d = decoderFor('codex');
    const line = (type: string, payload: object) => JSON.stringify({ timestamp: '2026-12-02T10:00:00.000Z', ordinal: 0, type, payload });
    const events = [
      line('session_meta', { id: 'c1', cwd: '/p' }),
      line('event_msg', { type: 'task_started', turn_id: 't1' }),
      line('event_msg', {
        type: 'task_complete',
        turn_id: 't1',
        last_agent_message: null,
        error: { message: 'We are busy', codex_error_info: 'internal_server_error' },
      }),
      line('event_msg', { type: 'item_completed', turn_id: 't2', item: { type: 'UserMessage', content: [] } }),
      line('event_msg', { type: 'item_completed', turn_id: 't2', item: { type: 'AgentMessage' } }),
      line('event_msg', { type: 'turn_aborted', turn_id: 't2', reason: 'interrupted' }),
    ].flatMap((l) => d.line(l));
    assert.deepStrictEqual(brief(events), ['working', 'failed(server error)', 'working', 'failed(interrupted)']);
    assert.strictEqual(events[1].evidence, 'codex.task_complete: "We are busy"');
    assert.strictEqual(d.problems.total, 0);
  });
});

describe('OpenCode row rules', () => {
  const session = (id: string, parent: string | null = null): SessionRow => ({
    id,
    directory: '/p',
    parent_id: parent,
    time_created: 1,
    time_updated: 1,
  });
  const message = (id: string, data: object, sid = 'ses_1'): MessageRow => ({
    id,
    session_id: sid,
    time_created: 1,
    time_updated: 1,
    data: data as MessageRow['data'],
  });
  const tool = (id: string, msg: string, status: string, error?: string): PartRow => ({
    id,
    message_id: msg,
    session_id: 'ses_1',
    time_created: 1,
    time_updated: 1,
    data: { type: 'tool', tool: 'bash', callID: 'c', state: { status, error } },
  });
  const user = (id: string, created: number) => message(id, { role: 'user', time: { created } });
  const assistant = (id: string, created: number, extra: object = {}) =>
    message(id, { role: 'assistant', parentID: 'msg_u1', time: { created }, ...extra });
  const none = { session: [], message: [], part: [] };

  it('emits only when the derived state changes, and again for a new turn', () => {
    const d = createOpenCodeDecoder();
    const out = [
      d.rows({ ...none, session: [session('ses_1')], message: [user('msg_u1', 10)] }),
      d.rows({ ...none, message: [assistant('msg_a1', 11)] }),
      d.rows({ ...none, message: [assistant('msg_a1', 11, { time: { created: 11, completed: 12 }, finish: 'tool-calls' })] }),
      d.rows({ ...none, message: [assistant('msg_a2', 13, { time: { created: 13, completed: 14 }, finish: 'stop' })] }),
      d.rows({ ...none, message: [user('msg_u2', 20)] }),
    ].map(brief);
    assert.deepStrictEqual(out, [['working'], [], [], ['completed'], ['working']]);
  });

  it('holds messages until the session row says it is not a subagent session', () => {
    const d = createOpenCodeDecoder();
    assert.deepStrictEqual(d.rows({ ...none, message: [user('msg_u1', 10)] }), []);
    const events = d.rows({ ...none, session: [session('ses_1')] });
    assert.deepStrictEqual(
      events.map((e) => [e.state, e.turn, e.at, e.cwd]),
      [['working', 'msg_u1', 10, '/p']],
    );
    const sub = createOpenCodeDecoder();
    assert.deepStrictEqual(
      sub.rows({
        session: [session('ses_2', 'ses_1')],
        message: [message('msg_x', { role: 'user', time: { created: 1 } }, 'ses_2')],
        part: [],
      }),
      [],
    );
  });

  it('a rejected tool part decides a finished tool step, in either arrival order', () => {
    const done = assistant('msg_a1', 11, { time: { created: 11, completed: 30 }, finish: 'tool-calls' });
    const rejected = tool('prt_1', 'msg_a1', 'error', 'The user rejected permission to use this specific tool call.');
    const a = createOpenCodeDecoder();
    a.rows({ ...none, session: [session('ses_1')], message: [user('msg_u1', 10)] });
    assert.deepStrictEqual(brief(a.rows({ ...none, part: [rejected] })), []);
    assert.deepStrictEqual(brief(a.rows({ ...none, message: [done] })), ['failed(permission rejected)']);
    const b = createOpenCodeDecoder();
    b.rows({ session: [session('ses_1')], message: [user('msg_u1', 10), done], part: [] });
    const late = b.rows({ ...none, part: [tool('prt_2', 'msg_a1', 'error', 'The user dismissed this question')] });
    assert.deepStrictEqual(
      late.map((e) => [e.state, e.reason, e.at]),
      [['failed', 'question dismissed', 30]],
    );
  });

  it('keeps tool errors of a bounded number of messages: floods of errors for other messages do not hide a refusal', () => {
    const d = createOpenCodeDecoder();
    d.rows({ ...none, session: [session('ses_1')], message: [user('msg_u1', 10)] });
    const flood = Array.from({ length: 2000 }, (_, i) => tool(`prt_z${i}`, `msg_z${i}`, 'error', 'failed'));
    const many = Array.from({ length: 2000 }, (_, i) => tool(`prt_y${i}`, 'msg_a1', 'error', 'failed'));
    d.rows({
      ...none,
      part: [...flood, ...many, tool('prt_r', 'msg_a1', 'error', 'The user rejected permission to use this specific tool call.')],
    });
    const done = assistant('msg_a1', 11, { time: { created: 11, completed: 30 }, finish: 'tool-calls' });
    assert.deepStrictEqual(brief(d.rows({ ...none, message: [done] })), ['failed(permission rejected)']);
  });

  it('names message errors', () => {
    const d = createOpenCodeDecoder();
    const err = (name: string, data: object) =>
      assistant(`msg_${name}`, 11, { time: { created: 11, completed: 12 }, error: { name, data } });
    d.rows({ ...none, session: [session('ses_1')] });
    assert.deepStrictEqual(brief(d.rows({ ...none, message: [err('APIError', { message: 'overloaded', statusCode: 529 })] })), [
      'failed(API error 529)',
    ]);
    const e = createOpenCodeDecoder();
    e.rows({ ...none, session: [session('ses_1')] });
    assert.deepStrictEqual(brief(e.rows({ ...none, message: [err('MessageAbortedError', { message: 'Aborted' })] })), [
      'failed(interrupted)',
    ]);
  });

  it('an update of an older message does not go back in time', () => {
    const d = createOpenCodeDecoder();
    d.rows({
      session: [session('ses_1')],
      message: [user('msg_u1', 10), assistant('msg_a2', 13, { time: { created: 13, completed: 14 }, finish: 'stop' })],
      part: [],
    });
    assert.deepStrictEqual(d.rows({ ...none, message: [assistant('msg_a1', 11)] }), []);
  });
});
