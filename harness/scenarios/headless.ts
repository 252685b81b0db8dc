/**
 * Headless runs: each CLI's non-interactive mode prints plain output and exits. Working from the
 * start to the exit, then Completed on exit code 0 or Failed otherwise — the exit code is the outcome.
 */
import { type Scenario, atExit, atStart, waitExit } from '../scenario';
import type { AgentName } from '../homes';
import { AGENT_COMMAND } from '../commandLine';

const PROMPT = 'Give me a one-line summary of this repository.';

/** How each CLI is told to run one prompt and exit. */
const HEADLESS_ARGS: Partial<Record<AgentName, string[]>> = {
  'claude-code': ['-p', PROMPT],
  codex: ['exec', '--skip-git-repo-check', PROMPT],
  opencode: ['run', PROMPT],
  gemini: ['-p', PROMPT],
  pi: ['-p', PROMPT],
  qwen: ['-p', PROMPT],
  copilot: ['-p', PROMPT],
  'continue-cli': ['-p', PROMPT],
  droid: ['exec', PROMPT],
  kilocode: ['run', PROMPT],
};

function pair(agent: AgentName, first: number): Scenario[] {
  const args = HEADLESS_ARGS[agent]!;
  const cmd = `${AGENT_COMMAND[agent]} ${args[0]}`;
  return [
    {
      id: `${first}-headless-ok`,
      agent,
      description: `\`${cmd} "…"\`: one plain answer printed, exit code 0.`,
      args,
      mock: {
        title: 'Summary',
        turns: [{ type: 'text', text: 'This repository is a small demo project with a README and a build folder.\n', chunks: 'lines' }],
      },
      steps: [waitExit(120_000, 'exit')],
      tailMs: 500,
      expect: [
        { state: 'working', from: atStart, cue: `headless run (${cmd}) until it exits` },
        { state: 'completed', from: atExit, cue: 'exit code 0' },
      ],
    },
    {
      id: `${first + 1}-headless-server-error`,
      agent,
      description: `\`${cmd} "…"\` against a server that answers every request with HTTP 400: an error, exit code ≠ 0.`,
      args,
      mock: { title: 'Summary', turns: [{ type: 'error', status: 400, sticky: true }] },
      steps: [waitExit(180_000, 'exit')],
      tailMs: 500,
      timeoutMs: 240_000,
      expect: [
        { state: 'working', from: atStart, cue: `headless run (${cmd}) until it exits` },
        { state: 'failed', from: atExit, cue: 'exit code ≠ 0' },
      ],
    },
  ];
}

export const headlessScenarios: Scenario[] = [
  ...pair('claude-code', 20),
  ...pair('codex', 20),
  ...pair('opencode', 20),
  ...pair('gemini', 20),
  ...pair('pi', 20),
  ...pair('qwen', 20),
  ...pair('copilot', 20),
  ...pair('continue-cli', 20),
  ...pair('droid', 20),
  ...pair('kilocode', 20),
];
