/**
 * A question dialog (Claude Code's AskUserQuestion) answered from VS Code: which dialogs can be (askedQuestions),
 * and what the hook prints for an answer (claudeDecisionJson with the hook's own tool input): Claude Code's
 * allow with `updatedInput` = its own input plus `answers`, and only when every question got one of its own
 * options. Whatever else the hub sends, nothing reaches Claude Code.
 */
import * as assert from 'assert';
import * as fc from 'fast-check';
import { askedQuestions, claudeDecisionJson, decisionOf } from '../../../src/hooks/decision';
import { ASK_FRAMEWORK } from '../../../harness/scenarios/claudeCues';

/** The tool input Claude Code 2.1.328 sends (harness/facts/answering-dialogs.md §1f). */
const INPUT = ASK_FRAMEWORK;
const Q = INPUT.questions[0].question;

describe('answer: question dialogs (AskUserQuestion)', () => {
  it('askedQuestions: the questions and their option labels in the agent’s order', () => {
    assert.deepStrictEqual(askedQuestions(INPUT), [{ question: Q, options: ['Vitest (Recommended)', 'Jest', 'node:test'] }]);
  });

  it('askedQuestions: a dialog that cannot be answered by choosing is left to the terminal', () => {
    const q = INPUT.questions[0];
    for (const input of [
      undefined,
      {},
      { questions: [] },
      { questions: [{ ...q, multiSelect: true }] },
      { questions: [{ ...q, options: [] }] },
      { questions: [{ ...q, options: [{ description: 'no label' }] }] },
      { questions: [{ ...q, question: 3 }] },
      { questions: Array.from({ length: 9 }, () => q) },
    ])
      assert.strictEqual(askedQuestions(input), undefined, JSON.stringify(input));
  });

  it('an answer naming one of the dialog’s own options prints allow with the dialog’s input plus the answers', () => {
    const d = decisionOf({ decision: { behavior: 'answer', answers: { [Q]: 'node:test' } } });
    assert.ok(d);
    assert.deepStrictEqual(JSON.parse(claudeDecisionJson(d, INPUT)!), {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'allow', updatedInput: { ...INPUT, answers: { [Q]: 'node:test' } } },
      },
    });
  });

  it('an answer that is not one of the options, misses a question or adds one prints nothing', () => {
    for (const answers of [
      { [Q]: 'rm -rf /' },
      { [Q]: 'node:test ' },
      {},
      { [Q]: 'Jest', 'Another question?': 'Jest' },
      { 'Which test framework should I set up for demo-app': 'Jest' },
    ]) {
      const d = decisionOf({ decision: { behavior: 'answer', answers } });
      assert.strictEqual(d && claudeDecisionJson(d, INPUT), undefined, JSON.stringify(answers));
    }
    const jest = decisionOf({ decision: { behavior: 'answer', answers: { [Q]: 'Jest' } } })!;
    assert.strictEqual(claudeDecisionJson(jest, { questions: [{ ...INPUT.questions[0], multiSelect: true }] }), undefined);
    assert.strictEqual(claudeDecisionJson(jest, undefined), undefined, 'no input of its own: nothing');
  });

  it('property: whatever answers the hub sends, the printed input is the dialog’s own plus only its own options', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.oneof(fc.constant(Q), fc.string()), fc.oneof(fc.constantFrom('Jest', 'node:test'), fc.string())),
        (answers) => {
          const d = decisionOf({ decision: { behavior: 'answer', answers } });
          const text = d && claudeDecisionJson(d, INPUT);
          if (text === undefined) return;
          const printed = JSON.parse(text).hookSpecificOutput.decision as { updatedInput: { answers: Record<string, string> } };
          assert.deepStrictEqual(Object.keys(printed.updatedInput.answers), [Q]);
          assert.ok(['Vitest (Recommended)', 'Jest', 'node:test'].includes(printed.updatedInput.answers[Q]));
          assert.deepStrictEqual({ ...printed.updatedInput, answers: undefined }, { ...INPUT, answers: undefined });
        },
      ),
      { numRuns: 300 },
    );
  });
});
