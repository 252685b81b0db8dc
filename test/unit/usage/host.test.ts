import * as assert from 'assert';
import { AgentStore } from '../../../src/store/store';
import { UsageHost } from '../../../src/vscode/usage';
import type { AgentLensConfig } from '../../../src/vscode/config';
import type { NotifyEvent } from '../../../src/notify/message';
import { messageOf } from '../../../src/notify/message';
import { obs } from '../obs';

type UsageEvent = Extract<NotifyEvent, { kind: 'usage' }>;

/** The host looks at the sessions a batch of records changed once the batch is done (a microtask later). */
const settled = () => new Promise<void>((r) => setImmediate(r));

/** The usage host in a window of one Codex terminal whose log named session S. */
function windowWith(config: Partial<AgentLensConfig['usage']> = {}, prices: unknown = {}) {
  const store = new AgentStore();
  store.openTerminal('T', 'api');
  store.observe(obs('jsonl-watcher', 1000, 'working', { agent: 'codex', locator: { terminalId: 'T', sessionId: 'S' } }));
  const told: UsageEvent[] = [];
  const warned: string[] = [];
  const log = { warn: (m: string) => warned.push(m), info: () => undefined } as never;
  let renders = 0;
  const cfg = { usage: { showFrom: 0.7, warnFrom: 0.9, costBudget: 0, tokenBudget: 0, ...config }, usagePrices: prices } as AgentLensConfig;
  const host = new UsageHost(
    store,
    () => cfg,
    log,
    () => renders++,
    (e) => told.push(e),
  );
  return { store, host, told, warned, renders: () => renders };
}

describe('usage host: figures by terminal, and a warning told once per session and mark', () => {
  it('gives each agent terminal its session’s figures and tells a full context once', async () => {
    const w = windowWith();
    const rec = (contextUsed: number) =>
      w.host.book.usage({ agent: 'codex', sessionId: 'S', at: 2000, model: 'gpt-6.1-sol', contextUsed, contextWindow: 1000 });
    rec(500);
    assert.strictEqual(w.host.byTerminal(w.store.terminals()).get('T')?.contextFill, 0.5);
    await settled();
    assert.strictEqual(w.told.length, 0);
    rec(950);
    rec(960);
    await settled();
    rec(990);
    await settled();
    assert.strictEqual(w.told.length, 1, 'told once, not on every record');
    assert.match(w.told[0].warning, /^context 96% full/, 'as the batch of records left it');
    assert.strictEqual(w.told[0].terminal, 'api');
    assert.ok(w.renders() >= 3, 'every record repaints');
    const m = messageOf(w.told[0], false);
    assert.strictEqual(m.event, 'usage');
    assert.match(m.title, /^Codex: context 96% full/);
  });

  it('tells a cost budget passed, from the user’s own prices, and names a price it cannot use', async () => {
    const w = windowWith({ costBudget: 1 }, { 'gpt-6.1-sol': { input: 10, output: 10 }, broken: { input: 'x' } });
    assert.strictEqual(w.warned.length, 1);
    assert.match(w.warned[0], /agentLens\.usage\.prices\["broken"\] is left out/);
    w.host.book.usage({
      agent: 'codex',
      sessionId: 'S',
      at: 2000,
      model: 'gpt-6.1-sol',
      totals: { input: 200_000, output: 0, cacheRead: 0, cacheWrite: 0 },
    });
    await settled();
    assert.deepStrictEqual(w.told.length, 1);
    assert.match(w.told[0].warning, /cost \$2\.00 passed the budget of \$1\.00/);
  });

  it('lists every session, with the terminal that shows it, and leaves out sessions of other windows from warnings', async () => {
    const w = windowWith({ tokenBudget: 10 });
    w.host.book.usage({ agent: 'codex', sessionId: 'elsewhere', at: 1, totals: { input: 100, output: 0, cacheRead: 0, cacheWrite: 0 } });
    w.host.book.usage({ agent: 'codex', sessionId: 'S', at: 2, totals: { input: 5, output: 0, cacheRead: 0, cacheWrite: 0 } });
    await settled();
    const all = w.host.all();
    assert.deepStrictEqual(
      all.map((f) => [f.session, f.terminal?.name]),
      [
        ['S', 'api'],
        ['elsewhere', undefined],
      ],
    );
    assert.deepStrictEqual(w.told, [], 'no terminal here shows the other session; S is under its budget');
  });
});
