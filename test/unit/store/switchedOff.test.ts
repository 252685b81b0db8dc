/**
 * Switching an agent off (`agentLens.agents`) in the store: whatever source speaks for it — screen, hook or
 * session log — it shows nowhere, at once; switched on again, it shows where it is now, its wait included.
 */
import * as assert from 'assert';
import { WaitNotifier } from '../../../src/store/notifier';
import type { Observation } from '../../../src/store/observation';
import { AgentStore } from '../../../src/store/store';
import type { Wait } from '../../../src/store/waits';
import { FakeScheduler } from '../fakeScheduler';
import { obs } from '../obs';

const at = (tid: string) => ({ terminalId: tid, cwd: '/work/demo' });

function setup() {
  const sched = new FakeScheduler();
  const store = new AgentStore({ clock: sched });
  const pushed: string[] = [];
  const told: Wait[] = [];
  store.onDidChangeWait((w) => told.push(w));
  const notifier = new WaitNotifier(store, sched, {
    enabled: () => true,
    delaySeconds: () => 15,
    isFocused: () => false,
    notify: (w) => pushed.push(`${w.terminalId}:${w.kind}`),
  });
  store.openTerminal('A', 'claude here');
  store.openTerminal('B', 'codex there');
  return { sched, store, pushed, told, notifier };
}

const shown = (store: AgentStore) => store.terminals().map((t) => `${t.id}:${t.agent}/${t.state}`);

describe('switched-off agents: applied in the store, for every source, at once', () => {
  const sources: [string, (tid: string, t: number) => Observation][] = [
    ['the screen', (tid, t) => obs('pty-scrape', t, 'waiting', { wait: 'permission', question: 'Bash: ls', locator: at(tid) })],
    [
      'a hook',
      (tid, t) => obs('hook', t, 'waiting', { wait: 'permission', question: 'Bash: ls', locator: { ...at(tid), sessionId: 'S1' } }),
    ],
    [
      'the session log, once linked',
      (tid, t) =>
        obs('jsonl-watcher', t, 'waiting', { wait: 'permission', question: 'Bash: ls', locator: { ...at(tid), sessionId: 'S1' } }),
    ],
  ];
  for (const [name, word] of sources) {
    it(`${name}: a switched-off agent's wait is in no list, on no row, notifies nobody`, () => {
      const { sched, store, pushed } = setup();
      store.setSwitchedOff(['claude-code']);
      store.observe(obs('pty-scrape', sched.now(), 'working', { locator: at('A') }));
      store.observe(word('A', sched.now() + 1));
      store.observe(obs('pty-scrape', sched.now(), 'working', { agent: 'codex', locator: at('B') }));
      assert.deepStrictEqual(shown(store), ['A:shell/idle', 'B:codex/working']);
      assert.match(store.terminal('A')!.evidence, /claude-code detection is switched off/);
      assert.deepStrictEqual(store.waits(), []);
      sched.advance(60_000);
      assert.deepStrictEqual(pushed, []);
    });
  }

  it('switched on again: the row, the wait and its notification come back at once, with the wait’s own age', () => {
    const { sched, store, pushed, told } = setup();
    store.setSwitchedOff(['claude-code']);
    const appeared = sched.now();
    store.observe(obs('hook', appeared, 'waiting', { wait: 'permission', question: 'Bash: ls', locator: { ...at('A'), sessionId: 'S1' } }));
    sched.advance(5_000);
    told.length = 0;
    store.setSwitchedOff([]);
    assert.deepStrictEqual(shown(store), ['A:claude-code/waiting', 'B:shell/idle']);
    assert.deepStrictEqual(
      store.waits().map((w) => [w.question, w.openedAt]),
      [['Bash: ls', appeared]],
    );
    assert.deepStrictEqual(
      told.map((w) => w.question),
      ['Bash: ls'],
      'the views and the notifier are told',
    );
    sched.advance(9_000);
    assert.deepStrictEqual(pushed, [], '15 s from when the dialog appeared, not from the switch');
    sched.advance(1_500);
    assert.deepStrictEqual(pushed, ['A:permission']);
  });

  it('switched off while its dialog is open: gone from every list at once, and no notification follows', () => {
    const { sched, store, pushed, told } = setup();
    store.observe(obs('pty-scrape', sched.now(), 'waiting', { wait: 'permission', question: 'Bash: ls', locator: at('A') }));
    assert.strictEqual(store.waits().length, 1);
    const id = store.waits()[0].id;
    told.length = 0;
    store.setSwitchedOff(['claude-code']);
    assert.deepStrictEqual(shown(store), ['A:shell/idle', 'B:shell/idle']);
    assert.deepStrictEqual([store.waits(), store.wait(id)], [[], undefined]);
    assert.deepStrictEqual(
      told.map((w) => w.id),
      [id],
      'the views are told to redraw',
    );
    sched.advance(60_000);
    assert.deepStrictEqual(pushed, []);
  });

  it('changes nothing and tells no one when the same agents are switched off again', () => {
    const { store, told } = setup();
    store.observe(obs('pty-scrape', 1, 'waiting', { wait: 'permission', locator: at('A') }));
    store.setSwitchedOff(['codex']);
    const changes: unknown[] = [];
    store.onDidChange((c) => changes.push(c));
    told.length = 0;
    store.setSwitchedOff(new Set(['codex']));
    assert.deepStrictEqual([changes, told], [[], []]);
    assert.strictEqual(store.waits().length, 1, 'another agent’s wait stays');
  });
});
