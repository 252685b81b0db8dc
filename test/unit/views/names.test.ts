import * as assert from 'assert';
import { terminalIdOf, waitIdOf } from '../../../src/vscode/commandArgs';
import type { TerminalState } from '../../../src/store/types';
import { displayName, displayNames } from '../../../src/views/names';
import { pickItems, treeRows, ticksEverySecond } from '../../../src/views/model';
import { AgentStore } from '../../../src/store/store';
import { obs } from '../obs';

const term = (id: string, name: string, agent: TerminalState['agent'] = 'shell', cwd?: string): TerminalState => ({
  id,
  name,
  agent,
  state: 'idle',
  source: 'pty-scrape',
  evidence: '',
  since: 0,
  words: [],
  history: [],
  ...(cwd ? { cwd } : {}),
});

describe('one name per terminal', () => {
  it('is the tab’s title; names that read alike get the agent and its folder, then a number', () => {
    const all = [
      term('a', 'bash', 'claude-code', '/w/demo-app'),
      term('b', 'bash'),
      term('c', 'bash', 'opencode', '/w/api'),
      term('d', 'claude', 'claude-code'),
      term('e', 'bash', 'claude-code', '/w/demo-app'),
    ];
    const n = displayNames(all);
    assert.deepStrictEqual(
      [...n.values()],
      ['bash — Claude Code · demo-app', 'bash', 'bash — OpenCode · api', 'claude', 'bash — Claude Code · demo-app (2)'],
    );
    assert.strictEqual(displayName(all[3], all), 'claude');
  });

  it('an empty title (a terminal revived before its title came back) reads as its agent', () => {
    assert.deepStrictEqual([...displayNames([term('a', '', 'claude-code'), term('b', '  ')]).values()], ['Claude Code', 'shell']);
  });

  it('rows, picks and the history use it', () => {
    const store = new AgentStore();
    store.openTerminal('A', 'bash');
    store.openTerminal('B', 'bash');
    store.observe(obs('pty-scrape', 1000, 'working', { agent: 'codex', locator: { terminalId: 'A', cwd: '/w/app' } }));
    const v = { terminals: store.terminals(), waits: store.waits(), now: 2000 };
    assert.deepStrictEqual(
      treeRows(v)
        .map((r) => r.label)
        .slice(0, 2),
      ['bash — Codex · app', 'bash'],
    );
    assert.deepStrictEqual(
      pickItems(v).map((p) => p.label),
      ['bash — Codex · app', 'bash'],
    );
  });
});

describe('what commands are given', () => {
  it('takes a tree row, an id, or nothing', () => {
    assert.strictEqual(waitIdOf({ waitId: 'w-1', terminalId: 't-1' }), 'w-1');
    assert.strictEqual(waitIdOf('w-2'), 'w-2');
    assert.strictEqual(waitIdOf(undefined), undefined);
    assert.strictEqual(waitIdOf({ terminalId: 't' }), undefined);
    assert.strictEqual(terminalIdOf({ waitId: 'w-1', terminalId: 't-1' }), 't-1');
    assert.strictEqual(terminalIdOf('t-2'), 't-2');
    assert.strictEqual(terminalIdOf([1]), undefined);
  });
});

describe('the side bar at a glance', () => {
  it('says how to start before the first terminal, and opens one on a click', () => {
    const rows = treeRows({ terminals: [], waits: [], now: 0 });
    assert.strictEqual(rows[0].label, 'No terminal yet');
    assert.match(rows[0].description, /open a terminal and run claude/);
    assert.deepStrictEqual(rows[0].command, { id: 'workbench.action.terminal.new', args: [] });
    assert.ok(!treeRows({ terminals: [term('a', 'bash')], waits: [], now: 0 }).some((r) => r.key === 'empty'));
  });

  it('the quick pick leads with what a waiting agent asks and for how long', () => {
    const store = new AgentStore();
    store.openTerminal('A', 'claude');
    store.openTerminal('B', 'codex');
    store.observe(obs('hook', 1000, 'waiting', { question: 'Bash: rm -rf build', locator: { terminalId: 'A' } }));
    store.observe(obs('jsonl-watcher', 1000, 'working', { agent: 'codex', locator: { terminalId: 'B' } }));
    const [a, b] = pickItems({ terminals: store.terminals(), waits: store.waits(), now: 13_000 });
    assert.strictEqual(a.detail, 'waiting for approval for 12s: Bash: rm -rf build');
    assert.strictEqual(b.detail, 'from the session log');
  });

  it('ticks every second while an age is shown to the second', () => {
    const store = new AgentStore();
    store.openTerminal('A', 'claude');
    store.observe(obs('jsonl-watcher', 1000, 'working', { locator: { terminalId: 'A' } }));
    const at = (now: number) => ticksEverySecond({ terminals: store.terminals(), waits: store.waits(), now });
    assert.strictEqual(at(60_000), true);
    assert.strictEqual(at(1000 + 11 * 60_000), false);
  });
});
