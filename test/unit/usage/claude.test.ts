import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { decoderFor, type LogEvent } from '../../../src/jsonl';
import { claudeMustParse } from '../../../src/jsonl/claude';
import { type SessionUsage, UsageBook } from '../../../src/usage/book';
import { type Tokens, NO_TOKENS, addTokens } from '../../../src/common/usage';
import { FIXTURES, ROOT } from '../helpers';

/**
 * Claude Code's usage from its real transcripts (test/fixtures/live/claude-code, ../shared/recordings/claude-code):
 * the book's figures equal what the transcript's own fields say (each message id once, `<synthetic>` never, the
 * `cost-state` totals when the session ended), and for 40-usage-two-turns what the mock served.
 */

/** A log line as parsed JSON: the tests read its fields the way the CLI wrote them. */
type Entry = Record<string, any>;

const SHARED = process.env.AGENT_LENS_SHARED_RECORDINGS ?? path.join(ROOT, '..', 'shared', 'recordings');
const ROOTS = { live: path.join(FIXTURES, 'live', 'claude-code'), shared: path.join(SHARED, 'claude-code') };

interface Fixture {
  key: string;
  dir: string;
  /** Subagent transcripts first (they are written before the session's end), then the session's own. */
  files: string[];
}

function fixtures(): Fixture[] {
  const out: Fixture[] = [];
  for (const [origin, root] of Object.entries(ROOTS)) {
    if (!fs.existsSync(root)) continue;
    for (const scenario of fs.readdirSync(root).sort()) {
      const dir = path.join(root, scenario);
      if (!fs.existsSync(path.join(dir, 'transcript.jsonl'))) continue;
      const subagents = fs.readdirSync(dir).filter((f) => /^transcript-\d+\.jsonl$/.test(f));
      out.push({ key: `${origin}/${scenario}`, dir, files: [...subagents, 'transcript.jsonl'].map((f) => path.join(dir, f)) });
    }
  }
  return out;
}

const lines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');

const entries = (f: Fixture): Entry[] => f.files.flatMap((file) => lines(file).map((l) => JSON.parse(l) as Entry));

/** Decodes the fixture's lines (those `keep` lets through) into one book; returns the session and the events. */
function decode(f: Fixture, keep: (e: Entry) => boolean = () => true): { s?: SessionUsage; events: LogEvent[]; problems: number } {
  const book = new UsageBook();
  const events: LogEvent[] = [];
  let problems = 0;
  for (const file of f.files) {
    const d = decoderFor('claude-code', undefined, file, book);
    for (const l of lines(file)) {
      if (!keep(JSON.parse(l) as Entry)) continue;
      for (const e of d.line(l)) {
        events.push(e);
        book.event(e);
      }
    }
    problems += d.problems.total;
  }
  assert.ok(book.all().length <= 1, 'one transcript is one session');
  return { s: book.all()[0], events, problems };
}

const isCall = (e: Entry) => e.type === 'assistant' && e.message?.model !== '<synthetic>' && e.isUnmetered !== true;
const usageTokens = (u: Entry): Tokens => ({
  input: u.input_tokens ?? 0,
  output: u.output_tokens ?? 0,
  cacheRead: u.cache_read_input_tokens ?? 0,
  cacheWrite: u.cache_creation_input_tokens ?? 0,
});

/** What the transcript's own fields say, computed apart from the decoder. */
function fromLog(all: Entry[]) {
  const byId = new Map<string, Tokens>();
  for (const e of all) if (isCall(e) && e.message.usage) byId.set(e.message.id, usageTokens(e.message.usage));
  const calls = [...byId.values()].reduce((a, t) => addTokens(a, t), NO_TOKENS);
  const costStates = all.filter((e) => e.type === 'cost-state');
  const last = costStates[costStates.length - 1];
  const costState = last
    ? Object.values(last.modelUsage as Record<string, Entry>).reduce<Tokens>(
        (a, m) =>
          addTokens(a, {
            input: m.inputTokens,
            output: m.outputTokens,
            cacheRead: m.cacheReadInputTokens,
            cacheWrite: m.cacheCreationInputTokens,
          }),
        NO_TOKENS,
      )
    : undefined;
  const main = all.filter((e) => e.isSidechain !== true);
  const lastCall = main.filter(isCall).pop();
  const boundaryAfter = !!lastCall && main.slice(main.indexOf(lastCall)).some((e) => e.subtype === 'compact_boundary');
  const u = lastCall?.message.usage as Entry | undefined;
  const texts = main
    .filter(isCall)
    .flatMap((e) => (e.message.content as Entry[]).filter((b) => b.type === 'text').map((b) => b.text as string));
  return {
    ids: byId.size,
    calls,
    costState,
    model: lastCall?.message.model as string | undefined,
    context: boundaryAfter ? 0 : u && u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens,
    reply: texts.filter((t) => t.trim() !== '').pop(),
  };
}

