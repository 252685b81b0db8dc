import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { createAnthropicMock } from '../../../harness/mock/anthropic';
import { killRunProcesses, prepareClaudeHome } from '../../../harness/homes';
import { api, ROOT, screenshot, shellTerminal, sleep, stateOf, transitions, typeLine, waitState } from './util';

/**
 * The real Claude Code CLI (2.1.328, installed by scripts/agents/install.sh) in a real VS Code terminal,
 * against the scripted Anthropic mock on loopback: a Bash tool call that needs approval.
 */
describe('the real Claude Code CLI in a VS Code terminal', function () {
  this.timeout(240_000);

  it('idle → working → waiting → working → at rest → exited, read from the live terminal stream', async () => {
    const a = await api();
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
          { type: 'text', text: 'Done: the build/ directory has been removed.\n', chunks: 'lines' },
        ],
      },
      logFile: path.join(process.env.AGENT_LENS_E2E_ARTIFACTS ?? '/tmp', 'mock-anthropic.jsonl'),
    });
    const port = await mock.listen();
    const home = prepareClaudeHome({
      baseUrl: `http://127.0.0.1:${port}`,
      agentsDir: path.join(ROOT, '.agents'),
      files: { 'build/': '', 'build/out.txt': 'x\n' },
    });
    const t = await shellTerminal('real claude', home.env, vscode.TerminalLocation.Editor);
    t.show();
    const seen = transitions(a, t);
    try {
      const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
      t.shellIntegration!.executeCommand(`cd ${q(home.cwd)} && ${[home.command, ...home.args].map(q).join(' ')}`);
      await waitState(a, t, 'claude-code', 'idle', 60_000);
      // The TUI needs a moment after its first frame before it takes input.
      await sleep(2500);
      await typeLine(t, 'clean the build output');
      await waitState(a, t, 'claude-code', 'working', 30_000);
      const w = await waitState(a, t, 'claude-code', 'waiting', 60_000);
      assert.strictEqual(w.waitKind, 'permission');
      const item = a.ui.tree().find((i) => i.group === 'Needs you' && i.label === 'real claude');
      assert.ok(item, `not under "Needs you": ${JSON.stringify(a.ui.tree())}`);
      await screenshot('real-claude-waiting');
      t.sendText('\r', false);
      await waitFor2(
        () => {
          const s = stateOf(a, t);
          return (
            s &&
            s.agent === 'claude-code' &&
            ['stopped', 'completed', 'idle'].includes(s.state) &&
            seen.list.lastIndexOf('claude-code/working') > seen.list.indexOf('claude-code/waiting')
          );
        },
        60_000,
        () => `at rest after approval (seen ${seen.list.join(' → ')})`,
      );
      assert.ok(!fs.existsSync(path.join(home.cwd, 'build')), 'the approved command ran in the real CLI');
      await screenshot('real-claude-done');
      await typeLine(t, '/exit');
      await waitState(a, t, 'claude-code', 'exited', 30_000);
      const want = [
        'claude-code/idle',
        'claude-code/working',
        'claude-code/waiting',
        'claude-code/working',
        'claude-code/stopped',
        'claude-code/exited',
      ];
      let k = 0;
      for (const s of seen.list) if (s === want[k]) k++;
      assert.strictEqual(k, want.length, `transitions ${seen.list.join(' → ')}`);
      assert.ok(mock.agentRequests >= 2, `the CLI made ${mock.agentRequests} model requests`);
    } finally {
      seen.dispose();
      t.dispose();
      await killRunProcesses(home.runId).catch(() => undefined);
      await mock.close();
    }
  });
});

async function waitFor2(probe: () => boolean | undefined, timeoutMs: number, what: () => string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what()}`);
    await sleep(100);
  }
}
