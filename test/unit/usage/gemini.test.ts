import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGeminiDecoder } from '../../../src/jsonl/gemini';
import { UsageBook } from '../../../src/usage/book';
import { totalTokens } from '../../../src/common/usage';
import { decodeUsage, jsonLines, mockUsage, sessionLogs } from './geminiQwenLogs';

/**
 * Gemini CLI 0.61.0's usage, from its chat logs (src/jsonl/gemini.ts): each `gemini` message's `tokens` is the
 * response's usageMetadata ({input: prompt incl. cached, output: candidates, cached, thoughts, tool, total}); a
 * message written again with its tool calls repeats them and must not count twice.
 */

interface Logged {
  input: number;
  output: number;
  cached: number;
  thoughts: number;
  tool: number;
  total: number;
}

/** What the log itself says: the last write of each reply, by id. */
function loggedReplies(file: string) {
  let sessionId: string | undefined;
  let lines = 0;
  const byId = new Map<string, { tokens?: Logged; model?: string; content?: unknown }>();
  for (const e of jsonLines(file)) {
    if (typeof e.projectHash === 'string') sessionId ??= e.sessionId as string;
    if (e.type !== 'gemini') continue;
    lines++;
    byId.delete(e.id as string); // a rewrite is the newest
    byId.set(e.id as string, { tokens: e.tokens as Logged | undefined, model: e.model as string, content: e.content });
  }
  const replies = [...byId.values()];
  const sum = (k: keyof Logged) => replies.reduce((n, r) => n + (r.tokens?.[k] ?? 0), 0);
  return { sessionId, lines, replies, sum };
}

const LOGS = sessionLogs('gemini', 'gemini-session.jsonl');
/** `│    ↳ main    4    52,045    0    74    │` */
const MAIN_ROW = /↳ main +(\d+) +([\d,]+) +([\d,]+) +([\d,]+)/g;

