import * as assert from 'assert';
import { arbitrate } from '../../../src/store/arbitrate';
import { SAME_MOMENT_MS } from '../../../src/store/arbitrationRules';
import { obs } from '../obs';
import { type Source, SOURCES, speaksOfPresence } from '../../../src/common/sources';

/** The agent's own record of a prompt (its log's user entry, its prompt hook): an exact turn start. */
const prompt = (o: ReturnType<typeof obs>): ReturnType<typeof obs> => ({ ...o, prompt: true });

// `command` outcomes exist only as a headless run's exit code: the run's own verdict. The process table gives none.
const AUTHORITY: Record<Source, number> = { command: 5, process: 0, 'jsonl-watcher': 4, hook: 3, doorbell: 2, 'pty-scrape': 1 };

describe('arbitration', () => {
  // [case, words, expected "source state"]
  const table: [string, ReturnType<typeof obs>[], string | undefined][] = [
    ['nothing said', [], undefined],
    ['one source', [obs('pty-scrape', 1000, 'working')], 'pty-scrape working'],
    [
      'log outcome beats the screen stopped of the same turn (log first)',
      [obs('jsonl-watcher', 9000, 'completed'), obs('pty-scrape', 9300, 'stopped')],
      'jsonl-watcher completed',
    ],
    [
      'log outcome beats the screen stopped of the same turn (screen first)',
      [obs('pty-scrape', 9000, 'stopped'), obs('jsonl-watcher', 9400, 'completed')],
      'jsonl-watcher completed',
    ],
    [
      'log failure beats the screen stopped after Esc',
      [obs('pty-scrape', 9300, 'stopped'), obs('jsonl-watcher', 9100, 'failed', { reason: 'interrupted' })],
      'jsonl-watcher failed',
    ],
    ['hook outcome beats the screen idle', [obs('pty-scrape', 9300, 'idle'), obs('hook', 9100, 'completed')], 'hook completed'],
    [
      'a new turn on screen supersedes the log outcome',
      [obs('jsonl-watcher', 9000, 'completed'), obs('pty-scrape', 9000 + SAME_MOMENT_MS + 1, 'working')],
      'pty-scrape working',
    ],
    [
      'a new turn in the log supersedes the screen outcome',
      [obs('pty-scrape', 9000, 'completed', { agent: 'codex' }), obs('jsonl-watcher', 20_000, 'working', { agent: 'codex' })],
      'jsonl-watcher working',
    ],
    [
      'a spinner lagging the log by a moment is the same turn',
      [obs('jsonl-watcher', 9000, 'completed'), obs('pty-scrape', 9000 + SAME_MOMENT_MS - 1, 'working')],
      'jsonl-watcher completed',
    ],
    [
      'a dialog on screen after the outcome is a new turn',
      [obs('jsonl-watcher', 9000, 'completed'), obs('pty-scrape', 12_000, 'waiting')],
      'pty-scrape waiting',
    ],
    [
      'a reply that ends with a question refines completed',
      [obs('jsonl-watcher', 9000, 'completed'), obs('pty-scrape', 9200, 'waiting', { wait: 'reply-question' })],
      'pty-scrape waiting',
    ],
    [
      'a reply question does not hide a failure',
      [obs('jsonl-watcher', 9000, 'failed'), obs('pty-scrape', 9200, 'waiting', { wait: 'reply-question' })],
      'jsonl-watcher failed',
    ],
    [
      'exited ends everything, even a fresher word',
      [obs('process', 5000, 'exited'), obs('jsonl-watcher', 9000, 'completed')],
      'process exited',
    ],
    ['exited on screen ends everything', [obs('pty-scrape', 5000, 'exited'), obs('hook', 9000, 'working')], 'pty-scrape exited'],
    [
      'process presence decides nothing once another source spoke',
      [obs('process', 9000, 'working'), obs('jsonl-watcher', 5000, 'completed')],
      'jsonl-watcher completed',
    ],
    ['process presence alone is shown', [obs('process', 9000, 'working')], 'process working'],
    [
      'the command line’s presence decides nothing once another source spoke',
      [obs('command', 9000, 'working'), obs('jsonl-watcher', 5000, 'completed')],
      'jsonl-watcher completed',
    ],
    [
      'a headless run’s exit code outranks its log’s outcome',
      [obs('jsonl-watcher', 9000, 'completed'), obs('command', 9300, 'failed', { reason: 'exit code 1' })],
      'command failed',
    ],
    [
      'a stale hook wait does not hold against a fresher screen',
      [obs('hook', 5700, 'waiting'), obs('pty-scrape', 26_300, 'stopped')],
      'pty-scrape stopped',
    ],
    [
      'a stale log working does not hold against a fresher screen',
      [obs('jsonl-watcher', 5000, 'working'), obs('pty-scrape', 9000, 'stopped')],
      'pty-scrape stopped',
    ],
    [
      'an outcome from an earlier turn does not hold against the screen of this one',
      [obs('jsonl-watcher', 1000, 'completed'), obs('pty-scrape', 5000, 'working'), obs('hook', 9000, 'waiting')],
      'hook waiting',
    ],
    // Hooks and the screen (issue 8): where a hook is silent the screen decides; where the screen is ambiguous the hook does.
    [
      'a hook dialog and the screen’s: one wait, shown from the fresher',
      [obs('hook', 5700, 'waiting'), obs('pty-scrape', 5900, 'waiting')],
      'pty-scrape waiting',
    ],
    [
      'approved: the hook’s PostToolUse moves it on',
      [obs('hook', 5700, 'waiting'), obs('pty-scrape', 5900, 'waiting'), obs('hook', 26_400, 'working')],
      'hook working',
    ],
    [
      'denied (Claude fires nothing): the screen closes the wait',
      [obs('hook', 5700, 'waiting'), obs('pty-scrape', 5900, 'waiting'), obs('pty-scrape', 26_300, 'stopped')],
      'pty-scrape stopped',
    ],
    [
      'the screen still says working: the hook’s dialog decides',
      [obs('pty-scrape', 5000, 'working'), obs('hook', 5700, 'waiting')],
      'hook waiting',
    ],
    [
      'a hook reply-question beats the screen at rest and the log’s completed',
      [
        obs('hook', 9000, 'waiting', { wait: 'reply-question' }),
        obs('jsonl-watcher', 9050, 'completed'),
        obs('pty-scrape', 9300, 'stopped'),
      ],
      'hook waiting',
    ],
    [
      'a reply-question is answered by the next prompt',
      [obs('hook', 9000, 'waiting', { wait: 'reply-question' }), obs('pty-scrape', 9300, 'stopped'), obs('hook', 15_000, 'working')],
      'hook working',
    ],
    [
      'Codex Interrupt (a denial or Esc) fails the turn over the screen’s stopped',
      [
        obs('pty-scrape', 5000, 'waiting', { agent: 'codex' }),
        obs('hook', 9000, 'failed', { agent: 'codex', reason: 'interrupted' }),
        obs('pty-scrape', 9200, 'stopped', { agent: 'codex' }),
      ],
      'hook failed',
    ],
    [
      'the hook’s Stop is confirmed by the log',
      [obs('hook', 9000, 'completed'), obs('jsonl-watcher', 9100, 'completed'), obs('pty-scrape', 9300, 'idle')],
      'jsonl-watcher completed',
    ],
    [
      'a denied permission: the log says failed after the stale hook wait',
      [
        obs('hook', 5700, 'waiting'),
        obs('pty-scrape', 26_300, 'stopped'),
        obs('jsonl-watcher', 26_200, 'failed', { reason: 'permission rejected' }),
      ],
      'jsonl-watcher failed',
    ],
    // A message typed ahead is sent the moment the turn ends: its prompt record follows the Stop hook by ~0.1 s.
    [
      'a queued prompt 0.1 s after the Stop hook starts a new turn',
      [obs('pty-scrape', 5000, 'working'), obs('hook', 9000, 'completed'), prompt(obs('jsonl-watcher', 9115, 'working'))],
      'jsonl-watcher working',
    ],
    [
      'a queued prompt by hook 0.1 s after the log’s turn end starts a new turn',
      [obs('jsonl-watcher', 9000, 'completed'), prompt(obs('hook', 9100, 'working'))],
      'hook working',
    ],
    [
      'an outcome after the prompt record is the new turn’s',
      [prompt(obs('jsonl-watcher', 9000, 'working')), obs('hook', 9050, 'completed')],
      'hook completed',
    ],
    [
      'an unverified prompt record moves no turn boundary',
      [obs('jsonl-watcher', 9000, 'completed'), { ...prompt(obs('hook', 9100, 'working')), provenance: 'unverified' }],
      'jsonl-watcher completed',
    ],
  ];
  for (const [name, words, want] of table) {
    it(name, () => {
      const got = arbitrate(words);
      assert.strictEqual(got ? `${got.source} ${got.state}` : undefined, want);
    });
  }

  it('is independent of the order the words are given in', () => {
    for (const [, words, want] of table) {
      const rev = [...words].reverse();
      const got = arbitrate(rev);
      assert.strictEqual(got ? `${got.source} ${got.state}` : undefined, want);
    }
  });

  describe('every pair of sources', () => {
    for (const a of SOURCES) {
      for (const b of SOURCES) {
        if (a === b) continue;
        it(`${a} outcome vs ${b} screen-like at rest, same turn: the outcome wins`, () => {
          const got = arbitrate([obs(a, 9000, 'completed'), obs(b, 9500, 'stopped')])!;
          if (speaksOfPresence(b)) assert.strictEqual(got.source, a, `${b} speaks only of presence`);
          else assert.strictEqual(`${got.source} ${got.state}`, `${a} completed`, 'an outcome, a headless run’s exit code too');
        });
        it(`${a} and ${b} both report outcomes of one turn: the more authoritative wins`, () => {
          const got = arbitrate([obs(a, 9000, 'failed'), obs(b, 9400, 'completed')])!;
          const expected = AUTHORITY[a] > AUTHORITY[b] ? a : AUTHORITY[b] > AUTHORITY[a] ? b : b;
          assert.strictEqual(got.source, expected);
        });
        it(`${a} stale working vs ${b} fresh working, then ${b} says idle: the fresh word wins`, () => {
          const got = arbitrate([obs(a, 1000, 'working'), obs(b, 5000, 'idle')])!;
          // Presence against presence: the fresher is all there is.
          if (speaksOfPresence(b) && !speaksOfPresence(a))
            assert.strictEqual(`${got.source} ${got.state}`, `${a} working`, `${b} decides nothing`);
          else assert.strictEqual(`${got.source} ${got.state}`, `${b} idle`);
        });
        it(`${a} outcome of an old turn vs a new turn seen by ${b}`, () => {
          const got = arbitrate([obs(a, 1000, 'completed'), obs(b, 10_000, 'working')])!;
          if (speaksOfPresence(b)) assert.strictEqual(got.state, 'completed');
          else assert.strictEqual(`${got.source} ${got.state}`, `${b} working`);
        });
      }
    }
  });
});
