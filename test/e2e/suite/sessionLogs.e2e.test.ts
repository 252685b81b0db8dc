import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AgentLensTestSurface } from '../../../src/vscode/api';
import { type AgentHome, killRunProcesses, prepareHome } from '../../../harness/homes';
import { createAnthropicMock } from '../../../harness/mock/anthropic';
import type { MockScript, MockServer, Turn } from '../../../harness/mock/common';
import { createChatMock } from '../../../harness/mock/openai-chat';
import { createResponsesMock } from '../../../harness/mock/openai-responses';
import type { TerminalState } from '../../../src/store/types';
import { api, ARTIFACTS, ROOT, screenshot, shellTerminal, sleep, stateOf, typeLine, waitFor } from './util';

/**
 * The real CLIs in real VS Code terminals, with their session logs watched by the extension: a finished
 * turn ends in Completed and a server error or an interrupt in Failed (source jsonl-watcher), with the
 * reason in the tree item and its tooltip. One session per agent, one turn per step.
 */
type Agent = 'claude-code' | 'codex' | 'opencode';
type Outcome = 'completed' | 'interrupted' | 'error';

const LONG = Array.from({ length: 30 }, (_, i) => `${i + 1}. Step ${i + 1}: move one more helper into its own module.`).join('\n');
const PLAIN: Turn = { type: 'text', text: 'Hello from the mock model.\n', chunks: 'lines' };
const SLOW: Turn = { type: 'text', text: `${LONG}\n`, chunks: 'lines', firstDelayMs: 500, durationMs: 90_000 };

interface Step {
  prompt: string;
  outcome: Outcome;
}

interface Case {
  agent: Agent;
  mock: (script: MockScript, logFile: string) => MockServer;
  /** Screen text that says the TUI takes input. */
  ready: RegExp;
  turns: Turn[];
  steps: Step[];
  errorReason: RegExp;
  /** Keys that interrupt a streaming reply. */
  interrupt: string[];
  env?: Record<string, string>;
  /** The settings that point the extension at this run's logs. */
  settings: (h: AgentHome) => Record<string, string[]>;
}

const CASES: Case[] = [
  {
    agent: 'claude-code',
    mock: (script, logFile) => createAnthropicMock({ script, logFile }),
    ready: /⏸ manual mode on/,
    turns: [PLAIN, SLOW, { type: 'error', status: 529, sticky: true }],
    steps: [
      { prompt: 'Say hello.', outcome: 'completed' },
      { prompt: 'Write a long refactoring plan.', outcome: 'interrupted' },
      { prompt: 'Summarise the project.', outcome: 'error' },
    ],
    // Mid-session Claude retries an overloaded API for minutes (10 retries); its own switch keeps the test short.
    env: { CLAUDE_CODE_MAX_RETRIES: '2' },
    errorReason: /^API error 529$/,
    interrupt: ['\x1b'],
    settings: (h) => ({ 'sessionLogs.claudeConfigDirs': [h.env.CLAUDE_CONFIG_DIR ?? path.join(h.home, '.claude')] }),
  },
  {
    agent: 'codex',
    mock: (script, logFile) => createResponsesMock({ script, logFile }),
    ready: /GPT-[\d.]+-Sol/i,
    turns: [PLAIN, SLOW, { type: 'error', status: 429, sticky: true, headers: { 'retry-after': '1' } }],
    steps: [
      { prompt: 'Say hello.', outcome: 'completed' },
      { prompt: 'Write a long refactoring plan.', outcome: 'interrupted' },
      { prompt: 'Summarise the project.', outcome: 'error' },
    ],
    errorReason: /^API error 429$/,
    interrupt: ['\x1b'],
    settings: (h) => ({ 'sessionLogs.codexHomes': [h.env.CODEX_HOME] }),
  },
  {
    agent: 'opencode',
    mock: (script, logFile) => createChatMock({ script, logFile }),
    ready: /Build · Mock Model/,
    // OpenCode retries a 500 five times, honouring retry-after-ms: a short one keeps the test short.
    turns: [PLAIN, SLOW, { type: 'error', status: 500, sticky: true, headers: { 'retry-after-ms': '50' } }],
    steps: [
      { prompt: 'Say hello.', outcome: 'completed' },
      { prompt: 'Write a long refactoring plan.', outcome: 'interrupted' },
      { prompt: 'Summarise the project.', outcome: 'error' },
    ],
    errorReason: /^API error 500$/,
    // The first Esc arms ("esc again to interrupt"), the second interrupts.
    interrupt: ['\x1b', '\x1b'],
    settings: (h) => ({ 'sessionLogs.opencodeDatabases': [path.join(h.env.XDG_DATA_HOME, 'opencode', 'opencode.db')] }),
  },
];

