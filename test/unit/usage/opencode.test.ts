import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import {
  createOpenCodeDecoder,
  type LogEvent,
  type MessageRow,
  type OpenCodeRows,
  type PartRow,
  type SessionRow,
} from '../../../src/jsonl';
import type { OpenCodeFamily } from '../../../src/agents/opencode/family';
import { UsageBook, type SessionUsage } from '../../../src/usage/book';
import { FIXTURES, ROOT } from '../helpers';

/**
 * Usage from OpenCode's and Kilo's database rows, over the rows the real CLIs wrote (the harness's storage.json /
 * kilo-storage.json: `{db, session, message, part}`, `data` parsed, as src/replay/logFiles.ts reads them). The book's
 * figures must be the rows' own: the assistant messages' tokens and cost, the session row's running totals (which
 * OpenCode adds up itself), the TUI's context figure, the last text part; and for the recordings made with the
 * usage-logging mock, what the mock served.
 */

const SHARED = process.env.AGENT_LENS_SHARED_RECORDINGS ?? path.join(ROOT, '..', 'shared', 'recordings');

interface Fixture {
  key: string;
  agent: OpenCodeFamily;
  dir: string;
  rows: OpenCodeRows;
}

function fixtures(): Fixture[] {
  const out: Fixture[] = [];
  const roots: [string, string, OpenCodeFamily, string][] = [
    ['live', path.join(FIXTURES, 'live', 'opencode'), 'opencode', 'storage.json'],
    ['live', path.join(FIXTURES, 'live', 'kilocode'), 'kilocode', 'kilo-storage.json'],
    ['shared', path.join(SHARED, 'opencode'), 'opencode', 'storage.json'],
  ];
  for (const [origin, dir, agent, file] of roots) {
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir).sort()) {
      const f = path.join(dir, name, file);
      if (!fs.existsSync(f)) continue;
      const o = JSON.parse(fs.readFileSync(f, 'utf8')) as OpenCodeRows;
      out.push({
        key: `${origin}/${agent}/${name}`,
        agent,
        dir: path.join(dir, name),
        rows: { session: o.session, message: o.message, part: o.part },
      });
    }
  }
  return out;
}

type Data = Record<string, any>;
const dataOf = (r: { data: unknown }): Data => (typeof r.data === 'string' ? (JSON.parse(r.data) as Data) : (r.data as Data));

/** What the rows themselves say, computed without the decoder. */
function fromRows(rows: OpenCodeRows, sessionId: string) {
  const msgs = rows.message
    .filter((m) => m.session_id === sessionId)
    .map((m) => ({ id: m.id, d: dataOf(m) }))
    .sort((a, b) => a.d.time.created - b.d.time.created || (a.id < b.id ? -1 : 1));
  const asst = msgs.filter((m) => m.d.role === 'assistant');
  const t = (m: { d: Data }) => m.d.tokens ?? {};
  const sum = (f: (m: { d: Data }) => number) => asst.reduce((a, m) => a + f(m), 0);
  const tokens = {
    input: sum((m) => t(m).input ?? 0),
    output: sum((m) => (t(m).output ?? 0) + (t(m).reasoning ?? 0)),
    cacheRead: sum((m) => t(m).cache?.read ?? 0),
    cacheWrite: sum((m) => t(m).cache?.write ?? 0),
  };
  const withTokens = asst.filter((m) => Object.values(flat(t(m))).some((v) => v > 0));
  const ctx = [...asst].reverse().find((m) => (t(m).output ?? 0) > 0);
  const last = asst[asst.length - 1];
  const asstIds = new Set(asst.map((m) => m.id));
  const texts = rows.part
    .filter((p) => asstIds.has(p.message_id))
    .map((p) => ({ id: p.id, d: dataOf(p) }))
    .filter((p) => p.d.type === 'text' && typeof p.d.text === 'string' && p.d.text.trim() !== '')
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  return {
    tokens,
    calls: withTokens.length,
    cost: withTokens.reduce((a, m) => a + (m.d.cost as number), 0),
    contextUsed: ctx ? Object.values(flat(t(ctx))).reduce((a, v) => a + v, 0) : undefined,
    model: last ? `${last.d.providerID}/${last.d.modelID}` : undefined,
    reply: texts.length ? (texts[texts.length - 1]!.d.text as string) : undefined,
  };
}

