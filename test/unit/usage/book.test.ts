import * as assert from 'assert';
import { MAX_SESSIONS, TURNS_KEPT, UsageBook } from '../../../src/usage/book';
import { figures, ModelFacts, priced } from '../../../src/usage/figures';
import { priceOverrides } from '../../../src/usage/overrides';
import type { LogEvent } from '../../../src/jsonl/types';
import type { Tokens } from '../../../src/common/usage';

const T = (input: number, output: number, cacheRead = 0, cacheWrite = 0): Tokens => ({ input, output, cacheRead, cacheWrite });
const ev = (state: LogEvent['state'], at: number, prompt = false): LogEvent => ({
  agent: 'claude-code',
  sessionId: 's1',
  at,
  state,
  evidence: 'test',
  ...(prompt ? { prompt: true as const } : {}),
});

describe('usage book', () => {
  it('counts a call once however often its log repeats it, the newest figures winning', () => {
    const b = new UsageBook();
    // Claude Code writes one entry per content block of a response, each with the response's usage so far.
    b.usage({ agent: 'claude-code', sessionId: 's1', at: 1, model: 'claude-opus-5-5', call: { id: 'msg_1', tokens: T(100, 1) } });
    b.usage({ agent: 'claude-code', sessionId: 's1', at: 2, call: { id: 'msg_1', tokens: T(100, 40, 10, 5) } });
    b.usage({ agent: 'claude-code', sessionId: 's1', at: 3, call: { id: 'msg_2', tokens: T(20, 7) } });
    const s = b.get('claude-code', 's1')!;
    assert.deepStrictEqual(s.tokens, T(120, 47, 10, 5));
    assert.strictEqual(s.calls, 2);
    assert.deepStrictEqual(s.byModel.get('claude-opus-5-5'), T(120, 47, 10, 5));
  });

  it("takes an agent's running totals over its calls, and gives what they add to the model then in use", () => {
    const b = new UsageBook();
    b.usage({ agent: 'codex', sessionId: 'x', at: 1, model: 'gpt-a', totals: T(100, 10) });
    b.usage({ agent: 'codex', sessionId: 'x', at: 2, model: 'gpt-b', totals: T(150, 30, 20) });
    const s = b.get('codex', 'x')!;
    assert.deepStrictEqual(s.tokens, T(150, 30, 20));
    assert.deepStrictEqual(s.byModel.get('gpt-a'), T(100, 10));
    assert.deepStrictEqual(s.byModel.get('gpt-b'), T(50, 20, 20));
  });

  it('makes turns of prompts and ends: their count, tokens and wall time', () => {
    const b = new UsageBook();
    b.event(ev('working', 1000, true));
    b.usage({ agent: 'claude-code', sessionId: 's1', at: 1500, call: { id: 'a', tokens: T(100, 10) } });
    b.event(ev('working', 1600)); // a tool result inside the turn: no new turn
    b.usage({ agent: 'claude-code', sessionId: 's1', at: 1700, call: { id: 'b', tokens: T(120, 5) } });
    b.event(ev('completed', 3000));
    b.event(ev('failed', 3100)); // a second end of the same turn is not a turn
    b.event(ev('working', 4000, true));
    b.usage({ agent: 'claude-code', sessionId: 's1', at: 4100, call: { id: 'c', tokens: T(10, 1) } });
    b.event(ev('failed', 4500));
    const s = b.get('claude-code', 's1')!;
    assert.strictEqual(s.turns, 2);
    assert.deepStrictEqual(s.turnTokens, [235, 11]);
    assert.deepStrictEqual(s.turnMs, [2000, 500]);
  });

  it("counts a turn from its end alone when the log has no prompt record (Continue's), but not an end that added nothing", () => {
    const b = new UsageBook();
    const call = (id: string, n: number) => b.usage({ agent: 'claude-code', sessionId: 's1', at: 1, call: { id, tokens: T(n, 0) } });
    call('a', 100);
    b.event(ev('completed', 10));
    b.event(ev('failed', 11)); // the same turn's second word: nothing new since
    call('b', 50);
    b.event(ev('completed', 20));
    const s = b.get('claude-code', 's1')!;
    assert.strictEqual(s.turns, 2);
    assert.deepStrictEqual(s.turnTokens, [100, 50]);
    assert.deepStrictEqual(s.turnMs, [], 'no start, so no length');
  });

  it('stays bounded: sessions, turns and remembered calls', () => {
    const b = new UsageBook();
    for (let i = 0; i < MAX_SESSIONS + 20; i++) b.usage({ agent: 'codex', sessionId: `s${i}`, at: i, totals: T(1, 1) });
    assert.strictEqual(b.all().length, MAX_SESSIONS);
    assert.strictEqual(b.get('codex', 's0'), undefined, 'the least recently active session dropped off');
    assert.ok(b.get('codex', `s${MAX_SESSIONS + 19}`));
    for (let i = 0; i < TURNS_KEPT + 10; i++) {
      b.event(ev('working', i * 10, true));
      b.event(ev('completed', i * 10 + 5));
    }
    const s = b.get('claude-code', 's1')!;
    assert.strictEqual(s.turns, TURNS_KEPT + 10);
    assert.strictEqual(s.turnTokens.length, TURNS_KEPT);
    for (let i = 0; i < 200; i++) b.usage({ agent: 'claude-code', sessionId: 's1', at: 1, call: { id: `c${i}`, tokens: T(1, 1) } });
    assert.ok(s.recent.size <= 64);
    assert.strictEqual(s.tokens.input, 200);
  });

  it('keeps the last non-empty reply and the context figures', () => {
    const b = new UsageBook();
    b.usage({ agent: 'codex', sessionId: 'x', at: 1, reply: 'Done.\nMore', contextUsed: 1000, contextWindow: 4000 });
    b.usage({ agent: 'codex', sessionId: 'x', at: 2, reply: '   ' });
    const f = figures(b.get('codex', 'x')!, new ModelFacts());
    assert.strictEqual(f.lastReply, 'Done.\nMore');
    assert.strictEqual(f.contextFill, 0.25);
  });
});

