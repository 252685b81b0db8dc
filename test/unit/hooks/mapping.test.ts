import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { castStartMs, recordingHooks } from '../../../harness/recordingLogs';
import { lastQuestion } from '../../../src/detect/question';
import { HookMapper, markerAction } from '../../../src/hooks/mapping/mapReport';
import type { ReportingAgent } from '../../../src/hooks/wire';
import { parseCast } from '../../../src/formats/cast';
import { ROOT } from '../helpers';

const RECORDINGS = path.join(ROOT, 'test/fixtures/recordings');

/** `agent/scenario` is a stored recording; `live/agent/scenario` one the harness made (test/fixtures/live). */
function where(key: string): { agent: string; dir: string } {
  const parts = key.split('/');
  if (parts[0] !== 'live') return { agent: parts[0], dir: path.join(RECORDINGS, parts[0], parts[1]) };
  return { agent: parts[1], dir: path.join(ROOT, 'test/fixtures/live', parts[1], parts[2]) };
}

/**
 * What each stored recording's hooks say, read from the recording's FACTS.md and screen (not from this code):
 * event → state[/wait kind][/reason]. Unmapped events (SessionStart, MessageDisplay, PreModelRequest, bus
 * noise) say nothing; Claude's Notification permission_prompt repeats a dialog PermissionRequest already
 * reported; a Claude denial or interrupt says nothing at all (FACTS §4).
 */
const EXPECTED: Record<string, string[]> = {
  'claude-code/01-idle-start': [],
  'claude-code/02-plain-text': ['UserPromptSubmit→working', 'Stop→completed'],
  'claude-code/04-bash-permission-approve': [
    'UserPromptSubmit→working',
    'PermissionRequest→waiting/permission',
    'PostToolUse→working',
    'Stop→completed',
  ],
  'claude-code/08-esc-interrupt': ['UserPromptSubmit→working'],
  'claude-code/10-multiturn-write-exit': [
    'UserPromptSubmit→working',
    'PermissionRequest→waiting/permission',
    'PostToolUse→working',
    'Stop→completed',
    'UserPromptSubmit→working',
    'PermissionRequest→waiting/permission',
    'PostToolUse→working',
    'Stop→completed',
    'SessionEnd→exited',
  ],
  'codex/01-idle-start': [],
  'codex/02-plain-answer': ['UserPromptSubmit→working', 'Stop→completed'],
  'codex/04-approval-approve': [
    'UserPromptSubmit→working',
    'PermissionRequest→waiting/permission',
    'PostToolUse→working',
    'Stop→completed',
  ],
  'codex/07-interrupt-esc': ['UserPromptSubmit→working', 'Interrupt→failed/interrupted'],
  'codex/09-multi-step-quit': ['UserPromptSubmit→working', 'PostToolUse→working', 'PostToolUse→working', 'Stop→completed'],
  'gemini/01-idle-start': [],
  'gemini/04-shell-approve': ['BeforeAgent→working', 'Notification→waiting/permission', 'AfterTool→working'],
  'gemini/07-esc-interrupt': ['BeforeAgent→working'],
  // Copilot CLI (PascalCase hook names): the dialog is Notification's; Stop only after a completed turn; an Esc, a
  // denial and an API error fire nothing mapped (ErrorOccurred fires for every attempt, retried ones too).
  'live/copilot/01-idle-start': [],
  'live/copilot/02-plain-answer': ['UserPromptSubmit→working', 'Stop→completed'],
  'live/copilot/04-shell-approve': ['UserPromptSubmit→working', 'Notification→waiting/permission', 'PostToolUse→working', 'Stop→completed'],
  'live/copilot/05-shell-deny': ['UserPromptSubmit→working', 'Notification→waiting/permission'],
  'live/copilot/06-tool-runs': ['UserPromptSubmit→working', 'PostToolUse→working', 'Stop→completed'],
  'live/copilot/07-esc-interrupt': ['UserPromptSubmit→working'],
  'live/copilot/08-server-error-500': ['UserPromptSubmit→working'],
  'live/copilot/09-multistep-quit': [
    ...['UserPromptSubmit→working', 'Notification→waiting/permission', 'PostToolUse→working', 'Stop→completed'],
    ...['UserPromptSubmit→working', 'Notification→waiting/permission', 'PostToolUse→working', 'Stop→completed'],
    'SessionEnd→exited',
  ],
  'live/copilot/16-api-error-400': ['UserPromptSubmit→working'],
  // Qwen Code: a tool's result goes back with an UserPromptSubmit of its own (no new turn); a denial and an Esc fire nothing.
  'live/qwen/01-idle-start': [],
  'live/qwen/02-plain-answer': ['UserPromptSubmit→working', 'Stop→completed'],
  'live/qwen/04-shell-approve': [
    'UserPromptSubmit→working',
    'PermissionRequest→waiting/permission',
    'PostToolUse→working',
    'UserPromptSubmit→working',
    'Stop→completed',
  ],
  'live/qwen/05-shell-deny': ['UserPromptSubmit→working', 'PermissionRequest→waiting/permission'],
  'live/qwen/07-esc-interrupt': ['UserPromptSubmit→working'],
  'live/qwen/16-api-error-400': ['UserPromptSubmit→working', 'StopFailure→failed/API error 400'],
  'live/qwen/08-server-error-500': ['UserPromptSubmit→working', 'StopFailure→failed/API error 500'],
  // droid: PreToolUse runs before every tool; Notification permission_prompt just before the dialog; Stop ends every
  // turn alike (completed, denied, failed), so it says nothing itself; an Esc fires idle_prompt and no Stop.
  'live/droid/01-idle-start': [],
  'live/droid/02-plain-answer': ['UserPromptSubmit→working'],
  'live/droid/04-execute-approve': [
    'UserPromptSubmit→working',
    'PreToolUse→working',
    'Notification→waiting/permission',
    'PostToolUse→working',
  ],
  'live/droid/05-execute-deny': ['UserPromptSubmit→working', 'PreToolUse→working', 'Notification→waiting/permission'],
  'live/droid/06-tool-runs': ['UserPromptSubmit→working', 'PreToolUse→working', 'PostToolUse→working'],
  'live/droid/07-esc-interrupt': ['UserPromptSubmit→working', 'Notification→failed/interrupted'],
  'live/droid/08-server-error-500': ['UserPromptSubmit→working'],
  'live/droid/09-multistep-quit': [
    ...Array(2).fill(['UserPromptSubmit→working', 'PreToolUse→working', 'Notification→waiting/permission', 'PostToolUse→working']).flat(),
    'SessionEnd→exited',
    'SessionEnd→exited',
  ],
  'opencode/01-idle': [],
  'opencode/02-plain-answer': ['session.status→working', 'session.status→working', 'session.status→working', 'session.status→completed'],
  'opencode/04-permission-approve': [
    'session.status→working',
    'session.status→working',
    'permission.asked→waiting/permission',
    'permission.replied→working',
    'session.status→working',
    'session.status→working',
    'session.status→working',
    'session.status→completed',
  ],
  'opencode/07-interrupt-esc': ['session.status→working', 'session.status→working', 'session.error→failed/interrupted'],
  'opencode/09-multistep-quit': [
    ...Array(6).fill('session.status→working'),
    'permission.asked→waiting/permission',
    'permission.replied→working',
    ...Array(3).fill('session.status→working'),
    'session.status→completed',
  ],
};

