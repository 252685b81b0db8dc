import * as assert from 'assert';
import type { Observation } from '../../../src/store/observation';
import { AgentStore } from '../../../src/store/store';
import { HISTORY_LIMIT } from '../../../src/store/types';
import { obs } from '../obs';
import { logTo } from '../../../src/common/log';

const DIR = '/work/demo';
const screen = (tid: string, at: number, state: Observation['state'], more: Parameters<typeof obs>[3] = {}) =>
  obs('pty-scrape', at, state, { ...more, locator: { terminalId: tid, cwd: DIR, ...more.locator } });
const logged = (sid: string, at: number, state: Observation['state'], more: Parameters<typeof obs>[3] = {}) =>
  obs('jsonl-watcher', at, state, { ...more, locator: { sessionId: sid, cwd: DIR, logPath: `/logs/${sid}.jsonl`, ...more.locator } });

function twoTerminals(opts: ConstructorParameters<typeof AgentStore>[0] = {}) {
  const store = new AgentStore(opts);
  store.openTerminal('A', 'agent A');
  store.openTerminal('B', 'agent B');
  store.observe(screen('A', 1000, 'idle'));
  store.observe(screen('B', 1000, 'idle'));
  return store;
}

describe('agent store', () => {
  it('shows a terminal source’s word on the source’s clock, with a bounded history', () => {
    const store = new AgentStore({ clock: { now: () => 999_999 } });
    store.openTerminal('A', 'bash');
    assert.strictEqual(store.terminal('A')!.agent, 'shell');
    store.observe(screen('A', 5000, 'working'));
    const t = store.terminal('A')!;
    assert.deepStrictEqual([t.agent, t.state, t.source, t.since], ['claude-code', 'working', 'pty-scrape', 5000]);
    for (let i = 0; i < HISTORY_LIMIT + 10; i++) store.observe(screen('A', 6000 + i, i % 2 ? 'working' : 'idle'));
    assert.strictEqual(store.terminal('A')!.history.length, HISTORY_LIMIT);
  });

  it('keeps each source’s latest word, newest first, and names the shown one’s source', () => {
    const store = twoTerminals();
    store.observe(screen('A', 5000, 'working'));
    store.observe(logged('L1', 5100, 'working'));
    store.observe(screen('A', 9300, 'stopped'));
    store.observe(logged('L1', 9200, 'completed'));
    const t = store.terminal('A')!;
    assert.deepStrictEqual([t.state, t.source, t.agentSessionId], ['completed', 'jsonl-watcher', 'L1']);
    assert.deepStrictEqual(
      t.words.map((w) => `${w.source}:${w.state}`),
      ['pty-scrape:stopped', 'jsonl-watcher:completed'],
    );
  });

  it('holds a log session seen before its terminal, and links it when the screen sees the same turn start', () => {
    const store = new AgentStore();
    store.observe(logged('L1', 5100, 'working'));
    assert.strictEqual(store.sessions().length, 1);
    assert.strictEqual(store.sessions()[0].terminalId, undefined);
    store.openTerminal('A', 'a');
    store.observe(screen('A', 4000, 'idle'));
    store.observe(screen('A', 5000, 'working'));
    store.observe(logged('L1', 9000, 'failed', { reason: 'interrupted' }));
    const t = store.terminal('A')!;
    assert.deepStrictEqual([t.state, t.reason, t.source], ['failed', 'interrupted', 'jsonl-watcher']);
    assert.strictEqual(store.sessions().length, 1, 'merged into the terminal’s session');
  });

  it('never confuses two agents in one folder: each log goes to the terminal whose turn started with it', () => {
    const store = twoTerminals();
    store.observe(screen('A', 5000, 'working'));
    store.observe(logged('L1', 5200, 'working'));
    store.observe(screen('B', 20_000, 'working'));
    store.observe(logged('L2', 20_300, 'working'));
    store.observe(logged('L1', 9000, 'completed'));
    store.observe(logged('L2', 25_000, 'failed', { reason: 'API error 529' }));
    store.observe(screen('A', 9100, 'stopped'));
    store.observe(screen('B', 25_100, 'stopped'));
    assert.deepStrictEqual([store.terminal('A')!.state, store.terminal('A')!.agentSessionId], ['completed', 'L1']);
    assert.deepStrictEqual(
      [store.terminal('B')!.state, store.terminal('B')!.agentSessionId, store.terminal('B')!.reason],
      ['failed', 'L2', 'API error 529'],
    );
  });

  it('shows no log state for either when two terminals in one folder started a turn at the same moment', () => {
    const store = twoTerminals();
    store.observe(screen('A', 5000, 'working'));
    store.observe(screen('B', 5500, 'working'));
    store.observe(logged('L1', 5200, 'working'));
    store.observe(logged('L1', 9000, 'completed'));
    store.observe(screen('A', 9100, 'stopped'));
    store.observe(screen('B', 9100, 'stopped'));
    assert.strictEqual(store.terminal('A')!.state, 'stopped');
    assert.strictEqual(store.terminal('B')!.state, 'stopped');
    assert.strictEqual(store.sessions().find((s) => s.agentSessionIds.includes('L1'))!.terminalId, undefined);
  });

  it('links the only agent of its kind in the folder when the process table agrees, and only then', () => {
    for (const [count, linked] of [
      [1, true],
      [2, false],
      [undefined, false],
    ] as const) {
      const store = new AgentStore({ agentsInFolder: () => count });
      store.openTerminal('A', 'a');
      store.observe(obs('process', 1000, 'working', { locator: { terminalId: 'A', cwd: DIR } }));
      store.observe(logged('L1', 8000, 'completed'));
      assert.strictEqual(store.terminal('A')!.state, linked ? 'completed' : 'working', `agentsInFolder ${count}`);
    }
  });

  it('does not link a log last written before the agent in the terminal started', () => {
    const store = new AgentStore({ agentsInFolder: () => 1 });
    store.observe(logged('OLD', 1000, 'completed'));
    store.openTerminal('A', 'a');
    store.observe(obs('process', 50_000, 'working', { locator: { terminalId: 'A', cwd: DIR } }));
    assert.strictEqual(store.terminal('A')!.state, 'working');
  });

  it('ends everything at exit: a late log line stays with the run that ended, a new run is a new session', () => {
    const store = twoTerminals();
    store.observe(screen('A', 5000, 'working'));
    store.observe(logged('L1', 5100, 'working'));
    store.observe(screen('A', 8000, 'exited'));
    const ended = store.terminal('A')!.sessionKey;
    store.observe(logged('L1', 20_000, 'completed'));
    assert.strictEqual(store.terminal('A')!.state, 'exited');
    store.observe(screen('A', 30_000, 'idle'));
    assert.notStrictEqual(store.terminal('A')!.sessionKey, ended);
    assert.strictEqual(store.terminal('A')!.state, 'idle');
  });

  it('a plain shell after the agent shows the terminal as a shell', () => {
    const store = twoTerminals();
    store.observe(screen('A', 8000, 'exited'));
    store.observe(screen('A', 9000, 'idle', { agent: 'shell' }));
    assert.strictEqual(store.terminal('A')!.agent, 'shell');
  });

  it('logs hook-supplied session ids, folders and terminal names escaped: no forged log line', () => {
    const lines: string[] = [];
    const store = new AgentStore({ log: logTo((_l, m) => void lines.push(m)), agentsInFolder: () => 1 });
    const dir = '/w\u001b[31m';
    store.openTerminal('A', 'bash\u001b]0;evil\u0007\u202e');
    store.observe(screen('A', 1000, 'working', { locator: { cwd: dir } }));
    store.observe(
      logged('abc\n2026-12-04 21:00:00.000 [info] hub listening on 127.0.0.1:1; forged line', 2000, 'working', { locator: { cwd: dir } }),
    );
    assert.strictEqual(lines.length, 1, 'linked once');
    assert.doesNotMatch(lines[0], /[\u0000-\u001f\u007f-\u009f]/);
    assert.match(lines[0], /session abc\\u000a2026-12-04 21:00:00\.000 \[info\] hub listening .* to terminal "bash\\u001b\]0;evil\\u0007/);
  });

  describe('waits', () => {
    it('opens a wait with an id when the screen sees a dialog, lets the hook confirm it, and closes it by the source that moved on', () => {
      const store = twoTerminals();
      const events: string[] = [];
      store.onDidChangeWait((w) => events.push(`${w.id}:${w.closedAt === undefined ? 'open' : `closed by ${w.closedBy}`}`));
      store.observe(screen('A', 5000, 'working'));
      store.observe(screen('A', 5800, 'waiting', { wait: 'permission' }));
      const [w] = store.waits();
      assert.ok(w && w.id && w.terminalId === 'A' && w.kind === 'permission' && w.openedBy === 'pty-scrape');
      store.observe(obs('hook', 5700, 'waiting', { wait: 'permission', question: 'rm -rf build', locator: { terminalId: 'A' } }));
      assert.deepStrictEqual(store.waits()[0].seenBy, ['pty-scrape', 'hook']);
      assert.strictEqual(store.waits()[0].openedAt, 5700, 'counted from when the dialog appeared');
      assert.strictEqual(store.waits()[0].question, 'rm -rf build');
      assert.strictEqual(store.terminal('A')!.waitId, w.id);
      // Denied: no hook fires; the screen closes the wait.
      store.observe(screen('A', 26_300, 'stopped'));
      assert.deepStrictEqual(store.waits(), []);
      assert.strictEqual(store.wait(w.id)!.closedBy, 'pty-scrape');
      assert.strictEqual(store.terminal('A')!.waitId, undefined);
      assert.deepStrictEqual(
        events.filter((e, i) => events.indexOf(e) === i),
        [`${w.id}:open`, `${w.id}:closed by pty-scrape`],
      );
    });

    it('a stale word about an earlier wait does not confirm the next one', () => {
      const store = twoTerminals();
      store.observe(obs('hook', 5700, 'waiting', { question: 'first', locator: { terminalId: 'A' } }));
      store.observe(screen('A', 26_000, 'working'));
      store.observe(screen('A', 40_000, 'waiting'));
      const w = store.waits()[0];
      assert.deepStrictEqual([w.openedAt, w.seenBy, w.question], [40_000, ['pty-scrape'], undefined]);
    });

    it('a new kind of wait is a new wait; closing the terminal closes it', () => {
      const store = twoTerminals();
      store.observe(screen('A', 5000, 'waiting', { wait: 'permission' }));
      const first = store.waits()[0].id;
      store.observe(screen('A', 6000, 'waiting', { wait: 'question' }));
      const second = store.waits()[0].id;
      assert.notStrictEqual(first, second);
      assert.ok(store.wait(first)!.closedAt);
      store.closeTerminal('A');
      assert.deepStrictEqual(store.waits(), []);
      assert.strictEqual(store.terminal('A'), undefined);
    });
  });
});