describe('usage figures: cost and window', () => {
  it("uses the log's own cost only when it priced every call", () => {
    const b = new UsageBook();
    b.usage({
      agent: 'opencode',
      sessionId: 'o',
      at: 1,
      model: 'anthropic/claude-opus-5',
      call: { id: 'm1', tokens: T(1e6, 0), cost: 0.5 },
    });
    assert.deepStrictEqual(
      [figures(b.get('opencode', 'o')!, new ModelFacts()).cost, figures(b.get('opencode', 'o')!, new ModelFacts()).costSource],
      [0.5, 'log'],
    );
    b.usage({ agent: 'opencode', sessionId: 'o', at: 2, call: { id: 'm2', tokens: T(1e6, 0) } });
    const f = figures(b.get('opencode', 'o')!, new ModelFacts());
    assert.strictEqual(f.costSource, 'estimated', 'one call without a cost: the whole session is estimated from list prices');
    assert.ok(f.pricesChecked);
  });

  it('estimates from the table per model, with a user row winning over the shipped one', () => {
    const b = new UsageBook();
    b.usage({ agent: 'codex', sessionId: 'x', at: 1, model: 'my-model-2', call: { id: '1', tokens: T(2e6, 1e6, 1e6) } });
    assert.strictEqual(figures(b.get('codex', 'x')!, new ModelFacts()).costSource, null, 'an unknown model: no cost, not a guess');
    const { rows, errors } = priceOverrides({ 'my-model': { input: 1, output: 4, cacheRead: 0.1, window: 1000 } });
    assert.deepStrictEqual(errors, []);
    const f = figures(b.get('codex', 'x')!, new ModelFacts(rows));
    assert.strictEqual(f.costSource, 'estimated');
    assert.strictEqual(Math.round(f.cost! * 1000) / 1000, 2 + 4 + 0.1);
    assert.strictEqual(priced(T(1e6, 0, 0, 1e6), { input: 3, output: 15 }), 6, 'no cache price: the input price');
  });

  it('names each price override it leaves out, and keeps the rest', () => {
    const { rows, errors } = priceOverrides({
      good: { input: 1, output: 2 },
      bad: { input: -1, output: 2 },
      odd: { input: 1, output: 2, extra: 1 },
      '': { input: 1, output: 1 },
    });
    assert.deepStrictEqual(
      rows.map((r) => r.prefix),
      ['good'],
    );
    assert.strictEqual(errors.length, 3);
    assert.match(errors[0], /agentLens\.usage\.prices\["bad"\] is left out \(input: /);
    assert.deepStrictEqual(priceOverrides('nope').errors.length, 1);
  });

  it('finds a model by its longest prefix, ignoring case and a provider prefix', () => {
    const facts = new ModelFacts([
      { prefix: 'm', price: { input: 1, output: 1 }, source: 'x' },
      { prefix: 'm-large', price: { input: 9, output: 9 }, source: 'y' },
    ]);
    assert.strictEqual(facts.find('provider/M-Large-2')?.source, 'y');
    assert.strictEqual(facts.find('m-small')?.source, 'x');
    assert.strictEqual(facts.find(undefined), undefined);
  });
});