interface Interval {
  t_from: number;
  t_to: number;
  state: string;
}

function mapped(agent: string, dir: string) {
  const m = new HookMapper();
  return recordingHooks(dir, agent).map((h) => ({
    h,
    r: m.map({ v: 1, agent: agent as ReportingAgent, at: h.at_ms, payload: h.payload }),
  }));
}

describe('hook mapping against every stored recording’s hook payloads', () => {
  for (const [key, want] of Object.entries(EXPECTED)) {
    const { agent, dir } = where(key);
    it(`${key}: ${want.length ? want.filter((w, i) => want.indexOf(w) === i).join(', ') : 'nothing to report'}`, () => {
      const got = mapped(agent, dir)
        .filter((x) => x.r.word)
        .map(
          ({ r }) =>
            `${r.event}→${r.word!.state}${r.word!.wait ? `/${r.word!.wait.kind}` : ''}${r.word!.reason ? `/${r.word!.reason}` : ''}`,
        );
      assert.deepStrictEqual(got, want);
    });
  }

  it('each hook wait falls in a waiting interval of the recording’s expected states (within 1.5 s), and each completion at its end', () => {
    let checked = 0;
    for (const key of Object.keys(EXPECTED)) {
      const { agent, dir } = where(key);
      const castFile = path.join(dir, 'session.cast');
      const expectedFile = path.join(dir, 'expected.json');
      if (!fs.existsSync(castFile) || !fs.existsSync(expectedFile)) continue;
      const t0 = castStartMs(dir, parseCast(fs.readFileSync(castFile, 'utf8'), castFile));
      if (t0 === undefined) continue;
      const intervals = JSON.parse(fs.readFileSync(expectedFile, 'utf8')) as Interval[];
      const near = (t: number, ok: (s: string) => boolean) =>
        intervals.some((i) => ok(i.state) && i.t_from - 1.5 <= t && t <= i.t_to + 1.5);
      for (const { h, r } of mapped(agent, dir)) {
        if (!r.word) continue;
        const t = (h.at_ms - t0) / 1000;
        if (r.word.state === 'waiting')
          assert.ok(
            near(t, (s) => s === 'waiting'),
            `${key}: ${r.event} at ${t.toFixed(2)} s is not near a waiting interval`,
          );
        if (r.word.state === 'completed')
          assert.ok(
            near(t, (s) => s === 'idle' || s === 'completed' || s === 'stopped'),
            `${key}: ${r.event} at ${t.toFixed(2)} s is not near the turn's end`,
          );
        checked++;
      }
    }
    assert.ok(checked >= 30, `checked ${checked} timed words`);
  });

  it('a reply that ends with a question asks, after markdown, brackets, quotes and a full-width ？', () => {
    const m = new HookMapper();
    const stop = (text: string) =>
      m.map({ v: 1, agent: 'claude-code', at: 1, payload: { hook_event_name: 'Stop', session_id: 's', last_assistant_message: text } })
        .word;
    for (const text of [
      'Shall I run the tests?',
      'Done.\n\nShall I **commit** it?**',
      'Which one (`a` or `b`?)',
      'Use “this”?”',
      '要我继续吗？',
      'Ready?  \n\n',
    ]) {
      assert.deepStrictEqual(stop(text), { state: 'waiting', wait: { kind: 'reply-question', question: lastQuestion(text) } }, text);
    }
    // A completed turn keeps its reply: routing triggers hand it to the next agent.
    for (const text of ['Done.', 'Is it? Yes, it is.', '', 'What? No.'])
      assert.deepStrictEqual(stop(text), { state: 'completed', reply: text }, text);
    // Bounded: a long run of decoration is examined only at its end.
    assert.strictEqual(stop(`${' *'.repeat(100_000)}x`)?.state, 'completed');
  });

  it('Claude: idle_prompt is ignored; AskUserQuestion is a question with its options; StopFailure fails', () => {
    const m = new HookMapper();
    const map = (p: Record<string, unknown>) => m.map({ v: 1, agent: 'claude-code', at: 1, payload: { session_id: 's', ...p } }).word;
    assert.strictEqual(
      map({ hook_event_name: 'Notification', notification_type: 'idle_prompt', message: 'Claude is waiting for your input' }),
      undefined,
    );
    const q = {
      tool_name: 'AskUserQuestion',
      tool_input: {
        questions: [
          {
            question: 'Which test framework?',
            header: 'Tests',
            options: [
              { label: 'Jest', description: '' },
              { label: 'Vitest', description: '' },
            ],
            multiSelect: false,
          },
        ],
      },
    };
    assert.deepStrictEqual(map({ hook_event_name: 'PreToolUse', ...q }), {
      state: 'waiting',
      wait: { kind: 'question', question: 'Which test framework?', options: ['Jest', 'Vitest'] },
    });
    assert.strictEqual(
      map({ hook_event_name: 'Notification', notification_type: 'permission_prompt' }),
      undefined,
      'a reminder of the open dialog',
    );
    assert.deepStrictEqual(map({ hook_event_name: 'StopFailure', error: 'server_error' }), { state: 'failed', reason: 'server error' });
    assert.deepStrictEqual(
      map({ hook_event_name: 'Notification', notification_type: 'permission_prompt' }),
      { state: 'waiting', wait: { kind: 'permission' } },
      'no dialog reported before: it opens one',
    );
    assert.deepStrictEqual(map({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }), undefined);
  });

  it('OpenCode: status changes while a dialog is open are ignored; subagent sessions are skipped; a question lists its options', () => {
    const m = new HookMapper();
    const ev = (type: string, properties: Record<string, unknown>) =>
      m.map({ v: 1, agent: 'opencode', at: 1, payload: { type, properties: { sessionID: 'ses_1', ...properties } } }).word;
    assert.deepStrictEqual(
      ev('question.asked', {
        id: 'que_1',
        questions: [{ question: 'Which runner?', header: 'Runner', options: [{ label: 'node:test' }, { label: 'vitest' }] }],
      }),
      { state: 'waiting', wait: { kind: 'question', question: 'Which runner?', options: ['node:test', 'vitest'] } },
    );
    assert.strictEqual(ev('session.status', { status: { type: 'busy' } }), undefined);
    assert.strictEqual(ev('session.status', { status: { type: 'idle' } }), undefined);
    assert.deepStrictEqual(ev('question.rejected', { requestID: 'que_1' }), { state: 'working' });
    assert.deepStrictEqual(
      ev('message.part.updated', { part: { type: 'text', text: 'Should I also add a CI job?', time: { start: 1, end: 2 } } }),
      undefined,
    );
    assert.deepStrictEqual(ev('session.status', { status: { type: 'idle' } }), {
      state: 'waiting',
      wait: { kind: 'reply-question', question: 'Should I also add a CI job?' },
    });
    const child = (type: string, properties: Record<string, unknown>) =>
      m.map({ v: 1, agent: 'opencode', at: 1, payload: { type, properties: { sessionID: 'ses_child', ...properties } } }).word;
    assert.strictEqual(child('session.created', { info: { parentID: 'ses_1' } }), undefined);
    assert.strictEqual(child('permission.asked', { permission: 'bash', patterns: ['ls'] }), undefined);
  });

  it('droid: a dialog’s Notification names the tool of the PreToolUse just before it in its session, and only that one', () => {
    const waits = (scenario: string) =>
      mapped('droid', where(`live/droid/${scenario}`).dir)
        .filter((x) => x.r.word?.state === 'waiting')
        .map((x) => x.r.word!.wait?.question);
    assert.deepStrictEqual(waits('04-execute-approve'), ['Execute: rm -rf build']);
    assert.deepStrictEqual(waits('09-multistep-quit'), ['Create: $RUN/demo-app/hello.js', 'Execute: node hello.js']);
    const m = new HookMapper();
    const report = (payload: Record<string, unknown>) => m.map({ v: 1, agent: 'droid', at: 1, payload: { session_id: 's', ...payload } });
    report({ hook_event_name: 'PreToolUse', tool_name: 'Execute', tool_input: { command: 'ls' } });
    report({ hook_event_name: 'PostToolUse', tool_name: 'Execute' });
    const later = report({ hook_event_name: 'Notification', notification_type: 'permission_prompt' });
    assert.deepStrictEqual(later.word?.wait, { kind: 'permission' }, 'a PreToolUse that is not the one before says nothing');
  });

  it('Copilot: every report of a recording names the session of its log, the Notification’s camelCase one too', () => {
    const { agent, dir } = where('live/copilot/09-multistep-quit');
    const reports = mapped(agent, dir).map(({ r }) => r);
    const logs = new Set(reports.filter((r) => r.logPath).map((r) => path.basename(path.dirname(r.logPath!))));
    assert.strictEqual(logs.size, 1, 'Stop names one session log');
    assert.ok(reports.some((r) => r.event === 'Notification'));
    assert.deepStrictEqual(new Set(reports.map((r) => r.sessionId)), logs);
  });

  it('the reporter’s marker opens on dialogs only and clears on anything else', () => {
    const p = (hook_event_name: string, more = {}) => ({ agent: 'claude-code' as const, payload: { hook_event_name, ...more } });
    assert.strictEqual(markerAction(p('PermissionRequest', { tool_name: 'Bash' })), 'open');
    assert.strictEqual(markerAction(p('PreToolUse', { tool_name: 'AskUserQuestion' })), 'open');
    assert.strictEqual(markerAction(p('PostToolUse')), 'close');
    assert.strictEqual(markerAction(p('Stop', { last_assistant_message: 'ok?' })), 'close');
    assert.strictEqual(markerAction({ agent: 'codex', payload: { hook_event_name: 'PermissionRequest' } }), 'open');
  });
});

describe('Claude Code’s Stop while background work runs', () => {
  const stop = (background_tasks: unknown[]) =>
    new HookMapper().map({
      v: 1,
      agent: 'claude-code',
      at: 0,
      payload: { hook_event_name: 'Stop', session_id: 's', last_assistant_message: 'Done.', background_tasks },
    }).word?.state;

  it('a subagent still running keeps the turn going; a background shell or a finished subagent does not', () => {
    assert.strictEqual(stop([{ id: 'a1', type: 'subagent', status: 'running' }]), 'working');
    assert.strictEqual(stop([{ id: 'b1', type: 'shell', status: 'running', description: 'npm run dev' }]), 'completed');
    assert.strictEqual(stop([{ id: 'a1', type: 'subagent', status: 'completed' }]), 'completed');
    assert.strictEqual(stop([]), 'completed');
  });
});
