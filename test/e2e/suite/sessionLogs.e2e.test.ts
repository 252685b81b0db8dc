import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AgentLensApi } from '../../../src/extension';
import { killRunProcesses, prepareHome } from '../../../harness/homes';
import { createAnthropicMock } from '../../../harness/mock/anthropic';
import type { MockScript, MockServer } from '../../../harness/mock/common';
import { createChatMock } from '../../../harness/mock/openai-chat';
import { createResponsesMock } from '../../../harness/mock/openai-responses';
import type { TerminalState } from '../../../src/store/types';
import { api, ARTIFACTS, ROOT, screenshot, shellTerminal, sleep, stateOf, typeLine, waitFor } from './util';

/**
 * The real CLIs in real VS Code terminals, with their session logs watched by the extension: a finished
 * turn ends in Completed and a server error or an interrupt in Failed (source jsonl-watcher), with the
 * reason in the label and tooltip. One session per agent, three turns: plain answer, Esc while streaming,
 * a server error that does not go away.
 */
type Agent = 'claude-code' | 'codex' | 'opencode';

const LONG = Array.from({ length: 30 }, (_, i) => `${i + 1}. Step ${i + 1}: move one more helper into its own module.`).join('\n');

interface Case {
  agent: Agent;
  mock: (script: MockScript, logFile: string) => MockServer;
  error: { type: 'error'; status: number; sticky: true; message?: string };
  errorReason: RegExp;
  /** Keys that interrupt a streaming reply (OpenCode asks for Esc twice). */
  interrupt: string[];
  /** The setting that points the extension at this run's logs. */
  settings: (home: { home: string; env: Record<string, string> }) => Record<string, string[]>;
}

const CASES: Case[] = [
  {
    agent: 'claude-code',
    mock: (script, logFile) => createAnthropicMock({ script, logFile }),
    error: { type: 'error', status: 529, sticky: true },
    errorReason: /^API error 529$/,
    interrupt: ['\x1b'],
    settings: (h) => ({ 'sessionLogs.claudeConfigDirs': [h.env.CLAUDE_CONFIG_DIR ?? path.join(h.home, '.claude')] }),
  },
  {
    agent: 'codex',
    mock: (script, logFile) => createResponsesMock({ script, logFile }),
    error: { type: 'error', status: 429, sticky: true },
    errorReason: /^API error 429$/,
    interrupt: ['\x1b'],
    settings: (h) => ({ 'sessionLogs.codexHomes': [h.env.CODEX_HOME] }),
  },
];

describe('session logs: the real CLIs end their turns in Completed / Failed (jsonl-watcher)', function () {
  this.timeout(420_000);

  for (const c of CASES) {
    it(`${c.agent}: completed, failed · interrupted, failed · server error`, async () => {
      const a = await api();
      const script: MockScript = {
        title: 'Session log check',
        turns: [
          { type: 'text', text: 'Hello from the mock model.\n', chunks: 'lines' },
          { type: 'text', text: `${LONG}\n`, chunks: 'lines', firstDelayMs: 500, durationMs: 90_000 },
          c.error,
        ],
      };
      const mock = c.mock(script, path.join(ARTIFACTS, `mock-${c.agent}-logs.jsonl`));
      const port = await mock.listen();
      const home = prepareHome(c.agent, { baseUrl: `http://127.0.0.1:${port}`, agentsDir: path.join(ROOT, '.agents') });
      const cfg = vscode.workspace.getConfiguration('agentLens');
      const settings = c.settings(home);
      for (const [k, v] of Object.entries(settings)) await cfg.update(k, v, vscode.ConfigurationTarget.Global);
      const t = await shellTerminal(`${c.agent} logs`, home.env, vscode.TerminalLocation.Editor);
      t.show();
      try {
        const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
        t.shellIntegration!.executeCommand(`cd ${q(home.cwd)} && ${[home.command, ...home.args].map(q).join(' ')}`);
        await until(a, t, `${c.agent} idle`, (s) => s.agent === c.agent && s.state === 'idle', 90_000);
        await sleep(3000);

        await typeLine(t, 'Say hello.');
        const done = await until(a, t, 'completed from the session log', (s) => s.state === 'completed' && s.source === 'jsonl-watcher', 90_000);
        assert.match(done.evidence, /turn|task_complete|complete/i);

        await typeLine(t, 'Write a long refactoring plan.');
        await until(a, t, 'working on turn 2', (s) => s.state === 'working', 60_000);
        await sleep(4000);
        for (const k of c.interrupt) {
          t.sendText(k, false);
          await sleep(600);
        }
        const stopped = await until(a, t, 'failed · interrupted from the session log', (s) => s.state === 'failed' && s.source === 'jsonl-watcher' && s.reason === 'interrupted', 60_000);
        assertShown(a, t, stopped, 'failed · interrupted');
        await screenshot(`${c.agent}-logs-interrupted`);

        await sleep(1500);
        await typeLine(t, 'Summarise the project.');
        const failed = await until(a, t, 'failed · server error from the session log', (s) => s.state === 'failed' && s.source === 'jsonl-watcher' && c.errorReason.test(s.reason ?? ''), 150_000);
        assertShown(a, t, failed, `failed · ${failed.reason}`);
      } finally {
        t.dispose();
        await killRunProcesses(home.runId).catch(() => undefined);
        await mock.close();
        for (const k of Object.keys(settings)) await cfg.update(k, undefined, vscode.ConfigurationTarget.Global);
      }
    });
  }
});

async function until(a: AgentLensApi, t: vscode.Terminal, what: string, ok: (s: TerminalState) => boolean, timeoutMs: number): Promise<TerminalState> {
  return waitFor(what, () => {
    const s = stateOf(a, t);
    return s && ok(s) ? s : undefined;
  }, timeoutMs).catch((e: Error) => {
    const s = stateOf(a, t);
    throw new Error(`${e.message}; now ${s ? `${s.agent}/${s.state} (${s.source}: ${s.evidence})` : 'unknown'}; words ${JSON.stringify(s?.words.map((w) => `${w.source}:${w.state}:${w.reason ?? ''}`))}`);
  });
}

/** The tree item carries the reason, and so does the tooltip with each source's latest word. */
function assertShown(a: AgentLensApi, t: vscode.Terminal, s: TerminalState, label: string): void {
  const item = a.ui.tree().find((i) => i.id === a.terminalId(t));
  assert.ok(item && item.description.includes(label), `tree item ${JSON.stringify(item)} should say "${label}"`);
  assert.ok(item!.tooltip && item!.tooltip.includes('`jsonl-watcher`') && item!.tooltip.includes(s.reason!), `tooltip: ${item?.tooltip}`);
}
