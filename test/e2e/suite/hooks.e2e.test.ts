import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { killRunProcesses, prepareClaudeHome } from '../../../harness/homes';
import { createAnthropicMock } from '../../../harness/mock/anthropic';
import type { Wait } from '../../../src/store/waits';
import {
  api,
  ARTIFACTS,
  QUICK_INPUT,
  QUICK_INPUT_FIELD,
  ROOT,
  screenshot,
  shellTerminal,
  sleep,
  stateOf,
  typeLine,
  ui,
  UI_DRIVER,
  waitFor,
  waitState,
} from './util';

/** Agent Lens's status bar items (ids `<extension id>.<item id>`), else the whole status bar. */
const STATUS_ITEMS = ['.statusbar-item[id^="agent-lens.agent-lens."]', '[id="workbench.parts.statusbar"]'];

/**
 * Claude Code's own hooks, installed by our command into its settings, report through the reporter to this
 * window's hub: a real permission dialog is under "Needs you" from the screen at once and confirmed by its
 * hook; the notification waits 15 s from when the dialog appeared and never pushes while its terminal has
 * focus; a reply that ends with a question is answered from VS Code and the real CLI sends the answer to the
 * model; uninstalling restores the settings file byte for byte.
 */
describe('hooks: a real Claude Code permission dialog, the notification rule, answering from VS Code, uninstall', function () {
  this.timeout(360_000);

  it('hook-confirmed wait, notified after 15 s only when not focused, answer typed into the CLI, settings restored', async () => {
    const a = await api();
    await waitFor('the hub', () => a.hub(), 20_000);
    const logFile = path.join(ARTIFACTS, 'mock-anthropic-hooks.jsonl');
    const mock = createAnthropicMock({
      script: {
        title: 'Clean build output',
        turns: [
          {
            type: 'tool',
            name: 'Bash',
            text: "I'll remove the build directory.",
            input: { command: 'rm -rf build', description: 'Remove the build directory' },
          },
          { type: 'text', text: 'Removed build/.\n\nShall I also delete the cache folder?\n', chunks: 'lines' },
          { type: 'text', text: 'Understood: the cache folder stays.\n', chunks: 'lines' },
        ],
      },
      logFile,
    });
    const port = await mock.listen();
    const home = prepareClaudeHome({
      baseUrl: `http://127.0.0.1:${port}`,
      agentsDir: path.join(ROOT, '.agents'),
      hooks: false,
      files: { 'build/': '', 'build/out.txt': 'x\n' },
    });
    const configDir = path.join(home.home, '.claude');
    const settingsFile = path.join(configDir, 'settings.json');
    // Claude Code 2.1.328 rewrites settings.json at start to move `autoUpdates: false` into `env`; written the
    // way it leaves it, the file is the user's alone between our install and uninstall.
    fs.writeFileSync(
      settingsFile,
      `${JSON.stringify({ env: { DISABLE_AUTOUPDATER: '1' }, includeCoAuthoredBy: false, permissions: { defaultMode: 'default' }, autoUpdates: false }, null, 2)}\n`,
    );
    const original = fs.readFileSync(settingsFile);
    const t = await shellTerminal('claude hooks', home.env, vscode.TerminalLocation.Editor);
    const other = await shellTerminal('elsewhere', {}, vscode.TerminalLocation.Panel);
    try {
      await vscode.commands.executeCommand('agentLens.installHooks', { agent: 'claude-code', dir: configDir });
      const installed = fs.readFileSync(settingsFile, 'utf8');
      assert.match(installed, /agent-lens-report/, 'our hooks are in the settings file');
      assert.doesNotMatch(installed, new RegExp(a.hub()!.port.toString() + '|[0-9a-f]{64}'), 'neither port nor token in settings');

      t.show();
      const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
      t.shellIntegration!.executeCommand(`cd ${q(home.cwd)} && ${[home.command, ...home.args].map(q).join(' ')}`);
      await waitState(a, t, 'claude-code', 'idle', 60_000);
      await sleep(2500);
      await typeLine(t, 'clean the build output');
      const id = a.terminalId(t)!;
      const wait = await waitFor('a permission wait', () => a.waits().find((w) => w.terminalId === id && w.kind === 'permission'), 60_000);
      const shownAt = Date.now();
      const item = a.ui.tree().find((i) => i.group === 'Needs you' && i.waitId === wait.id);
      assert.ok(item, `not under "Needs you": ${JSON.stringify(a.ui.tree())}`);
      const confirmed = await waitFor(
        'the hook to confirm the wait',
        () => {
          const w = a.waits().find((x) => x.id === wait.id);
          return w && w.seenBy.includes('hook') && w.seenBy.includes('pty-scrape') ? w : undefined;
        },
        15_000,
      );
      console.log(
        `      wait ${wait.id} opened by ${wait.openedBy}; seen by ${confirmed.seenBy.join(', ')} within ${Date.now() - shownAt} ms; question: ${confirmed.question}`,
      );
      assert.match(confirmed.question ?? '', /rm -rf build/);
      await screenshot('hooks-permission-needs-you');
      await screenshot('readme-status-bar', { clip: STATUS_ITEMS, pad: 4 });

      await checkNotificationRule(a, t, other, confirmed);
      await checkSwitchOff(a, t, confirmed);

      t.show();
      await sleep(500);
      t.sendText('\r', false);
      const closed = await waitFor(
        'the wait to close after approval',
        () => {
          const w = a.waits().find((x) => x.id === wait.id);
          return w ? undefined : true;
        },
        30_000,
      );
      assert.ok(closed);
      await waitFor('build/ removed by the approved command', () => !fs.existsSync(path.join(home.cwd, 'build')), 30_000);

      const ask = await waitFor(
        'the reply that asks, under Needs you',
        () => a.waits().find((w) => w.terminalId === id && w.kind === 'reply-question'),
        60_000,
      );
      const askItem = a.ui.tree().find((i) => i.waitId === ask.id);
      assert.strictEqual(askItem?.command, 'agentLens.answerWait', JSON.stringify(askItem));
      console.log(`      reply-question ${ask.id} from ${ask.seenBy.join(', ')}: ${ask.question}`);
      assert.match(ask.question ?? '', /delete the cache folder\?/);
      await screenshot('hooks-reply-question');
      await answerFromInputBox('No, keep the cache folder');
      await waitFor(
        'the mock model to receive the typed answer',
        () => fs.existsSync(logFile) && fs.readFileSync(logFile, 'utf8').includes('No, keep the cache folder'),
        60_000,
      );
      await waitFor('the reply-question to close', () => !a.waits().some((w) => w.id === ask.id), 30_000);
      await waitFor(
        'the third turn to finish',
        () => ['completed', 'stopped', 'idle'].includes(stateOf(a, t)?.state ?? '') && mock.agentRequests >= 3,
        60_000,
      );
      await screenshot('readme-answer-sent');

      await typeLine(t, '/exit');
      await waitState(a, t, 'claude-code', 'exited', 30_000);
      assert.ok(a.hub()!.reports.recorded >= 5, `reports recorded: ${JSON.stringify(a.hub()!.reports)}`);
      const beforeUninstall = fs.readFileSync(settingsFile, 'utf8');
      assert.match(beforeUninstall, /agent-lens-report/, 'our hooks are still there at the end of the session');
    } finally {
      await vscode.commands.executeCommand('agentLens.uninstallHooks', { agent: 'claude-code', dir: configDir });
      t.dispose();
      other.dispose();
      await killRunProcesses(home.runId).catch(() => undefined);
      await mock.close();
    }
    const after = fs.readFileSync(settingsFile);
    assert.ok(
      after.equals(original),
      `uninstall restored the settings file byte for byte:\n${after.toString()}\n--- original:\n${original.toString()}`,
    );
  });
});