describe('session logs: the real CLIs end their turns in Completed / Failed (jsonl-watcher)', function () {
  this.timeout(420_000);

  for (const c of CASES) {
    it(`${c.agent}: ${c.steps.map((s) => s.outcome).join(', ')}`, async () => {
      const a = await api();
      const mock = c.mock({ title: 'Session log check', turns: c.turns }, path.join(ARTIFACTS, `mock-${c.agent}-logs.jsonl`));
      const port = await mock.listen();
      const home = prepareHome(c.agent, { baseUrl: `http://127.0.0.1:${port}`, agentsDir: path.join(ROOT, '.agents'), env: c.env });
      const cfg = vscode.workspace.getConfiguration('agentLens');
      const settings = c.settings(home);
      for (const [k, v] of Object.entries(settings)) await cfg.update(k, v, vscode.ConfigurationTarget.Global);
      const t = await shellTerminal(`${c.agent} logs`, home.env, vscode.TerminalLocation.Editor);
      t.show();
      try {
        const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
        t.shellIntegration!.executeCommand(`cd ${q(home.cwd)} && ${[home.command, ...home.args].map(q).join(' ')}`);
        await waitFor(`${c.agent} ready on screen`, () => c.ready.test(a.screenText(a.terminalId(t)!)), 120_000);
        await sleep(2500);
        for (const step of c.steps) await runStep(a, t, c, step);
      } finally {
        t.dispose();
        await killRunProcesses(home.runId).catch(() => undefined);
        await mock.close();
        for (const k of Object.keys(settings)) await cfg.update(k, undefined, vscode.ConfigurationTarget.Global);
      }
    });
  }
});

async function runStep(a: AgentLensTestSurface, t: vscode.Terminal, c: Case, step: Step): Promise<void> {
  const before = stateOf(a, t)!.history.length;
  await typeLine(t, step.prompt);
  // A short turn can be over before the next look: any working transition since the prompt counts.
  await until(a, t, `working on "${step.prompt}"`, (s) => s.history.slice(before).some((h) => h.state === 'working'), 60_000);
  if (step.outcome === 'completed') {
    const s = await until(a, t, 'completed from the session log', (x) => x.state === 'completed' && x.source === 'jsonl-watcher', 90_000);
    assertShown(a, t, s, 'completed');
  } else if (step.outcome === 'interrupted') {
    await sleep(4000);
    for (const k of c.interrupt) {
      t.sendText(k, false);
      await sleep(600);
    }
    const s = await until(
      a,
      t,
      'failed · interrupted from the session log',
      (x) => x.state === 'failed' && x.source === 'jsonl-watcher' && x.reason === 'interrupted',
      60_000,
    );
    assertShown(a, t, s, 'failed · interrupted');
    await screenshot(`${c.agent}-logs-interrupted`);
  } else {
    const s = await until(
      a,
      t,
      'failed · server error from the session log',
      (x) => x.state === 'failed' && x.source === 'jsonl-watcher' && c.errorReason.test(x.reason ?? ''),
      120_000,
    );
    assertShown(a, t, s, `failed · ${s.reason}`);
  }
  await sleep(1500);
}

async function until(
  a: AgentLensTestSurface,
  t: vscode.Terminal,
  what: string,
  ok: (s: TerminalState) => boolean,
  timeoutMs: number,
): Promise<TerminalState> {
  return waitFor(
    what,
    () => {
      const s = stateOf(a, t);
      return s && ok(s) ? s : undefined;
    },
    timeoutMs,
  ).catch((e: Error) => {
    const s = stateOf(a, t);
    throw new Error(
      `${e.message}; now ${s ? `${s.agent}/${s.state} (${s.source}: ${s.evidence})` : 'unknown'}; words ${JSON.stringify(s?.words.map((w) => `${w.source}:${w.state}:${w.reason ?? ''}`))}; screen:\n${a.screenText(a.terminalId(t)!)}`,
    );
  });
}

/** The tree item carries the reason, and so does the tooltip with each source's latest word. */
function assertShown(a: AgentLensTestSurface, t: vscode.Terminal, s: TerminalState, label: string): void {
  const item = a.ui.tree().find((i) => i.id === a.terminalId(t));
  assert.ok(item && item.description.includes(label), `tree item ${JSON.stringify(item)} should say "${label}"`);
  assert.ok(
    item!.tooltip && item!.tooltip.includes('`jsonl-watcher`') && (!s.reason || item!.tooltip.includes(s.reason)),
    `tooltip: ${item?.tooltip}`,
  );
}