/** input, output, reasoning, cache read, cache write (not `total`, which some rows add). */
function flat(t: Data): Record<string, number> {
  return { input: t.input ?? 0, output: t.output ?? 0, reasoning: t.reasoning ?? 0, read: t.cache?.read ?? 0, write: t.cache?.write ?? 0 };
}

function decodeAll(f: Fixture): UsageBook {
  const book = new UsageBook();
  const d = createOpenCodeDecoder(undefined, f.agent, book);
  for (const e of d.rows(f.rows)) book.event(e);
  assert.strictEqual(d.problems.total, 0, `${f.key}: ${JSON.stringify(d.problems.byKind())}`);
  return book;
}

/** Row by row in `key` order, as the poller sees a session grow (time_created: replay --log's order). */
function decodeOneByOne(f: Fixture, key: 'time_created' | 'time_updated'): UsageBook {
  const book = new UsageBook();
  const d = createOpenCodeDecoder(undefined, f.agent, book);
  for (const e of d.rows({ session: f.rows.session, message: [], part: [] })) book.event(e);
  const rest = [
    ...f.rows.message.map((r) => ({ t: r[key], id: r.id, feed: { session: [], message: [r], part: [] } })),
    ...f.rows.part.map((r) => ({ t: r[key], id: r.id, feed: { session: [], message: [], part: [r] } })),
  ].sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : 1));
  for (const x of rest) for (const e of d.rows(x.feed)) book.event(e);
  return book;
}

function assertFigures(key: string, s: SessionUsage | undefined, want: ReturnType<typeof fromRows>): void {
  if (want.calls === 0 && want.model === undefined) return assert.strictEqual(s, undefined, `${key}: nothing to book`);
  assert.ok(s, `${key}: session booked`);
  assert.deepStrictEqual(s.tokens, want.tokens, `${key}: tokens`);
  assert.strictEqual(s.calls, want.calls, `${key}: calls`);
  assert.strictEqual(s.pricedCalls, want.calls, `${key}: every row has its cost`);
  assert.ok(Math.abs(s.loggedCost - want.cost) < 1e-9, `${key}: cost ${s.loggedCost} vs ${want.cost}`);
  assert.strictEqual(s.contextUsed, want.contextUsed, `${key}: context`);
  assert.strictEqual(s.model, want.model, `${key}: model`);
  assert.strictEqual(s.lastReply, want.reply, `${key}: reply`);
}

