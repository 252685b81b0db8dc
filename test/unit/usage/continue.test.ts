import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createContinueDecoder } from '../../../src/jsonl';
import { UsageBook } from '../../../src/usage/book';
import { figures, ModelFacts } from '../../../src/usage/figures';
import { FIXTURES } from '../helpers';
import { jsonLines, mockUsage } from './geminiQwenLogs';

/**
 * Continue CLI 1.5.47's usage, from its session file (src/jsonl/continueUsage.ts): cn's own running account `usage`
 * `{totalCost, promptTokens, completionTokens, promptTokensDetails: {cachedTokens, cacheWriteTokens}}`, and each
 * assistant item's call `usage` `{prompt_tokens, completion_tokens, model, cost_cents}`. Every content the file had
 * during each recorded run (`continue-session-snapshots.jsonl`) is fed to the decoder in order, as the snapshot
 * source hands it; the file as the run left it (`continue-session.json`) to a fresh one.
 */

const DIR = path.join(FIXTURES, 'live', 'continue-cli');

interface CallUsage {
  prompt_tokens: number;
  completion_tokens: number;
  model: string;
}
interface Item {
  message: { role: string; content: unknown; usage?: CallUsage };
}
interface Session {
  sessionId: string;
  history: Item[];
  usage: {
    totalCost: number;
    promptTokens: number;
    completionTokens: number;
    promptTokensDetails: { cachedTokens: number; cacheWriteTokens: number };
  };
}

const RUNS = fs.readdirSync(DIR).filter((d) => fs.existsSync(path.join(DIR, d, 'continue-session.json')));
const final = (run: string) => JSON.parse(fs.readFileSync(path.join(DIR, run, 'continue-session.json'), 'utf8')) as Session;

/** The session as the decoder saw each content the run's file had, in order. */
function decodeRun(run: string) {
  const book = new UsageBook();
  const d = createContinueDecoder(undefined, book);
  for (const s of jsonLines(path.join(DIR, run, 'continue-session-snapshots.jsonl'))) {
    if (String(s.file).endsWith('/sessions.json')) continue;
    const text = s.content === '' ? '' : JSON.stringify(s.content, null, 2);
    for (const e of d.snapshot(text, Number(s.epoch_ms))) book.event(e);
  }
  return { sessions: book.all(), problems: d.problems.total };
}

function decodeFinal(run: string) {
  const book = new UsageBook();
  createContinueDecoder(undefined, book).snapshot(fs.readFileSync(path.join(DIR, run, 'continue-session.json'), 'utf8'), 1);
  return book.all();
}

const calls = (s: Session) => s.history.filter((i) => i.message.role === 'assistant' && i.message.usage).map((i) => i.message.usage!);
const replies = (s: Session) =>
  s.history.filter((i) => i.message.role === 'assistant' && typeof i.message.content === 'string' && i.message.content.trim() !== '');

