import * as assert from 'assert';
import { WaitNotifier } from '../../../src/store/notifier';
import { AgentStore } from '../../../src/store/store';
import { FakeScheduler } from '../fakeScheduler';
import { obs } from '../obs';

describe('wait notifications', () => {
  function setup(focused = false) {
    const sched = new FakeScheduler();
    const store = new AgentStore({ clock: sched });
    const pushed: string[] = [];
    let focus = focused;
    const n = new WaitNotifier(store, sched, {
      enabled: () => true,
      delaySeconds: () => 15,
      isFocused: () => focus,
      notify: (w) => pushed.push(`${w.terminalId}:${w.kind}`),
    });
    store.openTerminal('t1', 'a');
    return { sched, store, pushed, n, setFocus: (f: boolean) => (focus = f) };
  }
  const wait = (store: AgentStore, at: number, kind: 'permission' | 'reply-question', source: 'pty-scrape' | 'hook' = 'pty-scrape') =>
    store.observe(obs(source, at, 'waiting', { wait: kind, locator: { terminalId: 't1' } }));

  it('notifies once, after the delay, for a dialog still open', () => {
    const { sched, store, pushed } = setup();
    wait(store, sched.now(), 'permission');
    sched.advance(14_000);
    assert.deepStrictEqual(pushed, []);
    sched.advance(1_500);
    assert.deepStrictEqual(pushed, ['t1:permission']);
    wait(store, sched.now(), 'permission', 'hook');
    sched.advance(60_000);
    assert.deepStrictEqual(pushed, ['t1:permission'], 'only once per wait, whoever confirms it later');
  });

  it('counts from when the dialog appeared, not from the late report that confirmed it', () => {
    const { sched, store, pushed } = setup();
    const appeared = sched.now();
    sched.advance(6_000);
    // Claude's permission_prompt hook arrives ~6 s after the dialog; the wait still dates from the dialog.
    wait(store, appeared, 'permission', 'hook');
    sched.advance(9_500);
    assert.deepStrictEqual(pushed, ['t1:permission']);
  });

  it('does not notify when the dialog was answered in time', () => {
    const { sched, store, pushed } = setup();
    wait(store, sched.now(), 'permission');
    sched.advance(5_000);
    store.observe(obs('pty-scrape', sched.now(), 'working', { locator: { terminalId: 't1' } }));
    sched.advance(30_000);
    assert.deepStrictEqual(pushed, []);
  });

  it('never pushes a reply that merely ends with a question', () => {
    const { sched, store, pushed } = setup();
    wait(store, sched.now(), 'reply-question');
    sched.advance(60_000);
    assert.deepStrictEqual(pushed, []);
  });

  it('waits while the terminal is the focused one, and notifies when focus leaves', () => {
    const { sched, store, pushed, setFocus } = setup(true);
    wait(store, sched.now(), 'permission');
    sched.advance(30_000);
    assert.deepStrictEqual(pushed, []);
    setFocus(false);
    sched.advance(4_000);
    assert.deepStrictEqual(pushed, ['t1:permission']);
  });

  it('looks again at an unfocused wait when its timer fires early, and notifies it', () => {
    const sched = new FakeScheduler();
    // Node's timers may fire a few milliseconds early (and a second source may move the opening time): this
    // scheduler fires every timer 5 ms before it is due, which left such a wait unnotified for good.
    const early = {
      now: () => sched.now(),
      setTimeout: (fn: () => void, ms: number) => sched.setTimeout(fn, Math.max(0, ms - 5)),
      clearTimeout: (h: unknown) => sched.clearTimeout(h),
    };
    const store = new AgentStore({ clock: sched });
    const pushed: string[] = [];
    new WaitNotifier(store, early, {
      enabled: () => true,
      delaySeconds: () => 15,
      isFocused: () => false,
      notify: (w) => pushed.push(`${w.terminalId}:${w.kind}`),
    });
    store.openTerminal('t1', 'a');
    wait(store, sched.now(), 'permission');
    sched.advance(15_100);
    assert.deepStrictEqual(pushed, ['t1:permission'], 'notified a moment after it was due, not never');
  });
});
