import * as assert from 'assert';
import { AgentStore } from '../../../src/store/store';
import type { UsageFigures } from '../../../src/usage/figures';
import { historyLines, statusBar, treeRows, type ViewInput } from '../../../src/views/model';
import { detailRows } from '../../../src/views/usageRows';
import { DEFAULT_THRESHOLDS, money, sparkline, tokens, usageBadge, usageWarning } from '../../../src/views/usageText';
import { obs } from '../obs';

function figs(over: Partial<UsageFigures> = {}): UsageFigures {
  return {
    agent: 'codex',
    session: 'S',
    model: 'gpt-6.1-sol',
    turns: 2,
    tokens: { input: 40_000, output: 1_234, cacheRead: 8_000, cacheWrite: 0 },
    contextUsed: 186_048,
    contextWindow: 258_400,
    contextFill: 186_048 / 258_400,
    cost: 0.4213,
    costSource: 'estimated',
    pricesChecked: '2026-12-06',
    turnTokens: [100, 800, 400],
    turnMs: [2_000, 4_000],
    lastReply: '\n\nREADME.md has 3 lines.\nSecond line',
    partial: false,
    updatedAt: 0,
    ...over,
  };
}

function input(f: UsageFigures | undefined, thresholds = DEFAULT_THRESHOLDS): ViewInput {
  const store = new AgentStore();
  store.openTerminal('T', 'api');
  store.observe(obs('jsonl-watcher', 1000, 'working', { agent: 'codex', locator: { terminalId: 'T', sessionId: 'S' } }));
  return {
    terminals: store.terminals(),
    waits: [],
    now: 2000,
    activeTerminalId: 'T',
    usage: f ? new Map([['T', f]]) : undefined,
    thresholds,
  };
}

describe('usage in the views', () => {
  it('puts the context fill on the row from 70%, and a warning sign from 90%', () => {
    const row = (f: UsageFigures) => treeRows(input(f)).find((r) => r.terminalId === 'T')!;
    assert.match(row(figs()).description, /^Codex · working · ctx 72% · 1s$/);
    assert.doesNotMatch(row(figs({ contextUsed: 100_000, contextFill: 0.387 })).description, /ctx/);
    assert.match(row(figs({ contextFill: 0.93 })).description, / · ⚠ ctx 93% · 1s$/);
    assert.match(row(figs()).tooltip!, /Context: 186k of 258\.4k tokens \(72%\)/);
    assert.match(row(figs()).tooltip!, /Cost: \$0\.42 \(estimated from list prices of 2026-12-06\)/);
    assert.match(row(figs()).tooltip!, /Last reply: README\\\.md has 3 lines/);
    assert.match(row(figs()).tooltip!, /tokens per turn ▁█▄/);
    assert.match(row(figs({ turnMs: [65_000, 800] })).tooltip!, /the last took 0\.8s, 32s on average/);
  });

  it('warns of a budget passed, each kind once by name', () => {
    const t = { ...DEFAULT_THRESHOLDS, costBudget: 0.4, tokenBudget: 0 };
    assert.strictEqual(usageWarning(figs({ contextFill: 0.5 }), t)?.kind, 'cost');
    assert.strictEqual(usageBadge(figs({ contextFill: 0.5 }), t), '⚠ $0.42');
    const tk = { ...DEFAULT_THRESHOLDS, tokenBudget: 10_000 };
    assert.strictEqual(usageWarning(figs({ contextFill: 0.5 }), tk)?.kind, 'tokens');
    assert.strictEqual(usageWarning(figs({ contextFill: 0.5 }), DEFAULT_THRESHOLDS), undefined);
    assert.strictEqual(usageWarning(figs({ contextFill: 0.95 }), t)?.kind, 'context', 'a full context is told first');
  });

  it('shows every figure in Session Details, with a sparkline of tokens per turn', () => {
    const rows = detailRows(input(figs()));
    assert.strictEqual(rows.length, 1);
    assert.strictEqual(rows[0].description, 'gpt-6.1-sol · ctx 72% · ~$0.42');
    assert.deepStrictEqual(
      rows[0].children!.map((c) => c.label),
      [
        'Context 186k of 258.4k (72%)',
        'Tokens: 40k in · 1.23k out · 8k cache read · 0 cache write',
        'Cost: $0.42 (estimated from list prices of 2026-12-06)',
        'README.md has 3 lines.',
        'Turns: 2, the last took 4.0s, 3.0s on average; tokens per turn ▁█▄',
      ],
    );
    assert.strictEqual(detailRows(input(undefined))[0].key, 'usage:none');
  });

  it('adds the window up in the status bar, and the active session in its tooltip and the history', () => {
    const sb = statusBar(input(figs()));
    assert.match(sb.summary!.tooltip, /1 sessions: 49\.2k tokens · \$0\.42 \(partly estimated\)/);
    assert.match(sb.active!.tooltip, /gpt-6\.1-sol · context 186k\/258\.4k \(72%\)/);
    assert.ok(historyLines(input(figs())).some((l) => l.includes('usage: gpt-6.1-sol')));
  });

  it('reads numbers as people do', () => {
    assert.deepStrictEqual([tokens(950), tokens(12_345), tokens(120_000), tokens(1_234_567)], ['950', '12.3k', '120k', '1.23M']);
    assert.deepStrictEqual([money(0), money(0.004), money(12.3)], ['$0.00', '<$0.01', '$12.30']);
    assert.strictEqual(sparkline([]), '');
    assert.strictEqual(sparkline([0, 0]), '▁▁');
  });
});
