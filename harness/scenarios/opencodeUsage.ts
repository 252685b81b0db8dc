/**
 * Usage (issue 30) for OpenCode and Kilo, which share their TUI and database: two turns, the first with a `read` tool
 * call (allowed without a dialog), then quit. The mock logs the usage each response served; the usage test
 * (test/unit/usage/opencode.test.ts) compares the rows' tokens with it.
 */
import { type Scenario, atExit, atMark, quit, screenN, submit, wait, waitExit, waitText } from '../scenario';
import type { BasicsOf } from './basics';
import { KILO, KILO_BASICS } from './kilocode';
import { OPENCODE, OPENCODE_BASICS } from './opencode';

const REPLY_1 = 'README.md has 3 lines; the first is the title # demo-app.';
/** Two lines: the view shows the first. */
const REPLY_2 = 'The project is called demo-app.\nIt is a tiny demo project.';
const streamed = (text: string) => ({ type: 'text' as const, text, firstDelayMs: 500, delayMs: 50, chunks: 10 });

function usageTwoTurns(o: BasicsOf, completedLine: RegExp, exitCue: string): Scenario {
  const twice = new RegExp(`${completedLine.source}[\\s\\S]*${completedLine.source}`);
  return {
    id: '40-usage-two-turns',
    agent: o.agent,
    description: `Usage: turn 1 reads README.md (read tool, no dialog) and answers; turn 2 a two-line answer; then ${o.name} quits.`,
    mock: {
      title: 'Read the readme',
      turns: [
        { type: 'tool', name: 'read', text: 'I will read README.md.', input: { filePath: '{{CWD}}/README.md' } },
        streamed(REPLY_1),
        streamed(REPLY_2),
      ],
    },
    steps: [
      ...o.ready,
      ...submit('what is in README.md?'),
      waitText(completedLine, 60_000, 'turn 1 finished'),
      wait(3000),
      ...submit('what is the project called?', 'submit2'),
      waitText(/It is a tiny demo project/, 60_000),
      waitText(twice, 30_000, 'turn 2 finished'),
      wait(3000),
      quit(),
      waitExit(15_000, 'exit seen'),
    ],
    tailMs: 500,
    expect: [
      ...o.startup(),
      o.working(),
      o.completedAt(completedLine),
      { state: 'working', from: atMark('submit2'), cue: 'footer spinner' },
      { state: 'completed', from: screenN(completedLine, 2), cue: 'second "▣ … <n>s" line', accept: ['idle'] },
      { state: 'exited', from: atExit, cue: exitCue },
    ],
  };
}

export const opencodeUsageScenarios: Scenario[] = [
  usageTwoTurns(OPENCODE_BASICS, OPENCODE.completed, 'process exited (logo, "Continue  opencode -s …")'),
  usageTwoTurns(KILO_BASICS, KILO.completed, 'process exited (logo, session title, "kilo -s <sessionID>")'),
];
