import * as assert from 'assert';
import { createQwenDecoder } from '../../../src/jsonl/qwen';
import { UsageBook } from '../../../src/usage/book';
import { totalTokens } from '../../../src/common/usage';
import { decodeUsage, jsonLines, mockUsage, sessionLogs } from './geminiQwenLogs';

/**
 * Qwen Code 0.24.4's usage, from its chat logs (src/jsonl/qwen.ts): each `assistant` record carries the response's
 * `usageMetadata` (promptTokenCount incl. cached, candidatesTokenCount, thoughtsTokenCount, totalTokenCount,
 * cachedContentTokenCount) and the model; its `qwen-code.api_response` telemetry record says the same counts again.
 */

interface Metadata {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  cachedContentTokenCount: number;
}

function logged(file: string) {
  const records = jsonLines(file);
  const assistant = records.filter((e) => e.type === 'assistant');
  const usage = assistant.map((e) => e.usageMetadata as Metadata | undefined).filter((u): u is Metadata => !!u);
  const sum = (f: (u: Metadata) => number) => usage.reduce((n, u) => n + f(u), 0);
  // The telemetry of the same responses: a second account in the same log.
  const telemetry = records
    .map((e) => (e.systemPayload as { uiEvent?: Record<string, unknown> } | undefined)?.uiEvent)
    .filter((u) => u?.['event.name'] === 'qwen-code.api_response') as Array<Record<string, number>>;
  const tsum = (k: string) => telemetry.reduce((n, u) => n + u[k]!, 0);
  return { assistant, usage, sum, telemetry, tsum };
}

const text = (e: Record<string, unknown>) =>
  ((e.message as { parts?: Array<{ text?: string; thought?: boolean }> }).parts ?? [])
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => p.text)
    .join('');

const LOGS = sessionLogs('qwen', 'qwen-session.jsonl');

