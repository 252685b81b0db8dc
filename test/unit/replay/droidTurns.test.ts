import * as assert from 'assert';
import { atRest, fusedRecording, showChanges as show } from './fusedRecording';

/**
 * Factory droid 0.225.2's turns through everything it gives: the screen, its session log and its hooks, replayed
 * from the real CLI's recordings (test/fixtures/live/droid) through the store as the extension runs them. Its log
 * says how each turn ended (`agent_turn_outcome`); its Stop hook fires at the end of every turn alike, so it is
 * only the log's release; a dialog is its Notification, which names the tool of the PreToolUse before it.
 */
const fused = (scenario: string, withHooks = true) => fusedRecording('droid', scenario, withHooks);

describe('droid: screen, session log and hooks together (real recordings)', () => {
  const ENDS: Record<string, [state: string, source: string, reason?: string]> = {
    '02-plain-answer': ['completed', 'jsonl-watcher'],
    '04-execute-approve': ['completed', 'jsonl-watcher'],
    '06-tool-runs': ['completed', 'jsonl-watcher'],
    '09-multistep-quit': ['completed', 'jsonl-watcher'],
    '28-numbered-plan': ['completed', 'jsonl-watcher'],
    '05-execute-deny': ['failed', 'jsonl-watcher', 'permission rejected'],
    // The log's `cancelled` outcome is written ~0.1 s before the Notification `idle_prompt` hook fires.
    '07-esc-interrupt': ['failed', 'jsonl-watcher', 'interrupted'],
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

  it('04-execute-approve: the dialog is the hook’s wait first (its Notification fires before droid draws it)', () => {
    const { changes } = fused('04-execute-approve');
    const first = changes.find((c) => c.state === 'waiting');
    assert.ok(first, show(changes));
    assert.strictEqual(first.source, 'hook', show(changes));
  });

  it('the failures never read completed on the way: Stop after an API error says nothing of its own', () => {
    for (const s of ['08-server-error-500', '16-api-error-400']) {
      const { changes } = fused(s);
      assert.ok(!changes.some((c) => c.state === 'completed'), `${s}:\n${show(changes)}`);
    }
  });

  it('strict agreement with every source ≥ 0.95 on each recording whose turn completes or fails', () => {
    for (const s of ['02-plain-answer', '04-execute-approve', '08-server-error-500', '16-api-error-400', '28-numbered-plan']) {
      const { strict, changes } = fused(s);
      assert.ok(strict >= 0.95, `${s}: ${strict.toFixed(3)}\n${show(changes)}`);
    }
  });
});
