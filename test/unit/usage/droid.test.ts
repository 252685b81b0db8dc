import * as assert from 'assert';
import { createDroidDecoder } from '../../../src/jsonl/droid';
import { UsageBook } from '../../../src/usage/book';
import { jsonLines, sessionLogs } from './geminiQwenLogs';
import { decodeLineLog, keyPaths } from './othersLogs';

/**
 * Factory droid 0.225.2's usage, from its session log (src/jsonl/droid.ts): the model of each assistant message
 * (`message.modelId`) and its text, the last reply. The log has no token counts: droid keeps them in
 * `<session id>.settings.json` beside it (`tokenUsage`, `lastCallTokenUsage`), which Agent Lens does not read.
 */

type Message = { role: string; content: Array<{ type: string; text?: string }>; modelId?: string };

function assistants(file: string): Message[] {
  return jsonLines(file)
    .filter((e) => e.type === 'message' && (e.message as Message).role === 'assistant')
    .map((e) => e.message as Message);
}

const textOf = (m: Message) =>
  m.content
    .filter((p) => p.type === 'text')
    .map((p) => p.text)
    .join('\n');

const LOGS = sessionLogs('droid', 'droid-session.jsonl');

describe('usage: droid session logs', () => {
  it('finds the recorded logs', () => {
    assert.ok(LOGS.length >= 13, `only ${LOGS.length} logs`);
  });

  for (const l of LOGS) {
    it(`${l.key}: the model and the last reply; no tokens, as in the log`, () => {
      const { sessions, problems } = decodeLineLog('droid', l.file);
      assert.deepStrictEqual(problems, []);
      // What the log carries: no field of any record names tokens, usage or cost.
      const fields = [...keyPaths(jsonLines(l.file))].filter((k) => /token|usage|cost/i.test(k.slice(k.lastIndexOf('.') + 1)));
      assert.deepStrictEqual(fields, []);
      const said = assistants(l.file);
      const withUsage = sessions.filter((s) => s.model !== undefined || s.lastReply !== undefined);
      if (said.length === 0) {
        assert.deepStrictEqual(withUsage, [], 'no assistant message: nothing to say');
        return;
      }
      assert.strictEqual(withUsage.length, 1);
      const s = withUsage[0]!;
      assert.strictEqual(s.model, said[said.length - 1]!.modelId);
      const replies = said.map(textOf).filter((t) => t.trim() !== '');
      assert.strictEqual(s.lastReply, replies[replies.length - 1]);
      assert.deepStrictEqual([s.calls, s.tokens.input + s.tokens.output, s.contextUsed], [0, 0, undefined]);
    });
  }

  it('live 09-multistep-quit: the custom model and the second turn’s reply', () => {
    const s = decodeLineLog('droid', LOGS.find((l) => l.key === 'live/droid/09-multistep-quit')!.file).sessions[0]!;
    assert.strictEqual(s.model, 'custom:Mock-Model-0');
    assert.strictEqual(s.lastReply, 'It printed the greeting: all good.');
    assert.strictEqual(s.turns, 2);
  });

  it('an assistant message before the session_start line (a log read from its middle) tells nothing', () => {
    const book = new UsageBook();
    const d = createDroidDecoder(undefined, undefined, book);
    d.line(
      '{"type":"message","id":"m1","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Hi."}],"modelId":"claude-opus-4-5"}}',
    );
    assert.deepStrictEqual(book.all(), []);
  });
});