describe('usage: Continue CLI session files', () => {
  it('finds the recorded session files', () => {
    assert.ok(RUNS.length >= 11, `only ${RUNS.length}`);
  });

  for (const run of RUNS) {
    it(`${run}: the figures are cn's own account, read as the file changed and read late`, () => {
      const f = final(run);
      const { sessions, problems } = decodeRun(run);
      assert.strictEqual(problems, 0);
      for (const s of [sessions, decodeFinal(run)].map((all) => all.find((x) => x.sessionId === f.sessionId))) {
        const u = f.usage;
        if (u.promptTokens === 0) {
          assert.ok(!s || s.calls === 0, 'no call answered: nothing spent');
          continue;
        }
        assert.ok(s);
        assert.deepStrictEqual(s.tokens, {
          input: u.promptTokens,
          output: u.completionTokens,
          cacheRead: u.promptTokensDetails.cachedTokens,
          cacheWrite: u.promptTokensDetails.cacheWriteTokens,
        });
        assert.strictEqual(s.loggedCost, u.totalCost);
        // The items' own usage is a second account of the same calls.
        assert.strictEqual(
          calls(f).reduce((n, c) => n + c.prompt_tokens, 0),
          u.promptTokens,
        );
        const last = calls(f).at(-1)!;
        assert.strictEqual(s.model, last.model);
        assert.strictEqual(s.contextUsed, last.prompt_tokens + last.completion_tokens);
        assert.strictEqual(s.lastReply, replies(f).at(-1)?.message.content);
        const fig = figures(s, new ModelFacts());
        assert.deepStrictEqual([fig.cost, fig.costSource], [u.totalCost, 'log'], "cn's own cost");
      }
    });

    const mock = mockUsage(path.join(DIR, run));
    if (mock)
      it(`${run}: the figures are what the mock served (not the title request)`, () => {
        const s = decodeRun(run).sessions.find((x) => x.sessionId === final(run).sessionId)!;
        assert.strictEqual(s.tokens.input + s.tokens.cacheRead + s.tokens.cacheWrite, mock.input);
        assert.strictEqual(s.tokens.output, mock.output);
      });
  }

  it('40-usage-two-turns: three calls, the mock logged them', () => {
    const mock = mockUsage(path.join(DIR, '40-usage-two-turns'));
    assert.deepStrictEqual(mock, { input: 2362 + 2441 + 2466, output: 30 + 8 + 7, requests: 3 });
    const s = decodeRun('40-usage-two-turns').sessions[0]!;
    assert.strictEqual(s.model, 'gpt-4.1-mock');
    assert.strictEqual(s.contextUsed, 2466 + 7);
    assert.strictEqual(s.lastReply, 'Noted: nothing else to do.');
    // cn prices "gpt-4.1-mock" as gpt-4 ($30/$60 per million): its own cost, not the model table's.
    assert.strictEqual(Math.round(s.loggedCost * 1e6), 7269 * 30 + 45 * 60);
  });

  describe('what the live files have not exercised', () => {
    const session = (usage: unknown, history: unknown[] = []) => JSON.stringify({ sessionId: 's1', history, usage });
    const reply = {
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: 'Hi.' }],
        usage: {
          prompt_tokens: 100,
          completion_tokens: 20,
          model: 'claude-sonnet-4-6',
          prompt_tokens_details: { cache_read_tokens: 900, cache_write_tokens: 50 },
        },
      },
    };

    function decode(...texts: string[]) {
      const book = new UsageBook();
      const d = createContinueDecoder(undefined, book);
      let told = 0;
      book.onDidChange(() => told++);
      for (const t of texts) d.snapshot(t, 1);
      return { s: book.get('continue-cli', 's1'), told, problems: d.problems.total };
    }

    it("Anthropic's counts: the prompt without the cache, the cache apart; the context holds all of them", () => {
      const usage = {
        totalCost: 0.01,
        promptTokens: 100,
        completionTokens: 20,
        promptTokensDetails: { cachedTokens: 900, cacheWriteTokens: 50 },
      };
      const { s } = decode(session(usage, [{ message: { role: 'user', content: 'hi' } }, reply]));
      assert.deepStrictEqual(s?.tokens, { input: 100, output: 20, cacheRead: 900, cacheWrite: 50 });
      assert.strictEqual(s?.contextUsed, 1070);
      assert.strictEqual(s?.lastReply, 'Hi.');
    });

    it('the account replaces itself; a rewrite that changes nothing tells nothing', () => {
      const u = (p: number) => ({ totalCost: p / 1e6, promptTokens: p, completionTokens: 1 });
      const { s, told } = decode(session(u(10)), session(u(10)), session(u(30)));
      assert.strictEqual(told, 2);
      assert.deepStrictEqual([s?.tokens.input, s?.calls, s?.loggedCost], [30, 1, 30 / 1e6]);
    });

    it('an account of another shape loses its figures, not the session', () => {
      const { s, problems } = decode(session('lots', [reply]));
      assert.strictEqual(problems, 0);
      assert.strictEqual(s?.calls, 0);
      assert.strictEqual(s?.model, 'claude-sonnet-4-6');
    });
  });
});
