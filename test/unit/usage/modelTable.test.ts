import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ModelFacts, normalizeModel, priced } from '../../../src/usage/figures';
import { MODEL_TABLE, PRICES_CHECKED, type ModelRow } from '../../../src/usage/modelTable';
import { FIXTURES } from '../helpers';

const facts = new ModelFacts();

function rowOf(model: string): string | undefined {
  return facts.find(model)?.prefix;
}

/** Every model id a recorded log or mock request names (`"model"`, `"modelId"`, `"modelID"` string fields). */
function recordedModelIds(): Set<string> {
  const ids = new Set<string>();
  const field = /"model(?:Id|ID)?"\s*:\s*"([^"\\]{1,100})"/g;
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.jsonl?$/.test(e.name)) for (const m of fs.readFileSync(p, 'utf8').matchAll(field)) ids.add(m[1]);
    }
  };
  walk(path.join(FIXTURES, 'live'));
  return ids;
}

/** The harness's own stand-ins (mock-model, gpt-4.1-mock, droid's custom:Mock-Model-0) and Claude Code's `<synthetic>`. */
function isStandIn(id: string): boolean {
  return /mock/i.test(id) || id === '<synthetic>';
}

describe('usage: the model table', () => {
  it('is dated, and every row names an https page and is reachable by its own prefix', () => {
    assert.match(PRICES_CHECKED, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(MODEL_TABLE.length > 50, `${MODEL_TABLE.length} rows`);
    for (const r of MODEL_TABLE) {
      assert.match(r.source, /^https:\/\/[a-z0-9.-]+\.[a-z]{2,}\//, r.prefix);
      assert.strictEqual(normalizeModel(r.prefix), r.prefix, `${r.prefix} is not in normalized form`);
      assert.strictEqual(rowOf(r.prefix), r.prefix, `${r.prefix} resolves to another row`);
    }
  });

  it('has no two rows of one prefix', () => {
    const seen = new Set<string>();
    for (const r of MODEL_TABLE) {
      assert.ok(!seen.has(r.prefix), `${r.prefix} twice`);
      seen.add(r.prefix);
    }
  });

  it('holds positive windows and prices; cache hits cost less than input, cache writes not less', () => {
    const positive = (n: number | undefined, what: string): void => assert.ok(n === undefined || (Number.isFinite(n) && n > 0), what);
    for (const r of MODEL_TABLE) {
      assert.ok(r.window !== undefined || r.price !== undefined, `${r.prefix} says nothing`);
      if (r.window !== undefined) assert.ok(Number.isInteger(r.window) && r.window >= 100_000, `${r.prefix} window ${r.window}`);
      const p = r.price;
      if (!p) continue;
      for (const k of ['input', 'output', 'cacheRead', 'cacheWrite'] as const) positive(p[k], `${r.prefix} ${k}`);
      assert.ok(p.output >= p.input, `${r.prefix}: output cheaper than input`);
      if (p.cacheRead !== undefined) assert.ok(p.cacheRead < p.input, `${r.prefix}: cache hit not cheaper`);
      if (p.cacheWrite !== undefined) assert.ok(p.cacheWrite >= p.input, `${r.prefix}: cache write cheaper than input`);
    }
  });

  it('resolves every real model id the recordings name', () => {
    const ids = [...recordedModelIds()];
    const real = ids.filter((id) => !isStandIn(id));
    for (const id of ['claude-opus-5-5', 'gpt-6.1-sol', 'gemini-3.8-flash', 'gemini-3.5-flash-lite', 'gpt-4.1']) {
      assert.ok(real.includes(id), `the recordings no longer name ${id}: ${real.join(', ')}`);
    }
    for (const id of real) assert.strictEqual(rowOf(id), normalizeModel(id), `${id} → ${rowOf(id)}`);
    // Continue's recordings name the mock `gpt-4.1-mock`: it is priced as GPT-4.1.
    assert.strictEqual(rowOf('gpt-4.1-mock'), 'gpt-4.1');
  });

  it('resolves dated, provider-prefixed, dotted and variant ids to their own row', () => {
    const cases: [string, string][] = [
      ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
      ['claude-haiku-4-5-20251001', 'claude-haiku-4-5'],
      ['claude-opus-4-1-20250805', 'claude-opus-4-1'],
      ['claude-opus-4-20250514', 'claude-opus-4'],
      ['claude-opus-4-0', 'claude-opus-4'],
      ['claude-sonnet-4-20250514', 'claude-sonnet-4'],
      ['claude-3-5-haiku-20241022', 'claude-3-5-haiku'],
      ['claude-opus-4-1@20250805', 'claude-opus-4-1'],
      ['anthropic/claude-opus-5-5', 'claude-opus-5-5'],
      ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'claude-sonnet-4-5'],
      ['anthropic.claude-fable-5-2', 'claude-fable-5-2'],
      // Copilot's and droid's dotted ids: without the dash form, Opus 4.5 would land on Opus 4 at 3× the price.
      ['claude-opus-4.5', 'claude-opus-4-5'],
      ['claude-sonnet-5.5', 'claude-sonnet-5-5'],
      ['claude-haiku-4.5', 'claude-haiku-4-5'],
      ['claude-fable-5.1', 'claude-fable-5-1'],
      ['Claude-Opus-5', 'claude-opus-5'],
      ['claude-mythos-5-1', 'claude-mythos-5-1'],
      ['openai/gpt-6.1-sol', 'gpt-6.1-sol'],
      ['gpt-6-sol', 'gpt-6-sol'],
      ['gpt-5-2025-08-07', 'gpt-5'],
      ['gpt-5-codex', 'gpt-5'],
      ['gpt-5-mini-2025-08-07', 'gpt-5-mini'],
      ['gpt-5.1-codex-max', 'gpt-5.1'],
      ['gpt-5.1-codex-mini', 'gpt-5.1-codex-mini'],
      ['gpt-5.2-codex', 'gpt-5.2'],
      ['gpt-5.3-codex-spark', 'gpt-5.3-codex-spark'],
      ['gpt-5.4-2026-03-05', 'gpt-5.4'],
      ['gpt-5.4-mini-2026-03-17', 'gpt-5.4-mini'],
      ['gpt-4.1-2025-04-14', 'gpt-4.1'],
      ['gpt-4.1-mini-2025-04-14', 'gpt-4.1-mini'],
      ['gpt-4o-2024-11-20', 'gpt-4o'],
      ['o4-mini-2025-04-16', 'o4-mini'],
      ['o3-pro-2025-06-10', 'o3-pro'],
      ['models/gemini-2.5-pro', 'gemini-2.5-pro'],
      ['google/gemini-3.8-flash', 'gemini-3.8-flash'],
      ['gemini-2.5-flash-lite-preview-09-2025', 'gemini-2.5-flash-lite'],
      ['gemini-3.1-pro-preview-customtools', 'gemini-3.1-pro'],
      ['gemini-3-pro-preview', 'gemini-3-pro'],
      ['gemini-3-flash-preview', 'gemini-3-flash'],
      ['gemini-3.1-flash-lite-preview', 'gemini-3.1-flash-lite'],
      ['gemma-4-31b-it', 'gemma-4'],
      ['qwen3-coder-plus-2025-09-23', 'qwen3-coder-plus'],
      ['dashscope/qwen3.7-max-2026-05-20', 'qwen3.7-max'],
      ['MiniMax-M2.7', 'minimax-m2.7'],
      ['glm-5.3-flash', 'glm-5.3-flash'],
    ];
    for (const [id, prefix] of cases) assert.strictEqual(rowOf(id), prefix, id);
  });

  it('knows the window of every default model the bundled agents name, and prices all but the unpriced', () => {
    const defaults = [
      ...['claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5', 'claude-fable-5-2'], // Claude Code's aliases
      'gpt-6.1-sol', // Codex
      ...['gemini-3.8-flash', 'gemini-3.5-flash', 'gemini-3.5-flash-lite', 'gemini-3.1-flash-lite', 'gemini-2.5-pro'], // Gemini CLI
      ...['qwen3.7-max', 'coder-model'], // Qwen Code
      ...['claude-opus-4-7', 'gpt-5.4', 'gpt-5.5', 'gemini-3.1-pro-preview', 'kimi-k2.6', 'glm-5.1', 'MiniMax-M2.7', 'deepseek-v4-pro'], // pi
    ];
    const unpriced = new Set(['coder-model', 'deepseek-v4-pro']);
    for (const id of defaults) {
      const row = facts.find(id);
      assert.ok(row?.window, `${id}: no window`);
      assert.strictEqual(row.price === undefined, unpriced.has(id), `${id}: price ${JSON.stringify(row.price)}`);
    }
  });

  it('prices a session by its row (Opus 5.5: $4 in, $20 out, $0.20 hits, $5 writes per million)', () => {
    const row = facts.find('claude-opus-5-5') as ModelRow;
    const cost = priced({ input: 1000, output: 2000, cacheRead: 100_000, cacheWrite: 10_000 }, row.price!);
    assert.ok(Math.abs(cost - (1000 * 4 + 2000 * 20 + 100_000 * 0.2 + 10_000 * 5) / 1e6) < 1e-12, String(cost));
    const user = new ModelFacts([{ prefix: 'claude-opus-5-5', price: { input: 1, output: 1 }, source: 'https://example.org/' }]);
    assert.deepStrictEqual(user.find('claude-opus-5-5-20261001')?.price, { input: 1, output: 1 });
  });
});
