import * as assert from 'assert';
import { atRest, fusedRecording, showChanges as show } from './fusedRecording';

/**
 * Qwen Code 0.24.4's turns through everything it gives: the screen, its chat log and its hooks, replayed from the
 * real CLI's recordings (test/fixtures/live/qwen) through the store as the extension runs them. Its log has no
 * end-of-turn record: a finished turn is its last reply, told when Stop says the turn ended; a 500 is retried, so
 * each failed attempt waits for StopFailure. A denied tool is the log's own outcome (no hook fires then); an Esc
 * is the screen's (the log keeps the cut reply as any other, and no hook fires).
 */
const fused = (scenario: string, withHooks = true) => fusedRecording('qwen', scenario, withHooks);

describe('Qwen Code: screen, chat log and hooks together (real recordings)', () => {
  const ENDS: Record<string, [state: string, source: string, reason?: string]> = {
    '02-plain-answer': ['completed', 'jsonl-watcher'],
    '04-shell-approve': ['completed', 'jsonl-watcher'],
    '06-shell-runs': ['completed', 'jsonl-watcher'],
    '28-numbered-plan': ['completed', 'jsonl-watcher'],
    '05-shell-deny': ['failed', 'jsonl-watcher', 'permission rejected'],
    '07-esc-interrupt': ['stopped', 'pty-scrape'],
    '08-server-error-500': ['failed', 'jsonl-watcher', 'API error 500'],
    '16-api-error-400': ['failed', 'jsonl-watcher', 'API error 400'],
  };
  for (const [scenario, [state, source, reason]] of Object.entries(ENDS)) {
    it(`${scenario}: the turn ends ${state}${reason ? ` (${reason})` : ''}, said by ${source}`, () => {
      const { changes } = fused(scenario);
      const end = atRest(changes);
      assert.deepStrictEqual([end.state, end.source, end.reason], [state, source, reason], show(changes));
    });
  }

  it('03-question-reply: a reply that ends with a question is a wait, which the completed turn does not hide', () => {
    const { changes } = fused('03-question-reply');
    assert.deepStrictEqual([atRest(changes).state, atRest(changes).waitKind], ['waiting', 'reply-question'], show(changes));
  });

  it('08-server-error-500: the retries read working, not failed, until Qwen Code gives up', () => {
    const { changes } = fused('08-server-error-500');
    const firstFailed = changes.findIndex((c) => c.state === 'failed');
    assert.ok(firstFailed > 0, show(changes));
    assert.ok(
      changes.slice(firstFailed).every((c) => c.state === 'failed'),
      `failed, then something else:\n${show(changes)}`,
    );
    assert.ok(changes[firstFailed].t > 60, `failed at ${changes[firstFailed].t} s, before the retries ended:\n${show(changes)}`);
  });

  it('without hooks the log never says completed (its replies wait for Stop), but still says a denial failed', () => {
    assert.ok(!fused('04-shell-approve', false).changes.some((c) => c.state === 'completed' && c.source === 'jsonl-watcher'));
    assert.deepStrictEqual(
      [atRest(fused('05-shell-deny', false).changes).state, atRest(fused('05-shell-deny', false).changes).reason],
      ['failed', 'permission rejected'],
    );
  });

  it('strict agreement with every source ≥ 0.95 on each recording whose turn completes or fails', () => {
    for (const s of ['04-shell-approve', '08-server-error-500', '16-api-error-400', '28-numbered-plan']) {
      const { strict, changes } = fused(s);
      assert.ok(strict >= 0.95, `${s}: ${strict.toFixed(3)}\n${show(changes)}`);
    }
  });
});
