import * as assert from 'assert';
import { atRest, fusedRecording, showChanges as show } from './fusedRecording';

/**
 * Gemini CLI 0.61.0's turns through everything it gives: the screen, its chat log and its hooks, replayed from
 * the real CLI's recordings (test/fixtures/live/gemini) through the store as the extension runs them. Its log
 * has no end-of-turn record, so a finished turn is its last reply, told when AfterAgent says the turn ended;
 * a cancel, a denied tool and an API error are the log's own outcomes.
 */
const fused = (scenario: string, withHooks = true) => fusedRecording('gemini', scenario, withHooks);

describe('Gemini CLI: screen, chat log and hooks together (real recordings)', () => {
  const ENDS: Record<string, [state: string, source: string, reason?: string]> = {
    '02-plain-answer': ['completed', 'jsonl-watcher'],
    '04-shell-approve': ['completed', 'jsonl-watcher'],
    '28-numbered-plan': ['completed', 'jsonl-watcher'],
    '05-shell-deny': ['failed', 'jsonl-watcher', 'permission rejected'],
    '07-esc-interrupt': ['failed', 'jsonl-watcher', 'interrupted'],
    '16-api-error-400': ['failed', 'jsonl-watcher', 'API error 400'],
  };
  for (const [scenario, [state, source, reason]] of Object.entries(ENDS)) {
    it(`${scenario}: the turn ends ${state}${reason ? ` (${reason})` : ''}, said by ${source}`, () => {
      const { changes } = fused(scenario);
      const end = atRest(changes);
      assert.deepStrictEqual([end.state, end.source, end.reason], [state, source, reason], show(changes));
    });
  }

  it('03-question-reply: a reply that ends with a question is a wait (hook and screen), which the completed turn does not hide', () => {
    const { changes } = fused('03-question-reply');
    const end = atRest(changes);
    assert.deepStrictEqual([end.state, end.waitKind], ['waiting', 'reply-question'], show(changes));
    assert.ok(
      changes.some((c) => c.waitKind === 'reply-question' && c.source === 'hook'),
      show(changes),
    );
  });

  it('09-multistep-quit: both turns end completed, and never while a dialog is open', () => {
    const { changes } = fused('09-multistep-quit');
    const turnEnds = changes.filter((c) => c.state === 'completed');
    assert.strictEqual(new Set(turnEnds.map((c) => Math.round(c.t))).size, 2, show(changes));
    for (const [i, c] of changes.entries())
      if (c.state === 'completed') {
        const before = changes
          .slice(0, i)
          .reverse()
          .find((x) => x.state !== 'completed');
        assert.notStrictEqual(before?.state, 'waiting', `completed right after a dialog:\n${show(changes)}`);
      }
  });

  it('without hooks the log never says completed (its replies wait for AfterAgent), but still says failed', () => {
    assert.ok(!fused('04-shell-approve', false).changes.some((c) => c.state === 'completed'));
    assert.strictEqual(atRest(fused('16-api-error-400', false).changes).state, 'failed');
  });

  it('strict agreement with every source ≥ 0.95 on each recording whose turn completes', () => {
    for (const s of ['02-plain-answer', '04-shell-approve', '09-multistep-quit', '28-numbered-plan', '16-api-error-400']) {
      const { strict, changes } = fused(s);
      assert.ok(strict >= 0.95, `${s}: ${strict.toFixed(3)}\n${show(changes)}`);
    }
  });
});
