import * as assert from 'assert';
import { AgentStore } from '../../../src/store/store';
import { describe as describeState, duration, stateLabel, tooltipMarkdown } from '../../../src/views/labels';
import { badge, historyLines, pickItems, statusBar, treeRows, type ViewInput } from '../../../src/views/model';
import { obs } from '../obs';
import { COMMAND_IDS } from '../../../src/views/commandIds';

function world(): { store: AgentStore; input: (active?: string) => ViewInput } {
  const store = new AgentStore();
  for (const [id, name] of [
    ['A', 'claude one'],
    ['B', 'codex two'],
    ['C', 'bash'],
  ])
    store.openTerminal(id, name);
  store.observe(obs('pty-scrape', 1000, 'working', { locator: { terminalId: 'A' } }));
  store.observe(obs('pty-scrape', 2000, 'waiting', { wait: 'permission', locator: { terminalId: 'A' } }));
  store.observe(obs('hook', 1900, 'waiting', { wait: 'permission', question: 'Run rm -rf build?', locator: { terminalId: 'A' } }));
  store.observe(obs('pty-scrape', 3000, 'working', { agent: 'codex', locator: { terminalId: 'B' } }));
  store.observe(
    obs('jsonl-watcher', 9000, 'failed', {
      agent: 'codex',
      reason: 'interrupted',
      evidence: 'codex.turn-aborted: "interrupted"',
      locator: { terminalId: 'B', sessionId: 'S' },
    }),
  );
  return { store, input: (active) => ({ terminals: store.terminals(), waits: store.waits(), now: 20_000, activeTerminalId: active }) };
}

