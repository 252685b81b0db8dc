import * as assert from 'assert';
import { call, enter, key, type Step, submit, wait, waitText } from '../../harness/scenario';
import { ASK_FRAMEWORK, BASH_RM, CLAUDE, ready } from '../../harness/scenarios/claudeCues';
import type { Decision } from '../../src/hooks/decision';
import { answeringHooks, everyToolResult, offered, play, type Rig, toolResults, until } from '../../harness/answering/rig';
import { CLAUDE_RM, claudeScenario, heldAnswer, menuChoice } from '../../harness/answering/byAgent';
import { NUMBERED_MENU } from '../../src/answer/numberedMenu';
import type { KeyOutcome } from '../../src/answer/screenKeys';

/**
 * The real Claude Code with our hooks installed by our installer, its PermissionRequest run by the real answering
 * hook, held at a real hub, fused with the screen of the same PTY. The answer goes in through the same calls the
 * Needs-you row's buttons make (PendingAnswers.offered, then answer with the row's handle); the mock model shows
 * what Claude Code did with it, and the screen shows Claude moving on. Answered in the terminal first, the held
 * hook goes within a second and prints nothing (Claude Code's own words on screen say who decided).
 */
/** The row's Allow or Deny on the held Bash request, after checking it holds the whole tool input. */
const answer = (rig: Rig, d: Decision): Step =>
  heldAnswer(rig, 'permission', (r) => {
    assert.strictEqual(r.tool, 'Bash');
    assert.deepStrictEqual(r.input, BASH_RM, 'the request holds the whole tool input');
    return d;
  });

const scenario = claudeScenario;

