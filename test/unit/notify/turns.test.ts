import * as assert from 'assert';
import { logTo } from '../../../src/common/log';
import type { AgentState } from '../../../src/common/states';
import { ChannelSchema } from '../../../src/notify/config';
import { NotifyFanout } from '../../../src/notify/fanout';
import type { NotifyEvent } from '../../../src/notify/message';
import { notifyTurns, type TurnEnd, turnEvent, TurnWatcher } from '../../../src/notify/turns';
import type { Locator } from '../../../src/store/observation';
import { AgentStore } from '../../../src/store/store';
import { FakeScheduler } from '../fakeScheduler';
import { obs } from '../obs';
import { recordingServer } from './loopback';
import { eventOf, playReports, recordedSession } from './recordedHooks';

describe('turn ends: "tell me when it is done"', () => {
  function setup(turnSeconds = 60) {
    const sched = new FakeScheduler();
    const store = new AgentStore({ clock: sched });
    const ends: TurnEnd[] = [];
    const w = new TurnWatcher(store, sched, { turnSeconds: () => turnSeconds, onTurnEnd: (e) => void ends.push(e) });
    /** A word of the agent's hooks (agent-lens serve: no terminal), said now. */
    const hook = (state: AgentState, more: { wait?: 'permission' | 'reply-question'; reason?: string; session?: string } = {}) =>
      store.observe(obs('hook', sched.now(), state, { ...more, locator: { sessionId: more.session ?? 's-1', cwd: '/home/u/shop' } }));
    return { sched, store, ends, w, hook };
  }

  it('a 70-s turn that completed: one end, once, however many sources confirm it', () => {
    const { sched, store, ends, w, hook } = setup();
    const start = sched.now();
    hook('working');
    sched.advance(70_000);
    hook('completed');
    store.observe(obs('jsonl-watcher', sched.now(), 'completed', { locator: { sessionId: 's-1' } }));
    sched.advance(1_000);
    hook('completed');
    assert.deepStrictEqual(
      ends.map((e) => [e.state, e.agent, e.terminalId, e.startedAt - start, e.endedAt - start]),
      [['completed', 'claude-code', undefined, 0, 70_000]],
    );
    w.dispose();
  });

  it('a 30-s turn is not worth telling; the next long one is', () => {
    const { sched, ends, hook } = setup();
    hook('working');
    sched.advance(30_000);
    hook('completed');
    assert.strictEqual(ends.length, 0);
    sched.advance(5_000);
    hook('working');
    sched.advance(61_000);
    hook('completed');
    assert.deepStrictEqual(
      ends.map((e) => e.endedAt - e.startedAt),
      [61_000],
    );
  });

  it('a dialog in the middle keeps one turn, timed from its start', () => {
    const { sched, ends, hook } = setup();
    hook('working');
    sched.advance(10_000);
    hook('waiting', { wait: 'permission' });
    sched.advance(40_000);
    hook('working');
    sched.advance(20_000);
    hook('completed');
    assert.deepStrictEqual(
      ends.map((e) => [e.state, e.endedAt - e.startedAt]),
      [['completed', 70_000]],
    );
  });

  it('stopped (Esc, a denied dialog), an exit and a reply that asks are no turn ends', () => {
    const { sched, ends, hook } = setup();
    for (const [end, more] of [
      ['stopped', {}],
      ['exited', { session: 's-2' }],
      ['waiting', { wait: 'reply-question', session: 's-3' }],
      ['idle', { session: 's-4' }],
      // Esc and a denied dialog as the log and the hooks word them: outcomes that outrank the screen's "stopped".
      ['failed', { session: 's-5', reason: 'interrupted' }],
      ['failed', { session: 's-6', reason: 'permission rejected' }],
    ] as const) {
      hook('working', more);
      sched.advance(10_000);
      hook('waiting', { ...more, wait: 'permission' });
      sched.advance(80_000);
      hook(end, more);
    }
    assert.deepStrictEqual(ends, []);
  });

  it('a failure is told apart from a success, with its reason', () => {
    const { sched, ends, hook } = setup();
    hook('working');
    sched.advance(90_000);
    hook('failed', { reason: 'API error 529' });
    assert.deepStrictEqual(
      ends.map((e) => [e.state, e.reason]),
      [['failed', 'API error 529']],
    );
  });

  it('a session in a VS Code terminal: named by the terminal; not told while the person looks at it', () => {
    const sched = new FakeScheduler();
    const store = new AgentStore({ clock: sched });
    store.openTerminal('t1', 'api server');
    const sent: NotifyEvent[] = [];
    let away = false;
    const n = notifyTurns(store, { notify: (e) => void sent.push(e) }, sched, {
      turnSeconds: () => 60,
      isAway: (id) => (id === 't1' ? away : true),
    });
    const screen = (state: AgentState, locator: Locator = { terminalId: 't1' }) =>
      store.observe(obs('pty-scrape', sched.now(), state, { locator }));
    for (const look of [true, false]) {
      away = !look;
      screen('working');
      sched.advance(65_000);
      screen('completed');
      sched.advance(5_000);
    }
    assert.deepStrictEqual(
      sent.map((e) => e.kind === 'turn' && [e.terminal, e.state, e.workedMs]),
      [['api server', 'completed', 65_000]],
    );
    n.dispose();
  });

  it('a subagent’s end and a background task’s end end no turn (Claude Code 2.1.328, recorded hooks)', () => {
    // 25-background-subagent: the model starts a background agent; its main turn's Stop (4.3 s) lists it as still
    // running, so the job goes on ("Waiting for 1 background agent to finish"); the agent ends (SubagentStop,
    // 12.0 s); Claude Code continues by itself (12.2 s) and stops for good at 12.7 s: one job, one end.
    const rec = recordedSession('25-background-subagent');
    const at = (name: string, nth = 0) => rec.reports.filter((r) => eventOf(r) === name)[nth].at;
    const { sched, store, ends } = setup(0);
    sched.advance(rec.t0 - sched.now());
    playReports(rec.reports, store, sched);
    assert.ok(
      rec.reports.some((r) => eventOf(r) === 'SubagentStop'),
      'the recording has the subagent’s end',
    );
    assert.deepStrictEqual(
      ends.map((e) => [e.startedAt, e.endedAt]),
      [[at('UserPromptSubmit'), at('Stop', 1)]],
      'one end, at the last Stop, for the turn that began at the first prompt; nothing at the first Stop, SubagentStart or SubagentStop',
    );
    // With the default 60 s that 10-s job is not told.
    const dflt = setup(60);
    dflt.sched.advance(rec.t0 - dflt.sched.now());
    playReports(rec.reports, dflt.store, dflt.sched);
    assert.deepStrictEqual(dflt.ends, []);
  });

  it('the channels that asked for turn-completed get completions, those for turn-failed failures, none for waits', async () => {
    const srv = await recordingServer();
    const sched = new FakeScheduler();
    const store = new AgentStore({ clock: sched });
    const ch = (path: string, events: string[]) =>
      ChannelSchema.parse({ kind: 'webhook', url: `${srv.url}${path}`, events, minIntervalSeconds: 0 });
    const fanout = new NotifyFanout(
      [ch('/done', ['turn-completed']), ch('/failed', ['turn-failed']), ch('/waits', ['wait'])],
      logTo(() => undefined),
    );
    const n = notifyTurns(store, fanout, sched, { turnSeconds: () => 60 });
    try {
      const hook = (session: string, state: AgentState, reason?: string) =>
        store.observe(obs('hook', sched.now(), state, { reason, locator: { sessionId: session, cwd: `/home/u/${session}` } }));
      hook('shop', 'working');
      hook('api', 'working');
      sched.advance(75_000);
      hook('shop', 'completed');
      hook('api', 'failed', 'API error 500');
      await fanout.settled();
      const got = srv.seen.map((s) => [s.path, (JSON.parse(s.body) as { title: string; body: string }).title]);
      assert.deepStrictEqual(got, [
        ['/done', 'Claude Code: turn completed'],
        ['/failed', 'Claude Code: turn failed'],
      ]);
      assert.strictEqual((JSON.parse(srv.seen[0].body) as { body: string }).body, 'in shop, after 1m 15s of work');
    } finally {
      n.dispose();
      fanout.dispose();
      await srv.close();
    }
  });

  it('turnEvent names a session by its terminal, else its place, else its folder, else its agent; one id per turn', () => {
    const store = new AgentStore();
    store.openTerminal('t1', 'api');
    store.observe(obs('hook', 1, 'working', { locator: { sessionId: 'x', cwd: '/srv/shop/' } }));
    const key = store.sessions()[0].key;
    const end: TurnEnd = { key, agent: 'claude-code', state: 'completed', startedAt: 1_000, endedAt: 61_000 };
    const named = (e: NotifyEvent) => e.kind === 'turn' && [e.terminal, e.folder, e.workedMs, e.id];
    assert.deepStrictEqual(named(turnEvent({ ...end, terminalId: 't1' }, store)), ['api', '/srv/shop/', 60_000, `${key}@1000`]);
    assert.deepStrictEqual(named(turnEvent(end, store, 'work:0.1')), ['work:0.1', '/srv/shop/', 60_000, `${key}@1000`]);
    assert.deepStrictEqual(named(turnEvent(end, store)), ['shop', '/srv/shop/', 60_000, `${key}@1000`]);
    assert.deepStrictEqual(named(turnEvent({ ...end, key: 'gone', startedAt: 2 }, store)), ['claude-code', undefined, 60_998, 'gone@2']);
  });
});