describe('usage: Gemini CLI chat logs', () => {
  it('finds the recorded logs, and replies written twice among them', () => {
    assert.ok(LOGS.length >= 14, `only ${LOGS.length} logs`);
    const rewritten = LOGS.filter((l) => {
      const r = loggedReplies(l.file);
      return r.lines > r.replies.length;
    });
    assert.ok(rewritten.length >= 3, 'no log writes a reply again: replacement is not tested');
  });

  for (const log of LOGS) {
    it(`${log.key}: the figures are the log's own`, () => {
      const { sessions, problems } = decodeUsage('gemini', log.file);
      assert.deepStrictEqual(problems, []);
      const logged = loggedReplies(log.file);
      if (logged.replies.length === 0) {
        assert.strictEqual(sessions.length, 0, 'a log without replies has no usage');
        return;
      }
      assert.strictEqual(sessions.length, 1);
      const s = sessions[0]!;
      assert.strictEqual(s.sessionId, logged.sessionId);
      const withTokens = logged.replies.filter((r) => r.tokens);
      assert.strictEqual(s.calls, withTokens.length, 'one call per reply id');
      assert.strictEqual(s.tokens.cacheRead, logged.sum('cached'));
      assert.strictEqual(s.tokens.input + s.tokens.cacheRead, logged.sum('input') + logged.sum('tool'));
      assert.strictEqual(s.tokens.output, logged.sum('output') + logged.sum('thoughts'));
      assert.strictEqual(s.tokens.cacheWrite, 0);
      assert.strictEqual(totalTokens(s.tokens), logged.sum('total'), "the four add up to the log's total");
      const last = logged.replies[logged.replies.length - 1]!;
      assert.strictEqual(s.model, last.model);
      assert.strictEqual(s.contextUsed, withTokens[withTokens.length - 1]?.tokens?.input, "the last prompt's size");
      assert.strictEqual(s.contextWindow, undefined, 'the log names no window');
      const texts = logged.replies.map((r) => r.content).filter((c): c is string => typeof c === 'string' && c.trim() !== '');
      assert.strictEqual(s.lastReply, texts[texts.length - 1]);
    });

    const mock = mockUsage(log.dir);
    if (mock) {
      it(`${log.key}: the figures are what the mock served`, () => {
        const s = decodeUsage('gemini', log.file).sessions[0]!;
        assert.strictEqual(s.tokens.input + s.tokens.cacheRead, mock.input);
        assert.strictEqual(s.tokens.output, mock.output);
        assert.strictEqual(s.calls, mock.requests);
      });
    }
  }

  /**
   * Gemini CLI's own count, in the goodbye summary after /quit: the `↳ main` rows of "Model Usage" (Reqs, Input
   * Tokens = promptTokenCount incl. cached, Cache Reads, Output Tokens = candidates without thoughts).
   */
  const summaries = LOGS.filter((l) => fs.existsSync(path.join(l.dir, 'final-screen.txt'))).flatMap((l) => {
    const rows = [...fs.readFileSync(path.join(l.dir, 'final-screen.txt'), 'utf8').matchAll(MAIN_ROW)];
    return rows.length ? [{ log: l, rows: rows.map((m) => m.slice(1, 5).map((v) => Number(v.replace(/,/g, '')))) }] : [];
  });
  it('two recordings end with the goodbye summary', () => assert.ok(summaries.length >= 2, `${summaries.length}`));
  for (const { log, rows } of summaries) {
    it(`${log.key}: the figures are the CLI's own summary`, () => {
      const s = decodeUsage('gemini', log.file).sessions[0]!;
      const [reqs, input, cached, output] = [0, 1, 2, 3].map((i) => rows.reduce((n, r) => n + r[i]!, 0));
      assert.strictEqual(s.calls, reqs);
      assert.strictEqual(s.tokens.input + s.tokens.cacheRead, input);
      assert.strictEqual(s.tokens.cacheRead, cached);
      assert.strictEqual(s.tokens.output - loggedReplies(log.file).sum('thoughts'), output);
    });
  }

  it('live 09-multistep-quit: four calls from six reply lines', () => {
    const log = LOGS.find((l) => l.key === 'live/gemini/09-multistep-quit')!;
    const s = decodeUsage('gemini', log.file).sessions[0]!;
    assert.deepStrictEqual(s.tokens, { input: 12871 + 13008 + 13021 + 13145, output: 30 + 5 + 30 + 9, cacheRead: 0, cacheWrite: 0 });
    assert.strictEqual(s.calls, 4);
    assert.strictEqual(s.contextUsed, 13145);
    assert.strictEqual(s.model, 'gemini-3.8-flash');
    assert.strictEqual(s.lastReply, 'It printed the greeting: all good.');
  });

  it('the usage recording (40) has mock usage to compare with', () => {
    const log = LOGS.find((l) => l.key === 'live/gemini/40-usage-two-turns');
    assert.ok(log, 'no live/gemini/40-usage-two-turns recording');
    const mock = mockUsage(log.dir);
    assert.ok(mock && mock.requests >= 3, 'the mock logged no usage for the agent requests');
  });

  describe('what the live logs have not exercised', () => {
    const meta = '{"sessionId":"s1","projectHash":"h","startTime":"2026-01-01T00:00:00.000Z","kind":"main"}';
    const reply = (tokens: unknown, extra = '') =>
      `{"id":"r1","timestamp":"2026-01-01T00:00:01.000Z","type":"gemini","content":"Hi.","tokens":${JSON.stringify(tokens)},"model":"gemini-2.5-pro"${extra}}`;

    function decode(...lines: string[]) {
      const book = new UsageBook();
      const d = createGeminiDecoder(undefined, undefined, book);
      const events = lines.flatMap((l) => d.line(l));
      return { s: book.get('gemini', 's1'), events, problems: d.problems.total };
    }

    it('cached tokens are part of the prompt; thoughts are output; tool-use prompt tokens are input', () => {
      const { s } = decode(meta, reply({ input: 1000, output: 20, cached: 600, thoughts: 50, tool: 7, total: 1077 }));
      assert.deepStrictEqual(s?.tokens, { input: 407, output: 70, cacheRead: 600, cacheWrite: 0 });
      assert.strictEqual(s?.contextUsed, 1000);
    });

    it('a reply written again with new tokens replaces its first figures', () => {
      const { s } = decode(
        meta,
        reply({ input: 100, output: 5, cached: 0, thoughts: 0, tool: 0, total: 105 }),
        reply({ input: 100, output: 9, cached: 0, thoughts: 0, tool: 0, total: 109 }, ',"toolCalls":[]'),
      );
      assert.deepStrictEqual(s?.tokens, { input: 100, output: 9, cacheRead: 0, cacheWrite: 0 });
      assert.strictEqual(s?.calls, 1);
    });

    it('tokens of another shape lose their figures, not the reply', () => {
      const user = '{"id":"u1","timestamp":"2026-01-01T00:00:00.500Z","type":"user","content":[{"text":"hi"}]}';
      const { s, events, problems } = decode(meta, user, reply('lots'));
      assert.strictEqual(problems, 0);
      assert.deepStrictEqual(
        events.map((e) => e.state),
        ['working', 'completed'],
      );
      assert.strictEqual(s?.calls, 0);
      assert.strictEqual(s?.lastReply, 'Hi.');
    });
  });
});