describe('usage from OpenCode and Kilo rows', () => {
  const all = fixtures();

  it('finds the recorded rows of both agents', () => {
    for (const a of ['opencode', 'kilocode']) assert.ok(all.filter((f) => f.agent === a).length >= 10, `${a} fixtures`);
  });

  for (const f of all) {
    it(`${f.key}: the book's figures are the rows' own, however the rows arrive`, () => {
      // In time_updated order a message's final row comes after its text parts, which the poller never sees: it reads
      // the message when it is created, before its parts. So that order is held to everything but the reply.
      const books = [decodeAll(f), decodeOneByOne(f, 'time_created'), decodeOneByOne(f, 'time_updated')];
      for (const s of f.rows.session.filter((x) => x.parent_id == null)) {
        const want = fromRows(f.rows, s.id);
        for (const [i, book] of books.entries())
          assertFigures(`${f.key} #${i}`, book.get(f.agent, s.id), i < 2 ? want : { ...want, reply: book.get(f.agent, s.id)?.lastReply });
      }
    });
  }

  it("equals the session rows' own running totals (OpenCode adds up each step's tokens and cost there)", () => {
    let compared = 0;
    for (const f of all) {
      const book = decodeAll(f);
      for (const row of f.rows.session as (SessionRow & Data)[]) {
        if (typeof row.tokens_input !== 'number' || row.tokens_input === 0) continue;
        const s = book.get(f.agent, row.id)!;
        assert.deepStrictEqual(
          s.tokens,
          {
            input: row.tokens_input,
            output: row.tokens_output + row.tokens_reasoning,
            cacheRead: row.tokens_cache_read,
            cacheWrite: row.tokens_cache_write,
          },
          f.key,
        );
        assert.ok(Math.abs(s.loggedCost - row.cost) < 1e-9, f.key);
        compared++;
      }
    }
    assert.ok(compared >= 20, `${compared} sessions compared`);
  });

  describe('the recordings made with the usage-logging mock', () => {
    const recorded = all.filter((f) => f.key.endsWith('/40-usage-two-turns'));

    it('exist for OpenCode and Kilo', () => {
      assert.deepStrictEqual(recorded.map((f) => f.agent).sort(), ['kilocode', 'opencode']);
    });

    for (const f of recorded) {
      it(`${f.key}: tokens, calls, context and reply equal what the mock served`, () => {
        const served = mockUsage(f.dir);
        const book = decodeOneByOne(f, 'time_created'); // one row at a time: the turns are seen open and close
        const top = f.rows.session.filter((s) => s.parent_id == null);
        assert.strictEqual(top.length, 1);
        const s = book.get(f.agent, top[0]!.id)!;
        assert.strictEqual(served.length, 3, 'three agent requests: the read, its answer, the second answer');
        const sum = (k: 'input' | 'output') => served.reduce((a, u) => a + u[k], 0);
        // The mock reports no cache: OpenCode's fresh input is the whole prompt_tokens.
        assert.deepStrictEqual(s.tokens, { input: sum('input'), output: sum('output'), cacheRead: 0, cacheWrite: 0 });
        assert.strictEqual(s.calls, 3);
        const last = served[served.length - 1]!;
        assert.strictEqual(s.contextUsed, last.input + last.output);
        assert.strictEqual(s.model, 'mock/mock-model');
        assert.strictEqual(s.lastReply, lastServedText(f.dir));
        assert.strictEqual(s.lastReply?.split('\n')[0], 'The project is called demo-app.');
        assert.strictEqual(s.turns, 2);
      });
    }
  });
});

