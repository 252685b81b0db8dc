import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createCopilotDecoder } from '../../../src/jsonl/copilot';
import { UsageBook } from '../../../src/usage/book';
import { figures, ModelFacts } from '../../../src/usage/figures';
import { jsonLines, mockUsage, sessionLogs } from './geminiQwenLogs';
import { decodeLineLog } from './othersLogs';

/**
 * GitHub Copilot CLI 1.0.102's usage, from its session log (src/jsonl/copilotUsage.ts): a `session.usage_record`
 * per model call (`data.usage`: model, inputTokens incl. cache, outputTokens, cacheReadTokens, cacheWriteTokens,
 * maxPromptTokens, apiCallId), the replies in `assistant.message`, and at exit `session.shutdown` with the CLI's own
 * per-model sums (`modelMetrics`) and `lastCallInputTokens`.
 */

interface Usage {
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  maxPromptTokens: number;
}
type Metrics = Record<string, { requests: { count: number }; usage: Omit<Usage, 'model' | 'maxPromptTokens'> }>;

function logged(file: string) {
  const records = jsonLines(file);
  const data = (e: Record<string, unknown>) => e.data as Record<string, unknown>;
  const usage = records.filter((e) => e.type === 'session.usage_record').map((e) => data(e).usage as Usage);
  const sum = (f: (u: Usage) => number) => usage.reduce((n, u) => n + f(u), 0);
  const replies = records
    .filter((e) => e.type === 'assistant.message')
    .map((e) => String(data(e).content ?? ''))
    .filter((t) => t.trim() !== '');
  const start = records.find((e) => e.type === 'session.start');
  const shutdown = records.find((e) => e.type === 'session.shutdown');
  return { usage, sum, replies, start, shutdown: shutdown && data(shutdown) };
}

const LOGS = sessionLogs('copilot', 'copilot-events.jsonl');
const log = (scenario: string) => LOGS.find((l) => l.key === `live/copilot/${scenario}`)!;

