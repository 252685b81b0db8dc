import * as assert from 'assert';
import Module from 'module';
import type * as AnswerModule from '../../../src/vscode/answerCommands';
import { PendingAnswers } from '../../../src/answer/pending';
import { AgentStore } from '../../../src/store/store';
import { obs } from '../obs';

/**
 * What the Needs-you rows and notifications offer for an answer, by the window's one rule (Answering.offerOf):
 * pi's selector read whole off its screen is offered as a choice answered by keys, so is a numbered dialog no hook
 * holds, never one on a terminal where a hook holds a request, nothing at all while
 * `agentLens.answer.fromVSCode` is off, and a handle handed out before the setting went off answers nothing.
 */
const shown: { kind: string; args: unknown[] }[] = [];
const fakeVscode = {
  l10n: { t: (s: string, ...a: unknown[]) => s.replace(/\{(\d+)\}/g, (_m, i: string) => String(a[Number(i)])) },
  window: {
    showInformationMessage: (...args: unknown[]) => (shown.push({ kind: 'info', args }), Promise.resolve(undefined)),
    showWarningMessage: (...args: unknown[]) => (shown.push({ kind: 'warn', args }), Promise.resolve(undefined)),
    showQuickPick: (...args: unknown[]) => (shown.push({ kind: 'pick', args }), Promise.resolve(undefined)),
  },
};

function load(): typeof AnswerModule {
  const loader = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
  const original = loader._load;
  loader._load = function (this: unknown, request: string, ...rest: unknown[]) {
    return request === 'vscode' ? fakeVscode : original.call(this, request, ...rest);
  };
  try {
    return require('../../../src/vscode/answerCommands') as typeof AnswerModule;
  } finally {
    loader._load = original;
  }
}

const RULE = '─'.repeat(80);
const PI_DIALOG = [RULE, '', ' Allow?', '', ' → Yes', '   No', '', ' ↑↓ navigate  enter select  escape/ctrl+c cancel', '', RULE];

const CLAUDE_DIALOG = [RULE, ' Bash command', ' rm -rf build', ' Do you want to proceed?', ' ❯ 1. Yes', '   2. No', '', ' Esc to cancel'];

function world(enabled: { on: boolean }, agent: 'pi' | 'claude-code' = 'pi', pending = new PendingAnswers()) {
  const { Answering } = load();
  const store = new AgentStore();
  store.openTerminal('P', agent);
  const wait = agent === 'pi' ? 'prompt' : 'permission';
  store.observe(obs('pty-scrape', 1000, 'waiting', { wait, agent, locator: { terminalId: 'P' } }));
  const PI_DIALOG_OR_CLAUDE = agent === 'pi' ? PI_DIALOG : CLAUDE_DIALOG;
  const typed: string[] = [];
  const terminals = {
    session: () => ({ screenText: () => PI_DIALOG_OR_CLAUDE.join('\n') }),
    terminalOf: () => ({ sendText: (d: string) => typed.push(d), processId: Promise.resolve(undefined), show: () => undefined }),
  };
  const log = { info: () => undefined, warn: () => undefined };
  const answering = new Answering(pending, store, terminals as never, log as never, () => enabled.on);
  return { answering, store, typed, waitId: store.waits()[0].id };
}

describe('vscode: what is offered for an answer from VS Code, and the setting that gates it', () => {
  beforeEach(() => (shown.length = 0));

  it('pi’s selector on its screen is offered as a choice answered by keys, on the row and the notification alike', () => {
    const { answering, store, waitId } = world({ on: true });
    const offer = answering.offers(store.waits(), 10_000).get(waitId);
    assert.ok(offer);
    assert.deepStrictEqual([offer.question, offer.byKeys], [true, true]);
    assert.deepStrictEqual(answering.offered(waitId), { handle: offer.handle, question: true, byKeys: true });
  });

  it('a dialog no hook holds (Claude Code without its hooks) is offered in the generic shape; one a hook holds never by keys', () => {
    const free = world({ on: true }, 'claude-code');
    assert.deepStrictEqual(
      [...free.answering.offers(free.store.waits(), 10_000).values()].map((o) => [o.question, o.byKeys]),
      [[true, true]],
    );
    const pending = new PendingAnswers();
    // Two requests held on the terminal: ambiguous, so the hook offers nothing, and keys must not either.
    for (const id of ['x', 'y'])
      pending.add(
        { agent: 'claude-code', terminalId: 'P', waitId: id, tool: 'Bash', input: { command: 'rm -rf build' }, since: 0 },
        () => undefined,
      );
    const held = world({ on: true }, 'claude-code', pending);
    assert.strictEqual(held.answering.offers(held.store.waits(), 10_000).size, 0);
    assert.strictEqual(held.answering.offered(held.waitId), undefined);
  });

  it('with the setting off nothing is offered, by hook or by keys', () => {
    const { answering, store, waitId } = world({ on: false });
    assert.strictEqual(answering.offers(store.waits(), 10_000).size, 0);
    assert.strictEqual(answering.offered(waitId), undefined);
  });

  it('a handle from before the setting went off answers nothing and types nothing', async () => {
    const enabled = { on: true };
    const { answering, store, typed, waitId } = world(enabled);
    const handle = answering.offers(store.waits(), 10_000).get(waitId)!.handle;
    enabled.on = false;
    for (const run of [() => answering.choose(handle), () => answering.allow(handle), () => answering.deny(handle)])
      assert.strictEqual(await run(), undefined);
    assert.deepStrictEqual(typed, []);
    assert.ok(!shown.some((s) => s.kind === 'pick'), 'no option was offered to pick');
    assert.ok(
      shown.every((s) => s.kind === 'info'),
      JSON.stringify(shown),
    );
  });
});