/** The mock's usage events of the agent's own requests (not the title request), the last per request, in order. */
function mockUsage(dir: string): { input: number; output: number }[] {
  const lines = fs
    .readFileSync(path.join(dir, 'mock-requests.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Data);
  const agentRequests = new Set(lines.filter((l) => l.method === 'POST' && l.kind === 'agent').map((l) => l.n as number));
  const byN = new Map<number, { input: number; output: number }>();
  for (const l of lines) if (l.event === 'usage' && agentRequests.has(l.n)) byN.set(l.n, { input: l.input, output: l.output });
  return [...byN.entries()].sort((a, b) => a[0] - b[0]).map(([, u]) => u);
}

function lastServedText(dir: string): string {
  const script = JSON.parse(fs.readFileSync(path.join(dir, 'mock-script.json'), 'utf8')) as Data;
  const turns = (script.turns ?? script.mock?.turns) as Data[];
  return turns.filter((t) => t.type === 'text').pop()!.text as string;
}

describe('usage from OpenCode rows: what a row may and may not say', () => {
  const S = 'ses_1';
  const session: SessionRow = { id: S, directory: '/p', parent_id: null, time_created: 1, time_updated: 1 };
  const msg = (id: string, created: number, data: Data): MessageRow => ({
    id,
    session_id: S,
    time_created: created,
    time_updated: created,
    data: JSON.stringify({ time: { created }, ...data }),
  });
  const part = (id: string, messageId: string, data: Data): PartRow => ({
    id,
    message_id: messageId,
    session_id: S,
    time_created: 5,
    time_updated: 5,
    data: JSON.stringify(data),
  });
  const asst = (tokens: Data, extra: Data = {}) => ({ role: 'assistant', modelID: 'm1', providerID: 'p', tokens, ...extra });
  const run = (...feeds: Partial<OpenCodeRows>[]): { book: UsageBook; events: LogEvent[] } => {
    const book = new UsageBook();
    const d = createOpenCodeDecoder(undefined, 'opencode', book);
    const events = d.rows({ session: [session], message: [], part: [] });
    for (const f of feeds) events.push(...d.rows({ session: [], message: [], part: [], ...f }));
    return { book, events };
  };

  it('a message rewritten while it streams is one call, its last figures', () => {
    const zero = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
    const done = { input: 100, output: 20, reasoning: 5, cache: { read: 300, write: 7 } };
    const { book } = run(
      { message: [msg('msg_a', 2, asst(zero, { cost: 0 }))] },
      { message: [msg('msg_a', 2, asst(done, { cost: 0.5 }))] },
    );
    const s = book.get('opencode', S)!;
    assert.deepStrictEqual(s.tokens, { input: 100, output: 25, cacheRead: 300, cacheWrite: 7 });
    assert.deepStrictEqual([s.calls, s.pricedCalls, s.loggedCost], [1, 1, 0.5]);
    assert.strictEqual(s.contextUsed, 432);
    assert.strictEqual(s.model, 'p/m1');
  });

  it('a row without a numeric cost is not priced; a model without a provider is its id', () => {
    const { book } = run({ message: [msg('msg_a', 2, { role: 'assistant', modelID: 'm2', tokens: { input: 1, output: 1 } })] });
    const s = book.get('opencode', S)!;
    assert.deepStrictEqual([s.calls, s.pricedCalls, s.model], [1, 0, 'm2']);
  });

  it('the context is the newest message with output, even when an older one is rewritten after it', () => {
    const { book } = run(
      { message: [msg('msg_b', 3, asst({ input: 50, output: 5 }))] },
      { message: [msg('msg_a', 2, asst({ input: 10, output: 1 }))] },
      { message: [msg('msg_c', 4, asst({ input: 0, output: 0 }, { error: { name: 'MessageAbortedError' } }))] },
    );
    const s = book.get('opencode', S)!;
    assert.strictEqual(s.contextUsed, 55);
    assert.strictEqual(s.calls, 2);
  });

  it("the reply is the newest text part of an assistant message, not the user's prompt", () => {
    const { book } = run(
      { message: [msg('msg_a', 2, asst({ input: 1, output: 1 })), msg('msg_b', 3, { role: 'user' })] },
      {
        part: [part('prt_1', 'msg_a', { type: 'text', text: 'Done.\nDetails.' }), part('prt_2', 'msg_b', { type: 'text', text: 'next?' })],
      },
      { part: [part('prt_0', 'msg_a', { type: 'text', text: 'older text' })] },
    );
    assert.strictEqual(book.get('opencode', S)!.lastReply, 'Done.\nDetails.');
  });

  it("a subagent's session is not booked", () => {
    const book = new UsageBook();
    const d = createOpenCodeDecoder(undefined, 'kilocode', book);
    d.rows({ session: [{ ...session, id: 'ses_sub', parent_id: S }], message: [], part: [] });
    d.rows({ session: [], message: [{ ...msg('msg_a', 2, asst({ input: 1, output: 1 })), session_id: 'ses_sub' }], part: [] });
    assert.strictEqual(book.all().length, 0);
  });

  it('broken token fields count as 0, and the message still decides the state', () => {
    const broken = asst({ input: 'x', output: 3, cache: null }, { cost: 'free', finish: 'stop' });
    const { book, events } = run({ message: [msg('msg_a', 2, { ...broken, time: { created: 2, completed: 3 } })] });
    assert.deepStrictEqual(
      events.map((e) => e.state),
      ['completed'],
    );
    const s = book.get('opencode', S)!;
    assert.deepStrictEqual(s.tokens, { input: 0, output: 3, cacheRead: 0, cacheWrite: 0 });
    assert.strictEqual(s.pricedCalls, 0);
  });
});
