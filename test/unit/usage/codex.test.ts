import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { decoderFor, type LogEvent } from '../../../src/jsonl';
import { codexMustParse } from '../../../src/jsonl/codex';
import { CODEX_CONTEXT_BASELINE } from '../../../src/jsonl/codexUsage';
import { type SessionUsage, UsageBook } from '../../../src/usage/book';
import { contextFill } from '../../../src/usage/figures';
import { type Tokens, NO_TOKENS, addTokens } from '../../../src/common/usage';
import { FIXTURES, ROOT } from '../helpers';

/**
 * Codex's usage from its real rollouts (test/fixtures/live/codex, ../shared/recordings/codex): the book's figures
 * equal what the rollout's own fields say (its last `token_count`, which is also the sum of its per-response
 * `token_usage_record`s), and for 40-usage-two-turns what the mock served the session.
 */

/** A log line as parsed JSON: the tests read its fields the way the CLI wrote them. */
type Entry = Record<string, any>;

const SHARED = process.env.AGENT_LENS_SHARED_RECORDINGS ?? path.join(ROOT, '..', 'shared', 'recordings');
const ROOTS = { live: path.join(FIXTURES, 'live', 'codex'), shared: path.join(SHARED, 'codex') };

interface Fixture {
  key: string;
  dir: string;
  file: string;
}

function fixtures(): Fixture[] {
  const out: Fixture[] = [];
  for (const [origin, root] of Object.entries(ROOTS)) {
    if (!fs.existsSync(root)) continue;
    for (const scenario of fs.readdirSync(root).sort()) {
      const file = path.join(root, scenario, 'rollout.jsonl');
      if (fs.existsSync(file)) out.push({ key: `${origin}/${scenario}`, dir: path.dirname(file), file });
    }
  }
  return out;
}

const lines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');

const entries = (f: Fixture) => lines(f.file).map((l) => JSON.parse(l) as Entry);

function decode(f: Fixture): { s?: SessionUsage; events: LogEvent[]; problems: number } {
  const book = new UsageBook();
  const d = decoderFor('codex', undefined, f.file, book);
  const events = lines(f.file).flatMap((l) => d.line(l));
  for (const e of events) book.event(e);
  assert.ok(book.all().length <= 1, 'one rollout is one session');
  return { s: book.all()[0], events, problems: d.problems.total };
}

/** OpenAI counts: input includes the cached part. */
const asTokens = (u: Entry): Tokens => ({
  input: u.input_tokens - u.cached_input_tokens - u.cache_write_input_tokens,
  output: u.output_tokens,
  cacheRead: u.cached_input_tokens,
  cacheWrite: u.cache_write_input_tokens,
});

/** What the rollout's own fields say, computed apart from the decoder. */
function fromLog(all: Entry[]) {
  const infos = all
    .filter((e) => e.type === 'event_msg' && e.payload.type === 'token_count' && e.payload.info)
    .map((e) => e.payload.info as Entry);
  const info = infos[infos.length - 1];
  const records = new Map<string, Entry>();
  for (const e of all) if (e.type === 'token_usage_record') records.set(e.payload.response_id, e.payload.usage);
  const replies = all.flatMap((e): string[] => {
    const p = e.payload as Entry;
    if (e.type !== 'event_msg') return [];
    if (p.type === 'task_complete' && typeof p.last_agent_message === 'string') return [p.last_agent_message];
    if (p.type === 'item_completed' && p.item.type === 'AgentMessage') return [(p.item.content as Entry[]).map((c) => c.text).join('')];
    return [];
  });
  return {
    totals: info ? asTokens(info.total_token_usage) : NO_TOKENS,
    responses: [...records.values()].reduce<Tokens>((a, u) => addTokens(a, asTokens(u)), NO_TOKENS),
    context: info?.last_token_usage.total_tokens as number | undefined,
    window: info?.model_context_window as number | undefined,
    model: all.filter((e) => e.type === 'turn_context').pop()?.payload.model as string | undefined,
    reply: replies.filter((t) => t.trim() !== '').pop(),
  };
}

/** The mock's usage events (the last one per request n) of the requests `mine` keeps, added up. */
function mockServed(dir: string, mine: (request: Entry) => boolean): { tokens: Tokens; requests: number; others: number } {
  const kept = new Set<number>();
  let others = 0;
  const last = new Map<number, Entry>();
  for (const l of lines(path.join(dir, 'mock-requests.jsonl'))) {
    const e = JSON.parse(l) as Entry;
    if (e.method) mine(e) ? kept.add(e.n) : others++;
    else if (e.event === 'usage' && kept.has(e.n)) last.set(e.n, e);
  }
  const tokens = [...last.values()].reduce<Tokens>((a, e) => addTokens(a, { ...NO_TOKENS, input: e.input, output: e.output }), NO_TOKENS);
  return { tokens, requests: last.size, others };
}

const ALL = fixtures();
const get = (key: string) => {
  const f = ALL.find((x) => x.key === key);
  assert.ok(f, `no fixture ${key}`);
  return f;
};

