import * as assert from 'assert';
import { logTo } from '../../../src/common/log';
import { ChannelSchema } from '../../../src/notify/config';
import { NotifyFanout } from '../../../src/notify/fanout';
import { desktopWanted, notifyWaits } from '../../../src/notify/fromStore';
import type { NotifyEvent } from '../../../src/notify/message';
import { AgentStore } from '../../../src/store/store';
import { FakeScheduler } from '../fakeScheduler';
import { obs } from '../obs';
import { recordingServer } from './loopback';

describe('the notification rule on the push channels', () => {
  function setup(anywhere: boolean) {
    const sched = new FakeScheduler();
    const store = new AgentStore({ clock: sched });
    const sent: NotifyEvent[] = [];
    const fanout = { notify: (e: NotifyEvent) => void sent.push(e), wants: () => false } as unknown as NotifyFanout;
    const n = notifyWaits(store, fanout, sched, { delaySeconds: () => 15, anywhere });
    return { sched, store, sent, n };
  }
  /** A hook-reported dialog of an agent in no known terminal (agent-lens serve: a tmux pane, an SSH session). */
  const hookWait = (store: AgentStore, at: number, kind: 'permission' | 'reply-question', question?: string) =>
    store.observe(obs('hook', at, 'waiting', { wait: kind, question, locator: { sessionId: 's-1', cwd: '/home/u/shop' } }));

  it('under serve, a dialog no terminal is known for: once, after the delay, named by its folder', () => {
    const { sched, store, sent, n } = setup(true);
    hookWait(store, sched.now(), 'permission', 'rm -rf build');
    sched.advance(14_000);
    assert.strictEqual(sent.length, 0);
    sched.advance(2_000);
    assert.strictEqual(sent.length, 1);
    assert.deepStrictEqual(
      [sent[0].kind, sent[0].kind === 'wait' && [sent[0].terminal, sent[0].folder, sent[0].waitKind, sent[0].detail]],
      ['wait', ['shop', '/home/u/shop', 'permission', 'rm -rf build']],
    );
    sched.advance(60_000);
    assert.strictEqual(sent.length, 1, 'once per wait');
    n.dispose();
  });

  it('never a reply that ends with a question, never a wait outside a terminal in the window', () => {
    const serve = setup(true);
    hookWait(serve.store, serve.sched.now(), 'reply-question', 'Shall I go on?');
    serve.sched.advance(60_000);
    assert.deepStrictEqual(serve.sent, []);
    const window = setup(false);
    hookWait(window.store, window.sched.now(), 'permission');
    window.sched.advance(60_000);
    assert.deepStrictEqual(window.sent, [], 'in VS Code a wait no terminal holds is no terminal’s dialog');
  });

  it('under serve, named by the place the agent runs in (its tmux pane) when one is found, and pushed when none is', async () => {
    const sched = new FakeScheduler();
    const store = new AgentStore({ clock: sched });
    const sent: NotifyEvent[] = [];
    const asked: unknown[] = [];
    const fanout = { notify: (e: NotifyEvent) => void sent.push(e), wants: () => false } as unknown as NotifyFanout;
    const n = notifyWaits(store, fanout, sched, {
      delaySeconds: () => 15,
      anywhere: true,
      placeOf: (s) => {
        asked.push(s);
        return s.pid === 4242 ? Promise.resolve('work:0.1') : Promise.reject(new Error('no tmux server'));
      },
    });
    store.observe(obs('hook', sched.now(), 'waiting', { locator: { sessionId: 's-1', cwd: '/home/u/shop', pid: 4242 } }));
    store.observe(obs('hook', sched.now(), 'waiting', { locator: { sessionId: 's-2', cwd: '/home/u/api' } }));
    sched.advance(16_000);
    await new Promise((r) => setImmediate(r));
    assert.deepStrictEqual(
      sent.map((e) => e.kind === 'wait' && [e.terminal, e.folder]),
      [
        ['work:0.1', '/home/u/shop'],
        ['api', '/home/u/api'],
      ],
    );
    assert.deepStrictEqual(asked, [
      { agent: 'claude-code', pid: 4242, cwd: '/home/u/shop' },
      { agent: 'claude-code', pid: undefined, cwd: '/home/u/api' },
    ]);
    n.dispose();
  });

  it('a reply that ends with a question: only to a channel that asked for replies, never to one for dialogs', async () => {
    const srv = await recordingServer();
    const sched = new FakeScheduler();
    const store = new AgentStore({ clock: sched });
    const ch = (topic: string, events: string[]) =>
      ChannelSchema.parse({ kind: 'ntfy', url: `${srv.url}/${topic}`, events, minIntervalSeconds: 0 });
    const fanout = new NotifyFanout(
      [ch('dialogs', ['wait']), ch('replies', ['reply'])],
      logTo(() => undefined),
      { clock: sched },
    );
    const n = notifyWaits(store, fanout, sched, { delaySeconds: () => 15, anywhere: true });
    try {
      hookWait(store, sched.now(), 'reply-question', 'Shall I go on?');
      sched.advance(16_000);
      await fanout.settled();
      const sent = srv.seen.map((r) => JSON.parse(r.body) as { topic: string; title: string; tags: string[] });
      assert.deepStrictEqual(
        sent.map((b) => [b.topic, b.title, b.tags]),
        [['replies', 'Claude Code needs you: asked a question', ['question']]],
      );
    } finally {
      n.dispose();
      fanout.dispose();
      await srv.close();
    }
  });

  it('the desktop too only when the window is not focused; auto only where the extension host is the user’s machine', () => {
    const table: [Parameters<typeof desktopWanted>, boolean][] = [
      [['auto', true, false], true],
      [['auto', false, false], false],
      [['auto', true, true], false],
      [['on', false, false], true],
      [['on', true, true], false],
      [['off', true, false], false],
    ];
    for (const [args, want] of table) assert.strictEqual(desktopWanted(...args), want, JSON.stringify(args));
  });
});
