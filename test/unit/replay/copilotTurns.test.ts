import * as assert from 'assert';
import { atRest, fusedRecording, showChanges as show } from './fusedRecording';

/**
 * GitHub Copilot CLI 1.0.102's turns through everything it gives: the screen, its session log (events.jsonl) and
 * its hooks under their PascalCase names, replayed from the real CLI's recordings (test/fixtures/live/copilot)
 * through the store as the extension runs them. The screen has no completion line (a finished turn reads
 * "stopped"); the log's `assistant.turn_end` after a reply without tool requests says completed, its `abort` says
 * how a turn was cut short, its `session.error` why it failed; Stop says completed too, and nothing else ends a turn.
 */
const fused = (scenario: string, withHooks = true) => fusedRecording('copilot', scenario, withHooks);

describe('Copilot CLI: screen, session log and hooks together (real recordings)', () => {
  const ENDS: Record<string, [state: string, sources: RegExp, reason?: string]> = {
    '02-plain-answer': ['completed', /^(hook|jsonl-watcher)$/],
    '04-shell-approve': ['completed', /^(hook|jsonl-watcher)$/],
    '06-tool-runs': ['completed', /^(hook|jsonl-watcher)$/],
    '28-numbered-plan': ['completed', /^(hook|jsonl-watcher)$/],
    '05-shell-deny': ['failed', /^jsonl-watcher$/, 'permission rejected'],
    '07-esc-interrupt': ['failed', /^jsonl-watcher$/, 'interrupted'],
    '08-server-error-500': ['failed', /^jsonl-watcher$/, 'API error 500'],
    '16-api-error-400': ['failed', /^jsonl-watcher$/, 'API error 400'],
  };
  for (const [scenario, [state, sources, reason]] of Object.entries(ENDS)) {
    it(`${scenario}: the turn ends ${state}${reason ? ` (${reason})` : ''}, said by ${sources.source}`, () => {
      const { changes } = fused(scenario);
      const end = atRest(changes);
      assert.deepStrictEqual([end.state, end.reason], [state, reason], show(changes));
      assert.match(end.source, sources, show(changes));
    });
  }

  it('03-question-reply: a reply that ends with a question is a wait, which the completed turn does not hide', () => {
    const { changes } = fused('03-question-reply');
    assert.deepStrictEqual([atRest(changes).state, atRest(changes).waitKind], ['waiting', 'reply-question'], show(changes));
  });

  it('08-server-error-500: the retries read working, not failed, until Copilot gives up', () => {
    const { changes } = fused('08-server-error-500');
    const firstFailed = changes.findIndex((c) => c.state === 'failed');
    assert.ok(firstFailed > 0, show(changes));
    assert.ok(
      changes.slice(firstFailed).every((c) => c.state === 'failed'),
      `failed, then something else:\n${show(changes)}`,
    );
    // Five retries over ~20 s: the first failed attempt is seconds after the prompt, the give-up at the end.
    const working = changes.find((c) => c.state === 'working')!;
    assert.ok(
      changes[firstFailed].t - working.t > 15,
      `failed at ${changes[firstFailed].t} s, before the retries ended:\n${show(changes)}`,
    );
  });

  it('without hooks the log alone says completed, and a denial failed', () => {
    const approve = fused('04-shell-approve', false).changes;
    assert.deepStrictEqual([atRest(approve).state, atRest(approve).source], ['completed', 'jsonl-watcher'], show(approve));
    const deny = fused('05-shell-deny', false).changes;
    assert.deepStrictEqual([atRest(deny).state, atRest(deny).reason], ['failed', 'permission rejected'], show(deny));
  });

  it('the dialog is a hook-confirmed wait while it shows', () => {
    for (const s of ['04-shell-approve', '05-shell-deny']) {
      const { changes } = fused(s);
      assert.ok(
        changes.some((c) => c.state === 'waiting' && c.waitKind === 'permission' && c.source === 'hook'),
        `${s}: no wait from the hook\n${show(changes)}`,
      );
    }
  });

  it('strict agreement with every source ≥ 0.9 on each recording whose turn completes or fails', () => {
    for (const s of [
      '02-plain-answer',
      '04-shell-approve',
      '06-tool-runs',
      '08-server-error-500',
      '16-api-error-400',
      '28-numbered-plan',
    ]) {
      const { strict, changes } = fused(s);
      assert.ok(strict >= 0.9, `${s}: ${strict.toFixed(3)}\n${show(changes)}`);
    }
  });
});