describe('usage: GitHub Copilot CLI session logs', () => {
  it('finds the recorded logs', () => {
    assert.ok(LOGS.length >= 15, `only ${LOGS.length} logs`);
  });

  for (const l of LOGS) {
    it(`${l.key}: the figures are the log's own`, () => {
      const { sessions, problems } = decodeLineLog('copilot', l.file);
      assert.deepStrictEqual(problems, []);
      const g = logged(l.file);
      if (!g.start) {
        assert.strictEqual(sessions.length, 0, 'an empty log has no usage');
        return;
      }
      assert.strictEqual(sessions.length, 1);
      const s = sessions[0]!;
      assert.strictEqual(s.sessionId, (g.start.data as { sessionId: string }).sessionId);
      assert.strictEqual(s.calls, g.usage.length);
      assert.strictEqual(
        s.tokens.input + s.tokens.cacheRead + s.tokens.cacheWrite,
        g.sum((u) => u.inputTokens),
      );
      assert.strictEqual(
        s.tokens.output,
        g.sum((u) => u.outputTokens),
      );
      assert.strictEqual(
        s.tokens.cacheRead,
        g.sum((u) => u.cacheReadTokens),
      );
      assert.strictEqual(
        s.tokens.cacheWrite,
        g.sum((u) => u.cacheWriteTokens),
      );
      const last = g.usage[g.usage.length - 1];
      assert.strictEqual(s.contextUsed, last && last.inputTokens + last.outputTokens, "the last call's prompt and output");
      assert.strictEqual(s.contextWindow, last?.maxPromptTokens, 'the window only where the log says it');
      assert.strictEqual(s.model, last?.model ?? (g.start.data as { selectedModel: string }).selectedModel);
      assert.strictEqual(s.lastReply, g.replies[g.replies.length - 1]);
      assert.strictEqual(s.loggedCost, 0, "Copilot's cost is a premium-request multiplier, not money");
      // The CLI's own account at exit adds up the same calls.
      if (g.shutdown) {
        const metrics = Object.values(g.shutdown.modelMetrics as Metrics);
        const total = (k: keyof Metrics[string]['usage']) => metrics.reduce((n, m) => n + m.usage[k], 0);
        assert.strictEqual(s.tokens.input + s.tokens.cacheRead + s.tokens.cacheWrite, total('inputTokens'));
        assert.strictEqual(s.tokens.output, total('outputTokens'));
        assert.strictEqual(
          s.calls,
          metrics.reduce((n, m) => n + m.requests.count, 0),
        );
      }
    });

    const mock = mockUsage(l.dir);
    if (mock)
      it(`${l.key}: the figures are what the mock served`, () => {
        const s = decodeLineLog('copilot', l.file).sessions[0]!;
        assert.strictEqual(s.tokens.input + s.tokens.cacheRead + s.tokens.cacheWrite, mock.input);
        assert.strictEqual(s.tokens.output, mock.output);
        assert.strictEqual(s.calls, mock.requests);
      });
  }

  it('live 09-multistep-quit: four calls, two turns, the window of the call', () => {
    const s = decodeLineLog('copilot', log('09-multistep-quit').file).sessions[0]!;
    assert.deepStrictEqual(s.tokens, { input: 14469 + 14568 + 14612 + 14694, output: 30 + 5 + 30 + 9, cacheRead: 0, cacheWrite: 0 });
    assert.strictEqual(s.contextUsed, 14694 + 9);
    assert.strictEqual(s.contextWindow, 64000);
    assert.strictEqual(s.model, 'gpt-4.1');
    assert.strictEqual(s.turns, 2);
    assert.strictEqual(s.lastReply, 'It printed the greeting: all good.');
  });

  it('live 40-usage-two-turns: the mock served usage, and the exit summary shows the same totals', () => {
    const l = log('40-usage-two-turns');
    const mock = mockUsage(l.dir);
    assert.ok(mock && mock.requests === 3, 'the mock logged usage for its three agent requests');
    const s = decodeLineLog('copilot', l.file).sessions[0]!;
    assert.strictEqual(s.turns, 2);
    assert.strictEqual(s.lastReply, 'Noted: nothing else to do.');
    // "Tokens ↑ 43.6k • ↓ 45" on the screen at /exit: the CLI's own figures, rounded.
    const shown = /Tokens\s+↑ ([\d.]+)k • ↓ (\d+)/.exec(fs.readFileSync(path.join(l.dir, 'final-screen.txt'), 'utf8'));
    assert.ok(shown, 'the exit summary');
    assert.strictEqual((s.tokens.input / 1000).toFixed(1), shown[1]);
    assert.strictEqual(String(s.tokens.output), shown[2]);
    // The CLI's prompt limit (64000 for a BYOK gpt-4.1) wins over the model's own window in the table.
    const facts = new ModelFacts();
    assert.notStrictEqual(facts.find('gpt-4.1')?.window, 64000);
    const f = figures(s, facts);
    assert.strictEqual(f.contextWindow, 64000);
    assert.strictEqual(f.contextFill, s.contextUsed! / 64000);
  });

  describe('what the live logs have not exercised', () => {
    const T = '"timestamp":"2026-01-01T00:00:01.000Z"';
    const start = `{"type":"session.start","data":{"sessionId":"s1","selectedModel":"claude-sonnet-4.5","context":{"cwd":"/p"}},"id":"e0",${T},"parentId":null}`;
    const record = (usage: Record<string, unknown>, extra = '') =>
      `{"type":"session.usage_record","data":{"usage":${JSON.stringify(usage)}},"id":"e1",${T},"parentId":"e0"${extra}}`;
    const u = (o: Record<string, unknown> = {}) => ({
      model: 'claude-sonnet-4.5',
      inputTokens: 1000,
      outputTokens: 50,
      cacheReadTokens: 600,
      cacheWriteTokens: 100,
      maxPromptTokens: 128000,
      apiCallId: 'msg_1',
      interactionType: 'conversation-agent',
      ...o,
    });

    function decode(...lines: string[]) {
      const book = new UsageBook();
      const d = createCopilotDecoder(undefined, undefined, book);
      for (const l of lines) d.line(l);
      return { s: book.get('copilot', 's1'), problems: d.problems.total };
    }

    it('the model before any call; cache reads and writes inside inputTokens', () => {
      assert.strictEqual(decode(start).s?.model, 'claude-sonnet-4.5');
      const { s } = decode(start, record(u()));
      assert.deepStrictEqual(s?.tokens, { input: 300, output: 50, cacheRead: 600, cacheWrite: 100 });
      assert.strictEqual(s?.contextUsed, 1050);
      assert.strictEqual(s?.contextWindow, 128000);
    });

    it('a call logged twice counts once; a model change shows at once', () => {
      const change = `{"type":"session.model_change","data":{"source":"user","newModel":"gpt-5"},"id":"e2",${T},"parentId":"e1"}`;
      const { s } = decode(start, record(u()), record(u()), change);
      assert.strictEqual(s?.calls, 1);
      assert.strictEqual(s?.model, 'gpt-5');
    });

    it("a sub-agent's or a compaction's call adds tokens but is not the session's context", () => {
      const sub = record(u({ apiCallId: 'msg_2', inputTokens: 90000 }), ',"agentId":"a1"');
      const compaction = record(u({ apiCallId: 'msg_3', inputTokens: 80000, interactionType: 'conversation-compaction' }));
      const { s } = decode(start, record(u()), sub, compaction);
      assert.strictEqual(s?.calls, 3);
      assert.strictEqual(s?.contextUsed, 1050);
    });

    it('usage of another shape loses its figures, never the log', () => {
      const { s, problems } = decode(start, record({ inputTokens: 'lots' }), `{"type":"session.usage_record","data":{},${T}}`);
      assert.strictEqual(problems, 0);
      assert.strictEqual(s?.tokens.input, 0);
    });
  });
});