/** The mock's usage events (the last one per request n), added up. */
function mockServed(dir: string): { tokens: Tokens; requests: number } {
  const last = new Map<number, Entry>();
  for (const l of lines(path.join(dir, 'mock-requests.jsonl'))) {
    const e = JSON.parse(l) as Entry;
    if (e.event === 'usage') last.set(e.n, e);
  }
  const tokens = [...last.values()].reduce<Tokens>((a, e) => addTokens(a, { ...NO_TOKENS, input: e.input, output: e.output }), NO_TOKENS);
  return { tokens, requests: last.size };
}

const ALL = fixtures();
const get = (key: string) => {
  const f = ALL.find((x) => x.key === key);
  assert.ok(f, `no fixture ${key}`);
  return f;
};

describe('usage: Claude Code transcripts', () => {
  it('finds the transcripts, the new recording among them', () => {
    assert.ok(ALL.length >= 20, `${ALL.length} transcripts`);
    get('live/40-usage-two-turns');
  });

  for (const f of ALL) {
    it(`${f.key}: the figures are the transcript's own`, () => {
      const log = fromLog(entries(f));
      // Until the session ends, each API response once, by message id.
      const before = decode(f, (e) => e.type !== 'cost-state').s;
      assert.deepStrictEqual(before?.tokens ?? NO_TOKENS, log.calls);
      assert.strictEqual(before?.calls ?? 0, log.ids);
      // Then Claude's own totals (what /cost shows) replace them.
      const { s, problems } = decode(f);
      assert.strictEqual(problems, 0);
      assert.deepStrictEqual(s?.tokens ?? NO_TOKENS, log.costState ?? log.calls);
      assert.strictEqual(s?.model, log.model);
      assert.strictEqual(s?.contextUsed, log.context);
      assert.strictEqual(s?.lastReply, log.reply);
      assert.strictEqual(s?.contextWindow, undefined, 'a transcript never says the window');
    });
  }

  it('40-usage-two-turns: equals what the mock served, per call and in total', () => {
    const f = get('live/40-usage-two-turns');
    const served = mockServed(f.dir);
    assert.deepStrictEqual(served.tokens, { input: 40959, output: 53, cacheRead: 0, cacheWrite: 0 });
    const before = decode(f, (e) => e.type !== 'cost-state').s!;
    assert.deepStrictEqual(before.tokens, served.tokens);
    assert.strictEqual(before.calls, served.requests);
    const { s } = decode(f);
    // /cost in the same session showed "claude-opus-5-5: 41.0k input, 53 output, 0 cache read, 0 cache write".
    assert.deepStrictEqual(s!.tokens, served.tokens);
    assert.strictEqual(s!.turns, 2);
    assert.strictEqual(s!.contextUsed, 13719 + 5, 'the last call: input + output');
    assert.strictEqual(s!.lastReply, 'It has three lines.\n');
    assert.strictEqual(s!.model, 'claude-opus-5-5');
  });

  it('a response written as several entries counts once (04: text and tool_use of msg_mock_0003)', () => {
    const f = get('live/04-bash-permission-approve');
    assert.strictEqual(entries(f).filter((e) => e.message?.id === 'msg_mock_0003').length, 2);
    const s = decode(f, (e) => e.type !== 'cost-state').s!;
    assert.deepStrictEqual(s.tokens, { input: 13573 + 13659, output: 30 + 12, cacheRead: 0, cacheWrite: 0 });
    assert.strictEqual(s.calls, 2);
  });

  it('a subagent’s calls count toward the session, as in Claude’s own cost-state (25), not its context', () => {
    const f = get('live/25-background-subagent');
    const s = decode(f, (e) => e.type !== 'cost-state').s!;
    assert.deepStrictEqual(s.tokens, { input: 13572 + 13930 + 14286 + 6783, output: 30 + 10 + 19 + 9, cacheRead: 0, cacheWrite: 0 });
    assert.deepStrictEqual(fromLog(entries(f)).costState, s.tokens, 'cost-state: 48571 input, 68 output');
    assert.strictEqual(s.contextUsed, 14286 + 19, 'the last main-chain call');
  });

  it('cost-state adds what the entries do not show: the /compact call (24), an interrupted stream (08)', () => {
    const compact = decode(get('live/24-compact-after-question')).s!;
    assert.deepStrictEqual(compact.tokens, { input: 44120, output: 44, cacheRead: 0, cacheWrite: 0 });
    assert.strictEqual(compact.calls, 1, 'one call logged as an entry');
    assert.strictEqual(compact.contextUsed, 0, 'nothing counted in the context after the compact boundary');
    const esc = decode(get('live/08-esc-interrupt'));
    assert.strictEqual(decode(get('live/08-esc-interrupt'), (e) => e.type !== 'cost-state').s!.tokens.output, 1);
    assert.strictEqual(esc.s!.tokens.output, 67);
  });

  it('API errors (<synthetic> replies) are no calls, no model and no reply', () => {
    for (const key of ['live/09-api-error-529', 'live/21-headless-server-error', 'live/26-auth-401', 'live/27-model-404']) {
      const s = decode(get(key)).s;
      assert.ok(s, `${key}: the turn is still booked`);
      assert.strictEqual(s.calls, 0, key);
      assert.deepStrictEqual(s.tokens, NO_TOKENS, key);
      assert.strictEqual(s.model, undefined, key);
      assert.strictEqual(s.lastReply, undefined, key);
    }
  });

  it('the usage sink changes no state event', () => {
    for (const f of ALL) {
      const plain = f.files.flatMap((file) => {
        const d = decoderFor('claude-code', undefined, file);
        return lines(file).flatMap((l) => d.line(l));
      });
      assert.deepStrictEqual(decode(f).events, plain, f.key);
    }
  });

  it('the prefilter lets every line that carries usage through', () => {
    for (const f of ALL)
      for (const file of f.files)
        for (const l of lines(file)) {
          const e = JSON.parse(l) as Entry;
          const carries = e.type === 'assistant' || e.type === 'cost-state' || e.subtype === 'compact_boundary';
          assert.ok(!carries || claudeMustParse(l), `${f.key}: ${l.slice(0, 100)}`);
        }
  });

  it('a response whose usage grows while it streams is booked with its last figures', () => {
    const book = new UsageBook();
    const d = decoderFor('claude-code', undefined, undefined, book);
    const base = { type: 'assistant', sessionId: 's1', cwd: '/p', isSidechain: false };
    const entry = (t: string, out: number, block: object) =>
      JSON.stringify({
        ...base,
        timestamp: t,
        message: {
          id: 'msg_1',
          model: 'claude-x',
          content: [block],
          usage: { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 5, output_tokens: out },
        },
      });
    d.line(entry('2026-01-01T00:00:00.000Z', 3, { type: 'text', text: 'Reading.' }));
    d.line(entry('2026-01-01T00:00:01.000Z', 40, { type: 'tool_use', id: 't1', name: 'Read' }));
    const s = book.get('claude-code', 's1')!;
    assert.deepStrictEqual(s.tokens, { input: 10, output: 40, cacheRead: 100, cacheWrite: 5 });
    assert.strictEqual(s.calls, 1);
    assert.strictEqual(s.contextUsed, 155);
    assert.strictEqual(s.lastReply, 'Reading.');
    // A subagent's entry in the same file: its tokens count, the session's context and reply stay.
    d.line(
      JSON.stringify({
        ...JSON.parse(entry('2026-01-01T00:00:02.000Z', 7, { type: 'text', text: 'sub' })),
        isSidechain: true,
        message: { id: 'msg_2', model: 'claude-y', content: [{ type: 'text', text: 'sub' }], usage: { input_tokens: 1, output_tokens: 7 } },
      }),
    );
    assert.deepStrictEqual(s.tokens, { input: 11, output: 47, cacheRead: 100, cacheWrite: 5 });
    assert.strictEqual(s.contextUsed, 155);
    assert.strictEqual(s.lastReply, 'Reading.');
    assert.strictEqual(s.model, 'claude-x');
    assert.strictEqual(d.problems.total, 0);
  });
});
