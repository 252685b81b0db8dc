import * as assert from 'assert';
import type { Scenario, Step } from '../../harness/scenario';
import type { KeyOutcome } from '../../src/answer/screenKeys';
import { chatToolResults, play } from '../../harness/answering/rig';
import { installAskingExtension, menuChoice, storedWithAnswer } from '../../harness/answering/byAgent';

/**
 * The real pi, whose dialogs come from its extensions (pi has no hooks and no approvals of its own): the selector
 * its `ctx.ui.select` draws is read off the live screen and answered with the arrow keys and Enter, through the
 * function the Needs-you row's *Choose…* uses (answerMenu), bound to the dialog as it was offered. pi's own example
 * extension permission-gate asks before `rm -rf`; a three-option question comes from a small extension of the test's
 * own that asks with the same `ctx.ui.select`. The mock model shows what pi did.
 */
const withMenuAnswer = (id: string, answer: Step, change: Partial<Scenario> = {}, dialog?: RegExp, done?: RegExp): Scenario =>
  storedWithAnswer('pi', id, answer, { change, dialog, done });
const choose = menuChoice;

describe('live: answering pi’s extension dialogs with the arrow keys and Enter read off the screen', function () {
  this.timeout(240_000);

  const GATE = [
    { label: 'Yes', scenario: '04-gate-approve', done: /directory has been removed\./, model: '(no output)' },
    { label: 'No', scenario: '05-gate-deny', done: /left the build directory alone\./, model: 'Blocked by user' },
  ];
  for (const c of GATE) {
    it(`permission-gate: “${c.label}” picked — the dialog closes, the model gets “${c.model}”`, async () => {
      let outcome: KeyOutcome | undefined;
      await play(
        'pi',
        `menu-${c.label}`,
        (rig) =>
          withMenuAnswer(
            c.scenario,
            choose(rig, c.label, (o) => (outcome = o)),
          ),
        (rig, out, screen) => {
          assert.deepStrictEqual(outcome, { ok: true, option: c.label });
          assert.match(screen, c.done);
          const results = chatToolResults(out);
          assert.ok(
            results.some((r) => r.content.includes(c.model)),
            `tool results: ${JSON.stringify(results)}`,
          );
          console.log(`      pi: “${c.label}” picked; the model heard back ${results.at(-1)!.at - rig.sentAt!} ms after the answer began`);
        },
      );
    });
  }

  it('a question dialog answered with its third option: the model receives that option', async () => {
    let outcome: KeyOutcome | undefined;
    const mock = {
      turns: [
        { type: 'tool' as const, name: 'pick_database', input: {} },
        { type: 'text' as const, text: 'Using MySQL.' },
      ],
    };
    await play(
      'pi',
      'menu-third',
      (rig) =>
        withMenuAnswer(
          '04-gate-approve',
          choose(rig, 'MySQL', (o) => (outcome = o)),
          { mock, piExtensions: [] } as Partial<Scenario>,
          /Which database should the app use\?/,
          /Using MySQL\./,
        ),
      (_rig, out) => {
        assert.deepStrictEqual(outcome, { ok: true, option: 'MySQL' });
        assert.deepStrictEqual(
          chatToolResults(out).map((r) => r.content),
          ['Chosen: MySQL'],
        );
      },
      { home: installAskingExtension },
    );
  });

  it('a dialog that is not the one offered gets no key', async () => {
    let outcome: KeyOutcome | undefined;
    await play(
      'pi',
      'menu-other',
      (rig) =>
        withMenuAnswer(
          '04-gate-approve',
          menuChoice(rig, 'Yes', (o) => (outcome = o), { alter: (title) => title.replace('rm -rf build', 'rm -rf ~') }),
        ),
      () => assert.deepStrictEqual(outcome, { ok: false, why: 'the dialog on the screen is not the one offered', typed: false }),
    );
  });
});