describe('live: answering Claude Code’s permission dialog from VS Code (real CLI, real hook, real hub)', function () {
  this.timeout(180_000);
  const { tool, done } = CLAUDE_RM;

  it('Allow once from VS Code: the tool runs, the model gets its result, and Claude moves on', async () => {
    await play(
      'claude-code',
      'allow',
      (rig) =>
        scenario(
          'allow',
          [
            answer(rig, { behavior: 'allow' }),
            waitText(/Allowed by PermissionRequest hook/, 15_000, 'allowed by the hook'),
            waitText(CLAUDE.completed, 30_000, 'turn finished'),
          ],
          [tool, done],
        ),
      (rig, out) => {
        const results = toolResults(out);
        assert.strictEqual(results.length, 1, JSON.stringify(results));
        assert.strictEqual(results[0].is_error, false, `the tool ran: ${JSON.stringify(results[0])}`);
        console.log(`      allow: the model had the tool's result ${results[0].at - rig.sentAt!} ms after the answer was sent`);
      },
    );
  });

  it('Deny from VS Code with a message: the model gets the denial and the message, and the turn goes on', async () => {
    await play(
      'claude-code',
      'deny',
      (rig) =>
        scenario(
          'deny',
          [
            answer(rig, { behavior: 'deny', message: 'no, use a dry run' }),
            waitText(/Denied by PermissionRequest hook/, 15_000, 'denied by the hook'),
            waitText(CLAUDE.completed, 30_000, 'the turn went on to its end'),
          ],
          [tool, done],
        ),
      (rig, out) => {
        const results = toolResults(out);
        assert.strictEqual(results.length, 1, JSON.stringify(results));
        assert.strictEqual(results[0].is_error, true);
        assert.match(JSON.stringify(results[0].content), /no, use a dry run/);
        console.log(`      deny: the model had the denial ${results[0].at - rig.sentAt!} ms after the answer was sent`);
      },
    );
  });

  it('a question dialog (AskUserQuestion) answered from VS Code with its third option: the model gets that option', async () => {
    const question = ASK_FRAMEWORK.questions[0].question;
    const ask = { type: 'tool' as const, name: 'AskUserQuestion', input: ASK_FRAMEWORK };
    await play(
      'claude-code',
      'question',
      (rig) => ({
        ...scenario('question', [], [ask, { type: 'text', text: 'node:test it is.\n', chunks: 'lines' }]),
        steps: [
          ready,
          wait(1500),
          ...submit('set up unit tests'),
          waitText(CLAUDE.question, 30_000, 'question visible'),
          call(async () => {
            const w = await until(() => rig.store.waits().find((x) => x.kind === 'question'));
            const r = await until(() => rig.pending.offered(w.id));
            assert.deepStrictEqual(r.questions, [{ question, options: ['Vitest (Recommended)', 'Jest', 'node:test'] }]);
            rig.sentAt = Date.now();
            const outcome = rig.pending.answer(r.handle, { behavior: 'answer', answers: { [question]: r.questions![0].options[2] } });
            return outcome === 'sent' ? undefined : `answer ${outcome}`;
          }, 'answer the question'),
          waitText(CLAUDE.completed, 30_000, 'turn finished'),
        ],
      }),
      (rig, out, screen) => {
        const results = toolResults(out);
        assert.strictEqual(results.length, 1, JSON.stringify(results));
        assert.match(JSON.stringify(results[0].content), /node:test/);
        assert.doesNotMatch(JSON.stringify(results[0].content), /Vitest|Jest"/);
        assert.match(screen, /demo-app\? → node:test/);
        assert.match(screen, /Allowed by PermissionRequest hook/);
        console.log(`      question: the model had the chosen option ${results[0].at - rig.sentAt!} ms after the answer was sent`);
      },
    );
  });

  for (const how of ['Yes (Enter)', 'Esc'] as const) {
    it(`answered in the terminal first (${how}): the held hook is gone within 1 s, having decided nothing`, async () => {
      let keyAt = 0;
      const gone = (rig: Rig) =>
        call(async () => {
          const end = Date.now() + 5000;
          while (rig.pending.size > 0 || answeringHooks(rig.script).length > 0) {
            if (Date.now() > end)
              return `still held 5 s after the key: ${rig.pending.size} request(s), hooks ${answeringHooks(rig.script).join(' ')}`;
            await new Promise((res) => setTimeout(res, 20));
          }
          const ms = Date.now() - keyAt;
          console.log(`      ${how}: the held hook was gone ${ms} ms after the key`);
          return ms <= 1000 ? undefined : `the hook went ${ms} ms after the key`;
        }, 'hook gone');
      const esc = how === 'Esc';
      await play(
        'claude-code',
        esc ? 'terminal-esc' : 'terminal-yes',
        (rig) =>
          scenario(
            esc ? 'terminal-esc' : 'terminal-yes',
            [
              call(async () => {
                await offered(rig);
                keyAt = Date.now();
              }, 'offered'),
              esc ? key('esc', 'terminal answer') : enter('terminal answer'),
              gone(rig),
              esc ? waitText(CLAUDE.stopped, 15_000, 'interrupted') : waitText(CLAUDE.completed, 30_000, 'turn finished'),
            ],
            [tool, done],
          ),
        (rig, out, screen) => {
          assert.doesNotMatch(screen, /by PermissionRequest hook/, 'the hook decided nothing');
          assert.deepStrictEqual(
            rig.pending.answered.map((a) => [a.where, a.option]),
            [['terminal', esc ? 'refused or cancelled there' : 'answered there']],
            'the state history says it was answered in the terminal',
          );
          const results = toolResults(out);
          if (esc) assert.strictEqual(results.length, 0, 'Esc interrupts: no tool result');
          else assert.strictEqual(results[0]?.is_error, false, 'Yes in the terminal ran the tool');
        },
      );
    });
  }

  it('a background subagent’s dialog is not held (Claude Code would hide it): drawn at once, answered by keys', async () => {
    const PROMPT = 'Clean the build output of this project';
    let outcome: KeyOutcome | undefined;
    let heldAtDialog = -1;
    await play(
      'claude-code',
      'subagent',
      (rig) => ({
        ...scenario('subagent', [], []),
        mock: {
          title: 'Subagent cleans',
          turns: [
            {
              type: 'tool',
              name: 'Agent',
              text: 'I will hand this to an agent.',
              input: { description: 'Clean build output', prompt: PROMPT, subagent_type: 'general-purpose' },
            },
            { type: 'text', text: 'An agent is cleaning the build output.\n', chunks: 'lines' },
            { type: 'text', text: 'The agent removed the build directory.\n', chunks: 'lines' },
          ],
          threads: {
            [PROMPT]: [
              { type: 'tool', name: 'Bash', text: 'Removing build.', input: BASH_RM },
              { type: 'text', text: 'build/ removed\n', chunks: 'lines' },
            ],
          },
        },
        steps: [
          ready,
          wait(1500),
          ...submit('clean the build output with an agent'),
          waitText(/Bash command · from the general-purpose agent/, 30_000, 'dialog visible'),
          call(async () => void (heldAtDialog = rig.pending.size), 'held?'),
          menuChoice(rig, 'Yes', (o) => (outcome = o), { agent: 'claude-code', reader: NUMBERED_MENU }),
          waitText(/The agent removed the build directory/, 60_000, 'the subagent finished'),
        ],
      }),
      (_rig, out) => {
        assert.strictEqual(heldAtDialog, 0, 'nothing was held for the subagent’s request');
        assert.deepStrictEqual(outcome, { ok: true, option: 'Yes' });
        // The subagent's Bash ran: its result (not the Agent tool's own) went back to the model, not an error.
        const bash = everyToolResult(out).filter((r) => !JSON.stringify(r.content).includes('agentId'));
        assert.deepStrictEqual(
          bash.map((r) => r.is_error),
          [false],
          JSON.stringify(everyToolResult(out)),
        );
      },
    );
  });
});