/**
 * Seed 001: a dialog still open 15 s after it appeared notifies, never while its terminal is the focused one;
 * the notification names the terminal, the agent and the question.
 */
async function checkNotificationRule(
  a: Awaited<ReturnType<typeof api>>,
  t: vscode.Terminal,
  other: vscode.Terminal,
  w: Wait,
): Promise<void> {
  const mine = () => a.ui.notifications().filter((n) => n.waitId === w.id);
  const due = w.openedAt + 15_000;
  if (vscode.window.state.focused) {
    await waitFor('15 s after the dialog appeared', () => Date.now() > due + 3500, 30_000, 250);
    assert.deepStrictEqual(mine(), [], 'no notification while its terminal has focus');
    other.show();
  } else {
    console.log('      (the browser window has no focus here: only the 15 s rule is checked)');
  }
  const [n] = await waitFor('the notification', () => (mine().length ? mine() : undefined), 30_000, 250);
  assert.ok(n.at >= due - 50, `notified ${n.at - w.openedAt} ms after the dialog appeared`);
  assert.match(n.message, /Claude Code/);
  assert.match(n.message, /“claude hooks”/);
  assert.match(n.message, /rm -rf build/);
  console.log(`      notified ${((n.at - w.openedAt) / 1000).toFixed(1)} s after the dialog appeared: ${n.message}`);
  await sleep(700);
  await screenshot('readme-notification', { clip: ['.notifications-toasts .notification-toast', '.notifications-toasts'], pad: 6 });
  void t;
}