describe('usage: Codex rollouts', () => {
  it('finds the rollouts, the new recording among them', () => {
    // ../shared/recordings is beside a developer's checkout, not in a clean clone: the live ones are always here.
    assert.ok(ALL.filter((f) => f.key.startsWith('live/')).length >= 19, `${ALL.length} rollouts`);
    get('live/40-usage-two-turns');
  });

  for (const f of ALL) {
    it(`${f.key}: the figures are the rollout's own`, () => {
      const log = fromLog(entries(f));
      const { s, problems } = decode(f);
      assert.strictEqual(problems, 0);
      assert.deepStrictEqual(s?.tokens ?? NO_TOKENS, log.totals);
      if (entries(f).some((e) => e.type === 'token_usage_record'))
        assert.deepStrictEqual(log.totals, log.responses, 'the totals are the responses added up');
      assert.strictEqual(s?.calls ?? 0, 0, 'Codex keeps totals; no call is counted twice');
      assert.strictEqual(s?.contextUsed, log.context);
      assert.strictEqual(s?.contextWindow, log.window);
      assert.strictEqual(s?.contextBaseline, log.context === undefined ? undefined : CODEX_CONTEXT_BASELINE);
      assert.strictEqual(s?.model, log.model);
      assert.strictEqual(s?.lastReply, log.reply);
    });
  }

  it('40-usage-two-turns: equals what the mock served the session; its title requests are another thread’s', () => {
    const f = get('live/40-usage-two-turns');
    const session = entries(f).find((e) => e.type === 'session_meta')!.payload.id as string;
    const served = mockServed(f.dir, (r) => r.headers['session-id'] === session);
    assert.deepStrictEqual(served.tokens, { input: 14798 + 14951 + 15045, output: 40 + 18 + 5, cacheRead: 0, cacheWrite: 0 });
    assert.strictEqual(served.requests, 3);
    assert.strictEqual(served.others, 2, 'one title request per prompt, each in its own thread: not in this rollout');
    const { s } = decode(f);
    assert.deepStrictEqual(s!.tokens, served.tokens);
    assert.strictEqual(s!.turns, 2);
    assert.strictEqual(s!.contextUsed, 15045 + 5, 'the last response: total_tokens');
    assert.strictEqual(s!.contextWindow, 258400);
    assert.strictEqual(s!.model, 'gpt-6.1-sol');
    assert.strictEqual(s!.lastReply, 'It has three lines.');
  });

  it('the fill is the one Codex shows: /status said "Context window: 99% left (15.1K used / 258K)" for these counts', () => {
    const s = decode(get('live/40-usage-two-turns')).s!;
    const fill = contextFill(s.contextUsed!, s.contextWindow!, s.contextBaseline ?? 0);
    assert.strictEqual(100 - Math.round(fill * 100), 99);
    assert.strictEqual(100 - Math.round((s.contextUsed! / s.contextWindow!) * 100), 94, 'without the baseline it would not be');
  });

  it('a turn aborted before any response has no usage (info null)', () => {
    const shared = fs.existsSync(ROOTS.shared) ? ['shared/07-interrupt-esc'] : [];
    for (const key of ['live/08-esc-interrupt', 'live/29-quit-while-working', ...shared]) {
      const s = decode(get(key)).s!;
      assert.deepStrictEqual(s.tokens, NO_TOKENS, key);
      assert.strictEqual(s.contextUsed, undefined, key);
      assert.strictEqual(s.model, 'gpt-6.1-sol', `${key}: the turn still names its model`);
    }
  });

  it('the usage sink changes no state event', () => {
    for (const f of ALL) {
      const d = decoderFor('codex', undefined, f.file);
      assert.deepStrictEqual(
        decode(f).events,
        lines(f.file).flatMap((l) => d.line(l)),
        f.key,
      );
    }
  });

  it('the prefilter lets every line that carries usage through', () => {
    for (const f of ALL)
      for (const l of lines(f.file)) {
        const e = JSON.parse(l) as Entry;
        const carries =
          e.type === 'turn_context' ||
          (e.type === 'event_msg' &&
            (['token_count', 'task_complete'].includes(e.payload.type) || e.payload.item?.type === 'AgentMessage'));
        assert.ok(!carries || codexMustParse(l), `${f.key}: ${l.slice(0, 100)}`);
      }
  });

  it('cached and cache-written input are apart from the fresh input (OpenAI counts include them)', () => {
    const book = new UsageBook();
    const d = decoderFor('codex', undefined, undefined, book);
    const at = '2026-01-01T00:00:00.000Z';
    d.line(JSON.stringify({ timestamp: at, type: 'session_meta', payload: { id: 's1', cwd: '/p' } }));
    const usage = {
      input_tokens: 1000,
      cached_input_tokens: 600,
      cache_write_input_tokens: 100,
      output_tokens: 50,
      reasoning_output_tokens: 20,
      total_tokens: 1050,
    };
    const info = { total_token_usage: usage, last_token_usage: usage, model_context_window: 100_000 };
    d.line(JSON.stringify({ timestamp: at, type: 'event_msg', payload: { type: 'token_count', info, rate_limits: null } }));
    const s = book.get('codex', 's1')!;
    assert.deepStrictEqual(s.tokens, { input: 300, output: 50, cacheRead: 600, cacheWrite: 100 });
    assert.strictEqual(s.contextUsed, 1050);
    assert.strictEqual(d.problems.total, 0);
  });
});