describe('usage: Qwen Code chat logs', () => {
  it('finds the recorded logs', () => {
    assert.ok(LOGS.length >= 13, `only ${LOGS.length} logs`);
  });

  for (const log of LOGS) {
    it(`${log.key}: the figures are the log's own`, () => {
      const { sessions, problems } = decodeUsage('qwen', log.file);
      assert.deepStrictEqual(problems, []);
      const l = logged(log.file);
      if (l.assistant.length === 0) {
        assert.strictEqual(sessions.length, 0, 'a log without responses has no usage');
        return;
      }
      assert.strictEqual(sessions.length, 1);
      const s = sessions[0]!;
      assert.strictEqual(s.sessionId, l.assistant[0]!.sessionId);
      assert.strictEqual(s.calls, l.usage.length);
      assert.strictEqual(
        s.tokens.cacheRead,
        l.sum((u) => u.cachedContentTokenCount),
      );
      assert.strictEqual(
        s.tokens.input + s.tokens.cacheRead,
        l.sum((u) => u.promptTokenCount),
      );
      assert.strictEqual(
        totalTokens(s.tokens),
        l.sum((u) => u.totalTokenCount),
        "the four add up to the log's total",
      );
      assert.strictEqual(s.tokens.cacheWrite, 0);
      // The telemetry records count the same responses the same way.
      assert.strictEqual(l.telemetry.length, l.usage.length);
      assert.strictEqual(s.tokens.input + s.tokens.cacheRead, l.tsum('input_token_count'));
      assert.strictEqual(s.tokens.output, l.tsum('total_token_count') - l.tsum('input_token_count'));
      const last = l.assistant[l.assistant.length - 1]!;
      assert.strictEqual(s.model, last.model);
      assert.strictEqual(s.contextUsed, l.usage[l.usage.length - 1]?.promptTokenCount, "the last prompt's size");
      assert.strictEqual(s.contextWindow, last.contextWindowSize, 'the window only where the log says it');
      const replies = l.assistant.map(text).filter((t) => t.trim() !== '');
      assert.strictEqual(s.lastReply, replies[replies.length - 1]);
    });

    const mock = mockUsage(log.dir);
    if (mock) {
      it(`${log.key}: the figures are what the mock served`, () => {
        const s = decodeUsage('qwen', log.file).sessions[0]!;
        assert.strictEqual(s.tokens.input + s.tokens.cacheRead, mock.input);
        assert.strictEqual(s.tokens.output, mock.output);
        assert.strictEqual(s.calls, mock.requests);
      });
    }
  }

  it('live 09-multistep-quit: four responses', () => {
    const log = LOGS.find((l) => l.key === 'live/qwen/09-multistep-quit')!;
    const s = decodeUsage('qwen', log.file).sessions[0]!;
    assert.deepStrictEqual(s.tokens, { input: 20843 + 20953 + 20982 + 21085, output: 30 + 5 + 30 + 9, cacheRead: 0, cacheWrite: 0 });
    assert.strictEqual(s.calls, 4);
    assert.strictEqual(s.contextUsed, 21085);
    assert.strictEqual(s.model, 'mock-model');
    assert.strictEqual(s.lastReply, 'It printed the greeting: all good.');
  });

  it('live 07-esc-interrupt: the response cut short has its text but no usage', () => {
    const log = LOGS.find((l) => l.key === 'live/qwen/07-esc-interrupt')!;
    const s = decodeUsage('qwen', log.file).sessions[0]!;
    assert.strictEqual(s.calls, 0);
    assert.match(s.lastReply ?? '', /^Here is a step-by-step plan/);
  });

  it('the usage recording (40) has mock usage to compare with', () => {
    const log = LOGS.find((l) => l.key === 'live/qwen/40-usage-two-turns');
    assert.ok(log, 'no live/qwen/40-usage-two-turns recording');
    const mock = mockUsage(log.dir);
    assert.ok(mock && mock.requests >= 3, 'the mock logged no usage for the agent requests');
  });

  describe('what the live logs have not exercised', () => {
    const record = (usage: unknown, extra = '') =>
      `{"uuid":"a1","sessionId":"s1","timestamp":"2026-01-01T00:00:01.000Z","type":"assistant","provenance":"assistant_output","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"text":"thinking…","thought":true},{"text":"Hi."}]},"usageMetadata":${JSON.stringify(usage)}${extra}}`;

    function decode(...lines: string[]) {
      const book = new UsageBook();
      const d = createQwenDecoder(undefined, undefined, book);
      for (const l of lines) d.line(l);
      return { s: book.get('qwen', 's1'), problems: d.problems.total };
    }

    it('OpenAI-style: reasoning inside the candidates, cached inside the prompt; the logged window', () => {
      const u = {
        promptTokenCount: 1000,
        candidatesTokenCount: 80,
        thoughtsTokenCount: 50,
        totalTokenCount: 1080,
        cachedContentTokenCount: 600,
      };
      const { s } = decode(record(u, ',"contextWindowSize":1000000'));
      assert.deepStrictEqual(s?.tokens, { input: 400, output: 80, cacheRead: 600, cacheWrite: 0 });
      assert.strictEqual(s?.contextUsed, 1000);
      assert.strictEqual(s?.contextWindow, 1_000_000);
      assert.strictEqual(s?.lastReply, 'Hi.', 'thought parts are not the reply');
    });

    it('Gemini-style: thoughts beside the candidates are output too', () => {
      const u = { promptTokenCount: 1000, candidatesTokenCount: 30, thoughtsTokenCount: 50, totalTokenCount: 1080 };
      assert.deepStrictEqual(decode(record(u)).s?.tokens, { input: 1000, output: 80, cacheRead: 0, cacheWrite: 0 });
    });

    it('no total: the candidates; no prompt: the context is the total', () => {
      assert.deepStrictEqual(decode(record({ promptTokenCount: 10, candidatesTokenCount: 4 })).s?.tokens, {
        input: 10,
        output: 4,
        cacheRead: 0,
        cacheWrite: 0,
      });
      assert.strictEqual(decode(record({ totalTokenCount: 77 })).s?.contextUsed, 77);
    });

    it('usage of another shape loses its figures, not the record', () => {
      const { s, problems } = decode(record('lots'));
      assert.strictEqual(problems, 0);
      assert.strictEqual(s?.calls, 0);
      assert.strictEqual(s?.lastReply, 'Hi.');
    });
  });
});