describe('view model', () => {
  it('puts each open wait under "Needs you" with its question, then the other terminals, most urgent first', () => {
    const rows = treeRows(world().input());
    assert.deepStrictEqual(
      rows.map((r) => r.label),
      ['Needs you (1)', 'codex two', 'bash'],
    );
    const [w] = rows[0].children!;
    assert.strictEqual(w.label, 'claude one');
    assert.strictEqual(w.description, 'Claude Code · waiting for approval · 18s');
    // What it asks is on the line below, where a narrow side bar does not cut it off; the tooltip leads with it.
    assert.deepStrictEqual(
      w.children!.map((c) => c.label),
      ['Run rm -rf build?'],
    );
    assert.match(w.tooltip!, /^\*\*waiting for approval\*\* for 18s: Run rm \\-rf build\\?/);
    assert.strictEqual(w.contextValue, 'wait.permission');
    assert.ok(w.waitId);
    assert.match(w.tooltip!, /Seen by: pty-scrape, hook/);
    assert.strictEqual(rows[1].description, 'Codex · failed · interrupted · 11s');
    assert.deepStrictEqual(rows[1].icon, { id: 'error', color: 'charts.red' });
    assert.strictEqual(rows[2].description, 'shell');
  });

  it('counts waits for the badge and the status bar, and shows the active terminal', () => {
    const { input } = world();
    assert.deepStrictEqual(badge(input()), { value: 1, tooltip: '1 agent needs you' });
    const sb = statusBar(input('A'));
    assert.strictEqual(sb.summary!.text, '$(sync) 0  $(bell-dot) 1');
    assert.ok(sb.summary!.warning);
    assert.strictEqual(sb.active!.text, '$(bell-dot) Claude Code: waiting for approval');
    assert.ok(sb.active!.warning);
    assert.strictEqual(statusBar(input('C')).active, undefined, 'a plain shell shows no active item');
  });

  it('hides the summary while no terminal runs an agent', () => {
    const store = new AgentStore();
    store.openTerminal('C', 'bash');
    assert.deepStrictEqual(statusBar({ terminals: store.terminals(), waits: [], now: 0 }), {});
    assert.strictEqual(badge({ terminals: store.terminals(), waits: [], now: 0 }), undefined);
  });

  it('the tooltip names the shown source and lists each source’s latest word, newest first', () => {
    const { store } = world();
    const md = tooltipMarkdown(store.terminal('B')!, 20_000);
    assert.match(md, /Shown from the session log: codex\\.turn/);
    const iLog = md.indexOf('`jsonl-watcher`: failed · interrupted');
    const iScreen = md.indexOf('`pty-scrape`: working');
    assert.ok(iLog > 0 && iScreen > iLog, md);
  });

  it('the quick pick is most urgent first; history lists each source and the transitions', () => {
    const { input } = world();
    assert.deepStrictEqual(
      pickItems(input()).map((p) => p.terminalId),
      ['A', 'B', 'C'],
    );
    const lines = historyLines(input());
    assert.ok(
      lines.some((l) => /\[codex two\] {3}latest jsonl-watcher: .* failed · interrupted/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /\[codex two\] {3}.* Codex → working \(pty-scrape\)/.test(l)),
      lines.join('\n'),
    );
  });

  it('labels', () => {
    assert.strictEqual(stateLabel({ state: 'waiting', waitKind: 'reply-question' }), 'asked a question');
    assert.strictEqual(stateLabel({ state: 'failed', reason: 'API error 529' }), 'failed · API error 529');
    assert.strictEqual(stateLabel({ state: 'completed', reason: 'ignored' }), 'completed');
    assert.deepStrictEqual([duration(5_000), duration(125_000), duration(725_000), duration(7_500_000)], ['5s', '2m 5s', '12m', '2h 5m']);
    const { store } = world();
    assert.strictEqual(describeState(store.terminal('C')!, 0), 'shell');
  });

  it('a dialog lists its options and opens its terminal; a reply that asks is answered from here', () => {
    const store = new AgentStore();
    store.openTerminal('A', 'claude one');
    store.openTerminal('B', 'codex two');
    store.observe(obs('hook', 1000, 'waiting', { wait: 'question', question: 'Which test framework?', locator: { terminalId: 'A' } }));
    const q = store.waits()[0];
    // The hook knows the options; the screen saw the same dialog a moment later.
    store.observe({
      ...obs('hook', 1000, 'waiting', { locator: { terminalId: 'A' } }),
      wait: { kind: 'question', question: 'Which test framework?', options: ['Jest', 'Vitest'] },
    });
    store.observe(obs('pty-scrape', 1200, 'waiting', { wait: 'question', locator: { terminalId: 'A' } }));
    store.observe(
      obs('hook', 2000, 'waiting', { agent: 'codex', wait: 'reply-question', question: 'Shall I commit?', locator: { terminalId: 'B' } }),
    );
    const [group] = treeRows({ terminals: store.terminals(), waits: store.waits(), now: 5000 });
    const [dialog, reply] = group.children!;
    assert.strictEqual(dialog.waitId, q.id);
    assert.deepStrictEqual(dialog.command, { id: COMMAND_IDS.showTerminal, args: ['A'] });
    assert.deepStrictEqual(
      dialog.children!.map((c) => c.label),
      ['Which test framework?', '1. Jest', '2. Vitest'],
    );
    assert.match(dialog.tooltip!, /Answer in the terminal/);
    assert.deepStrictEqual(reply.command, { id: COMMAND_IDS.answerWait, args: [reply.waitId] });
    assert.strictEqual(reply.contextValue, 'wait.reply-question');
    assert.match(reply.description, /Codex · asked a question · 3s$/);
    assert.deepStrictEqual(
      reply.children!.map((c) => [c.label, c.command?.id]),
      [['Shall I commit?', COMMAND_IDS.answerWait]],
    );
  });

  it('lists each agent’s hook install state last, collapsed, with the file it lives in', () => {
    const store = new AgentStore();
    store.openTerminal('C', 'bash');
    const rows = treeRows({
      terminals: store.terminals(),
      waits: [],
      now: 0,
      hooks: [
        { agent: 'claude-code', scope: 'user', state: 'installed', path: '/h/.claude/settings.json' },
        {
          agent: 'codex',
          scope: 'user',
          state: 'absent',
          path: '/h/.codex/hooks.json',
          note: 'Codex asks to review new hooks at its next start.',
        },
      ],
    });
    const hooks = rows.at(-1)!;
    assert.deepStrictEqual([hooks.label, hooks.description, hooks.collapsed], ['Agent hooks', '1 of 2 installed', true]);
    assert.deepStrictEqual(
      hooks.children!.map((c) => [c.label, c.description, c.contextValue]),
      [
        ['Claude Code', 'hooks installed', 'hooks.installed'],
        ['Codex', 'no hooks (screen only)', 'hooks.absent'],
      ],
    );
    assert.match(hooks.children![1].tooltip!, /review/);
    assert.deepStrictEqual(hooks.children![1].hook, { agent: 'codex', scope: 'user' });
  });
});
