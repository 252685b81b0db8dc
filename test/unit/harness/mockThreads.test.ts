import * as assert from 'assert';
import { createAnthropicMock } from '../../../harness/mock/anthropic';
import { TurnQueue } from '../../../harness/mock/turns';

/** A Messages API request as Claude Code sends it: tools present, the conversation so far. */
async function ask(port: number, firstUser: string, last = firstUser): Promise<string> {
  const messages = [{ role: 'user', content: [{ type: 'text', text: firstUser }] }];
  if (last !== firstUser)
    messages.push({ role: 'assistant', content: [{ type: 'text', text: '…' }] }, { role: 'user', content: [{ type: 'text', text: last }] });
  const res = await fetch(`http://127.0.0.1:${port}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'm',
      stream: true,
      max_tokens: 100,
      tools: [{ name: 'Bash', input_schema: { type: 'object' } }],
      messages,
    }),
  });
  const body = await res.text();
  return [...body.matchAll(/"text":"([^"]*)"/g)].map((m) => m[1]).join('');
}

describe('harness mock: turns and threads', () => {
  it('hands out turns in order, repeats and sticks as scripted, then the fallback', () => {
    const q = new TurnQueue(
      [
        { type: 'text', text: 'a', repeat: 2 },
        { type: 'text', text: 'b' },
      ],
      { type: 'text', text: 'end' },
    );
    const texts = Array.from({ length: 5 }, () => {
      const t = q.next().turn;
      return t.type === 'text' ? t.text : t.type;
    });
    assert.deepStrictEqual(texts, ['a', 'a', 'b', 'end', 'end']);
    const sticky = new TurnQueue([{ type: 'error', status: 500, sticky: true }]);
    assert.deepStrictEqual([sticky.next().index, sticky.next().index], [0, 0]);
  });

  it("serves a subagent's requests from its own thread, whichever conversation asks first", async () => {
    const mock = createAnthropicMock({
      script: {
        turns: [
          { type: 'text', text: 'main one', firstDelayMs: 0, chunks: 100 },
          { type: 'text', text: 'main two', firstDelayMs: 0, chunks: 100 },
        ],
        threads: { 'List the TODO notes': [{ type: 'text', text: 'sub one', firstDelayMs: 0, chunks: 100 }] },
      },
    });
    const port = await mock.listen();
    try {
      assert.strictEqual(await ask(port, 'List the TODO notes in this project'), 'sub one');
      assert.strictEqual(await ask(port, 'find the TODO notes'), 'main one');
      assert.strictEqual(await ask(port, 'find the TODO notes', 'go on'), 'main two');
      const threads = mock.entries.filter((e) => e.kind === 'agent').map((e) => e.thread ?? 'main');
      assert.deepStrictEqual(threads, ['List the TODO notes', 'main', 'main']);
    } finally {
      await mock.close();
    }
  });
});
