/**
 * Claude Code 2.1.328 scenarios (manual permission mode, dark theme, VS Code terminal env).
 * Cues are the on-screen strings the real CLI prints (claudeCues.ts);
 * 04-06b, the dialogs held in the middle of a turn, are in claudeDialogs.ts.
 */
import { type Scenario, atExit, atMark, enter, key, quit, screen, submit, wait, waitExit, waitText } from '../scenario';
import { BASH_RM, CLAUDE, completed, ready, startup, working } from './claudeCues';
import { claudeDialogScenarios } from './claudeDialogs';

export { CLAUDE } from './claudeCues';

const A = 'claude-code' as const;

const LONG_TEXT = Array.from(
  { length: 14 },
  (_, i) => `${i + 1}. Step ${i + 1} of the refactoring plan: move one more helper into its own module and update its imports.`,
).join('\n');

export const claudeScenarios: Scenario[] = [
  {
    id: '01-idle-start',
    agent: A,
    description: 'Start Claude Code and leave it untouched at the empty prompt for ~15 s.',
    mock: { turns: [] },
    steps: [ready, wait(15_000)],
    tailMs: 0,
    expect: startup(),
  },
  {
    id: '02-plain-answer',
    agent: A,
    description: 'One prompt answered with plain text (no tools), then ~8 s at rest.',
    mock: {
      title: 'Explain closures',
      turns: [
        {
          type: 'text',
          text: 'A closure is a function together with the variables of the scope it was created in.\nIt keeps those variables alive after the outer function has returned.\n',
          chunks: 'lines',
          delayMs: 300,
        },
      ],
    },
    steps: [
      ready,
      wait(1500),
      ...submit('explain what a JavaScript closure is'),
      waitText(CLAUDE.completed, 30_000, 'turn finished'),
      wait(8000),
    ],
    tailMs: 0,
    expect: [...startup(), working(), completed()],
  },
  {
    id: '03-question-reply',
    agent: A,
    description: 'The answer ends with a question to the user; the turn ends normally (Stop).',
    mock: {
      title: 'Choose a test framework',
      turns: [
        {
          type: 'text',
          text: 'I can set up tests for this project with either Vitest or Jest.\nWhich one would you like me to use?\n',
          chunks: 'lines',
          delayMs: 300,
        },
      ],
    },
    steps: [ready, wait(1500), ...submit('set up unit tests'), waitText(CLAUDE.completed, 30_000, 'turn finished'), wait(8000)],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      {
        state: 'waiting',
        from: screen(CLAUDE.completed),
        cue: 'reply ends with a question; completion line shown',
        accept: ['completed', 'idle'],
      },
    ],
  },
  ...claudeDialogScenarios,
  {
    id: '07-slow-streaming',
    agent: A,
    description: 'A 14-line answer streamed slowly over ~10 s (the spinner line disappears while text streams).',
    mock: {
      title: 'Refactoring plan',
      turns: [{ type: 'text', text: `${LONG_TEXT}\n`, chunks: 'lines', firstDelayMs: 500, durationMs: 10_000 }],
    },
    steps: [ready, wait(1500), ...submit('write a refactoring plan'), waitText(CLAUDE.completed, 40_000, 'turn finished'), wait(5000)],
    tailMs: 0,
    expect: [...startup(), working('footer "esc to interrupt" (spinner line hidden while text streams)'), completed()],
  },
  {
    id: '08-esc-interrupt',
    agent: A,
    description: 'A long answer is streaming; Esc after ~5 s of work interrupts it.',
    mock: {
      title: 'Refactoring plan',
      turns: [{ type: 'text', text: `${LONG_TEXT}\n${LONG_TEXT}\n`, chunks: 'lines', firstDelayMs: 1500, durationMs: 60_000 }],
    },
    steps: [
      ready,
      wait(1500),
      ...submit('write a long refactoring plan'),
      waitText(CLAUDE.working, 20_000, 'working visible'),
      wait(5000),
      key('esc', 'interrupt'),
      waitText(CLAUDE.stopped, 15_000, 'stopped visible'),
      wait(5000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'stopped', from: atMark('interrupt'), cue: '"Interrupted · What should Claude do instead?"', accept: ['idle'] },
    ],
  },
  {
    id: '09-api-error-529',
    agent: A,
    description:
      'Every request gets HTTP 529 overloaded_error; Claude retries twice (3 requests) and shows "API Error: Repeated 529 Overloaded errors".',
    mock: { title: 'Summarise', turns: [{ type: 'error', status: 529, sticky: true }] },
    steps: [ready, wait(1500), ...submit('summarise the README'), waitText(CLAUDE.failed, 60_000, 'error visible'), wait(6000)],
    tailMs: 0,
    expect: [
      ...startup(),
      working('footer "esc to interrupt" / "API error · retrying"'),
      { state: 'failed', from: screen(CLAUDE.failed), cue: '"● API Error: Repeated 529 Overloaded errors …"' },
    ],
  },
  {
    id: '10-multiturn-quit',
    agent: A,
    description: 'Turn 1: Write hello.py (create-file dialog approved after ~3 s) and a reply; turn 2: plain answer; then /exit.',
    mock: {
      title: 'Hello script',
      turns: [
        {
          type: 'tool',
          name: 'Write',
          text: "I'll create hello.py.",
          input: { file_path: '{{CWD}}/hello.py', content: "print('hello')\n" },
        },
        { type: 'text', text: 'Created hello.py. Run it with python3 hello.py.\n', chunks: 'lines' },
        { type: 'text', text: 'It prints the word hello and exits.\n', chunks: 'lines' },
      ],
    },
    steps: [
      ready,
      wait(1500),
      ...submit('create hello.py that prints hello', 'submit1'),
      waitText(CLAUDE.createFile, 30_000, 'dialog visible'),
      wait(3000),
      enter('approve'),
      waitText(CLAUDE.completed, 30_000, 'turn 1 finished'),
      wait(3000),
      ...submit('what does it print?', 'submit2'),
      waitText(/It prints the word hello/, 30_000),
      waitText(/✻[^\n]*for \d+s[\s\S]*✻[^\n]*for \d+s/, 30_000, 'turn 2 finished'),
      wait(3000),
      quit(),
      waitExit(15_000, 'exit seen'),
    ],
    tailMs: 500,
    expect: [
      ...startup(),
      { state: 'working', from: atMark('submit1'), cue: 'footer "esc to interrupt"' },
      { state: 'waiting', from: screen(CLAUDE.createFile), cue: 'create-file dialog "Do you want to create hello.py?"' },
      { state: 'working', from: atMark('approve'), cue: 'file written' },
      completed(1),
      { state: 'working', from: atMark('submit2'), cue: 'footer "esc to interrupt"' },
      completed(2),
      { state: 'exited', from: atExit, cue: 'process exited ("Resume this session with:")' },
    ],
  },
  {
    id: '40-usage-two-turns',
    agent: A,
    description:
      'Usage figures (issue 30): turn 1 reads README.md (Read needs no dialog) and answers; turn 2 is a plain answer; then /exit. The mock logs the usage of each response. Long rests, so the screen’s ~0.2 s lag at each transition weighs less.',
    mock: {
      title: 'Read the README',
      turns: [
        { type: 'tool', name: 'Read', text: "I'll read the README.", input: { file_path: '{{CWD}}/README.md' } },
        { type: 'text', text: 'The README says this is a tiny demo project for the recording harness.\n', chunks: 'lines' },
        { type: 'text', text: 'It has three lines.\n', chunks: 'lines' },
      ],
    },
    steps: [
      ready,
      wait(4000),
      ...submit('what does the README say?', 'submit1'),
      waitText(CLAUDE.completed, 30_000, 'turn 1 finished'),
      wait(8000),
      ...submit('how many lines does it have?', 'submit2'),
      waitText(/It has three lines/, 30_000),
      waitText(/✻[^\n]*for \d+s[\s\S]*✻[^\n]*for \d+s/, 30_000, 'turn 2 finished'),
      wait(8000),
      quit(),
      waitExit(15_000, 'exit seen'),
    ],
    tailMs: 500,
    expect: [
      ...startup(),
      { state: 'working', from: atMark('submit1'), cue: 'footer "esc to interrupt"' },
      completed(1),
      { state: 'working', from: atMark('submit2'), cue: 'footer "esc to interrupt"' },
      completed(2),
      { state: 'exited', from: atExit, cue: 'process exited ("Resume this session with:")' },
    ],
  },
  {
    id: '11-narrow-80x24-approval',
    agent: A,
    cols: 80,
    rows: 24,
    description: 'Like 04 at 80x24: the permission dialog wraps and fills the screen; held ~10 s, then approved.',
    mock: {
      title: 'Clean build output',
      turns: [
        { type: 'tool', name: 'Bash', text: "I'll remove the build directory.", input: BASH_RM },
        { type: 'text', text: 'Done: the build/ directory has been removed.\n', chunks: 'lines' },
      ],
    },
    steps: [
      ready,
      wait(1500),
      ...submit('clean the build output'),
      waitText(CLAUDE.permission, 30_000, 'dialog visible'),
      wait(10_000),
      enter('approve'),
      waitText(CLAUDE.completed, 30_000, 'turn finished'),
      wait(4000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(CLAUDE.permission), cue: 'permission dialog "Do you want to proceed?" (wrapped at 80 cols)' },
      { state: 'working', from: atMark('approve'), cue: 'dialog closed, command runs' },
      completed(),
    ],
  },
];