/**
 * The user switches Claude Code off in the settings (`agentLens.agents`) while its dialog is open: the row says
 * shell and the wait leaves every list at once, though the hooks and the screen keep speaking for it; switched on
 * again, the same wait is back under Needs you without a new word from the agent.
 */
async function checkSwitchOff(a: Awaited<ReturnType<typeof api>>, t: vscode.Terminal, w: Wait): Promise<void> {
  const cfg = () => vscode.workspace.getConfiguration('agentLens');
  const needsYou = () => a.ui.tree().filter((i) => i.group === 'Needs you' && i.waitId === w.id);
  const switchedAt = Date.now();
  await cfg().update('agents', { 'claude-code': false }, vscode.ConfigurationTarget.Global);
  try {
    await waitFor('the row to read shell', () => stateOf(a, t)?.agent === 'shell', 5000, 20);
    console.log(`      switched off: the row read shell ${Date.now() - switchedAt} ms after the setting was written`);
    assert.match(stateOf(a, t)!.evidence, /claude-code detection is switched off/);
    assert.deepStrictEqual([a.waits().filter((x) => x.id === w.id), needsYou()], [[], []]);
  } finally {
    await cfg().update('agents', undefined, vscode.ConfigurationTarget.Global);
  }
  await waitFor(
    'the same wait back under Needs you',
    () => (needsYou().length && stateOf(a, t)?.agent === 'claude-code' ? true : undefined),
    5000,
    20,
  );
  assert.strictEqual(stateOf(a, t)!.state, 'waiting');
}

/**
 * "Answer…" as a user runs it: the runner clicks the question's row under Needs you (the row's own command
 * opens the input box), types the answer into the box (playwright's keyboard, screenshot readme-answer.png)
 * and presses Enter; the command types the line into the terminal. Without a runner (test:vscode) the command
 * runs as from the palette (no wait id: a user has none) with the answer given.
 */
async function answerFromInputBox(answer: string): Promise<void> {
  if (UI_DRIVER) {
    await vscode.commands.executeCommand('workbench.view.extension.agentLens');
    await ui('readme-answer', {
      actions: [
        // The question's own row (its text is the question); the terminal's row above it says "asked a question"
        // too, and a click there only shows the terminal.
        { click: '.part.sidebar .monaco-list-row', hasText: 'delete the cache folder?' },
        { waitFor: QUICK_INPUT, hasText: 'asks' },
        { fill: QUICK_INPUT_FIELD, text: answer },
        { sleep: 300 },
      ],
      after: [{ press: 'Enter', selector: QUICK_INPUT_FIELD }],
    });
    console.log('      answered through the input box opened by a click on the Needs-you row');
    return;
  }
  await vscode.commands.executeCommand('agentLens.answerWait', undefined, answer);
}
