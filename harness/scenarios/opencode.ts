/**
 * OpenCode 1.18.33 scenarios (openai-compatible provider "mock", permission.bash = "ask").
 * Cues are the on-screen strings the real CLI prints (seen in its recordings under test/fixtures/live).
 * OpenCode is slow to start on 2 cores (home screen after 5–20 s) and spends 5–10 s of "working"
 * bootstrapping a session before the first model request: timeouts are generous.
 */
import {
  type Scenario,
  type Segment,
  atExit,
  atMark,
  atStart,
  enter,
  key,
  quit,
  screen,
  screenN,
  submit,
  wait,
  waitExit,
  waitGone,
  waitText,
} from '../scenario';
import type { BasicsOf } from './basics';

const A = 'opencode' as const;

export const OPENCODE = {
  ready: /Ask anything/,
  agentLine: /Build · Mock Model/,
  working: /esc (?:again to )?interrupt/,
  permission: /Permission required/,
  question: /esc dismiss/,
  /** ▣  Build · Mock Model · 10.8s */
  completed: /▣\s+Build · Mock Model · [<\d]/,
  interrupted: /▣\s+Build · Mock Model · interrupted/,
};

const startup = (): Segment[] => [
  {
    state: 'idle',
    from: atStart,
    cue: 'startup (blank alternate screen, TUI not drawn yet)',
    note: 'startup: screen blank / TUI still drawing; scorers may skip this interval',
  },
  { state: 'idle', from: screen(OPENCODE.ready), cue: 'home screen, input "Ask anything…"' },
];
const working = (cue = 'footer spinner "esc interrupt"'): Segment => ({ state: 'working', from: atMark('submit'), cue });
const completed = (n = 1): Segment => ({
  state: 'completed',
  from: n === 1 ? screen(OPENCODE.completed) : screenN(OPENCODE.completed, n),
  cue: '"▣  Build · Mock Model · <n>s" (duration shown)',
  accept: ['idle'],
});
const ready = [waitText(OPENCODE.ready, 60_000, 'home visible'), waitText(OPENCODE.agentLine, 20_000), wait(2500)];
/** What the scenarios every agent shares need (numberedPlans.ts); OpenCode's turn ends on its completion line. */
export const OPENCODE_BASICS: BasicsOf = {
  agent: A,
  name: 'OpenCode',
  ready,
  ask: (t) => submit(t),
  startup,
  working: () => working(),
  completedAt: () => completed(),
};

const BASH_WC = { command: 'wc -l README.md', description: 'Count lines in README.md' };
const BASH_RM = { command: 'rm -rf build', description: 'Remove the build directory' };

const QUESTION = {
  questions: [
    {
      question: 'Which test framework should I set up for demo-app?',
      header: 'Tests',
      options: [
        { label: 'Vitest (Recommended)', description: 'Fast, Vite-native, Jest-compatible API' },
        { label: 'Jest', description: 'The most widely used JavaScript test runner' },
        { label: 'node:test', description: 'Built into Node.js, no dependency' },
      ],
    },
  ],
};

const LONG_TEXT = Array.from(
  { length: 14 },
  (_, i) => `${i + 1}. Step ${i + 1} of the plan: move one more helper into its own module and update its imports.`,
).join('\n');

export const opencodeScenarios: Scenario[] = [
  {
    id: '01-idle-start',
    agent: A,
    description: 'Start OpenCode and leave it untouched on the home screen for ~15 s.',
    mock: { turns: [] },
    steps: [...ready, wait(12_500)],
    tailMs: 0,
    expect: startup(),
  },
  {
    id: '02-plain-answer',
    agent: A,
    description: 'One prompt answered with plain text, then ~8 s at rest.',
    mock: {
      title: 'Capital of France',
      turns: [
        {
          type: 'text',
          text: 'The capital of France is Paris. It is also the largest city in the country.',
          firstDelayMs: 500,
          delayMs: 50,
          chunks: 10,
        },
      ],
    },
    steps: [...ready, ...submit('What is the capital of France?'), waitText(OPENCODE.completed, 60_000, 'turn finished'), wait(8000)],
    tailMs: 0,
    expect: [...startup(), working(), completed()],
  },
  {
    id: '03-question-reply',
    agent: A,
    description: 'The answer ends with a question to the user; the turn ends normally.',
    mock: {
      title: 'Set up unit tests',
      turns: [
        {
          type: 'text',
          text: 'I can set up tests with either Vitest or Jest. Which one would you like me to use?',
          firstDelayMs: 500,
          delayMs: 50,
          chunks: 10,
        },
      ],
    },
    steps: [...ready, ...submit('Set up unit tests for this project.'), waitText(OPENCODE.completed, 60_000, 'turn finished'), wait(8000)],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      {
        state: 'waiting',
        from: screen(OPENCODE.completed),
        cue: 'answer ends with a question; "▣ … <n>s" shown',
        accept: ['completed', 'idle'],
      },
    ],
  },
  {
    id: '04-permission-approve',
    agent: A,
    description:
      'bash tool (permission "ask"): the permission dock is held ~20 s, then "Allow once" (Enter); the command runs; the model answers.',
    mock: {
      title: 'Count lines',
      turns: [
        { type: 'tool', name: 'bash', text: 'I will count the lines in README.md.', input: BASH_WC },
        { type: 'text', text: 'README.md has 3 lines.', firstDelayMs: 500, delayMs: 50, chunks: 10 },
      ],
    },
    steps: [
      ...ready,
      ...submit('how many lines are in README.md?'),
      waitText(OPENCODE.permission, 60_000, 'dock visible'),
      wait(20_000),
      enter('approve'),
      waitText(OPENCODE.completed, 60_000, 'turn finished'),
      wait(5000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(OPENCODE.permission), cue: '"△ Permission required" dock (Allow once / Allow always / Reject)' },
      { state: 'working', from: atMark('approve'), cue: 'allowed once, command runs' },
      completed(),
    ],
  },
  {
    id: '05-permission-reject',
    agent: A,
    description: 'Like 04 with `rm -rf build`, but after ~20 s "Reject" is chosen (→ → Enter): the turn stops.',
    mock: {
      title: 'Clean build output',
      turns: [{ type: 'tool', name: 'bash', text: 'I will remove the build directory.', input: BASH_RM }],
    },
    steps: [
      ...ready,
      ...submit('clean the build output'),
      waitText(OPENCODE.permission, 60_000, 'dock visible'),
      wait(20_000),
      key('right'),
      wait(250),
      key('right'),
      wait(250),
      enter('reject'),
      waitText(OPENCODE.agentLine, 10_000),
      wait(6000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(OPENCODE.permission), cue: '"△ Permission required" dock' },
      {
        state: 'stopped',
        from: atMark('reject'),
        cue: 'dock gone; "▣  Build · Mock Model" without duration, no answer',
        accept: ['idle', 'completed'],
      },
    ],
  },
  {
    id: '06-question-answer',
    agent: A,
    description: 'question tool with 3 options; after ~10 s the 2nd option is chosen (↓ Enter); the model answers.',
    mock: {
      title: 'Pick test framework',
      turns: [
        { type: 'tool', name: 'question', input: QUESTION },
        { type: 'text', text: 'Jest it is. I will add a jest config and a first test.', firstDelayMs: 500, delayMs: 50, chunks: 10 },
      ],
    },
    steps: [
      ...ready,
      ...submit('set up unit tests'),
      waitText(OPENCODE.question, 60_000, 'question visible'),
      wait(10_000),
      key('down'),
      wait(300),
      enter('answer'),
      waitText(OPENCODE.completed, 60_000, 'turn finished'),
      wait(5000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(OPENCODE.question), cue: 'question dock "↑↓ select  enter submit  esc dismiss"' },
      { state: 'working', from: atMark('answer'), cue: 'answer submitted' },
      completed(),
    ],
  },
  {
    id: '06b-question-dismiss',
    agent: A,
    description: 'question tool dismissed with Esc after ~10 s: the turn stops.',
    mock: { title: 'Pick test framework', turns: [{ type: 'tool', name: 'question', input: QUESTION }] },
    steps: [
      ...ready,
      ...submit('set up unit tests'),
      waitText(OPENCODE.question, 60_000, 'question visible'),
      wait(10_000),
      key('esc', 'dismiss'),
      waitGone(OPENCODE.question, 10_000, 'dock gone'),
      wait(6000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(OPENCODE.question), cue: 'question dock' },
      { state: 'stopped', from: atMark('dismiss'), cue: 'dock gone; "→ Asked 1 question", no answer', accept: ['idle', 'completed'] },
    ],
  },
  {
    id: '07-slow-streaming',
    agent: A,
    description: 'A 14-line answer streamed slowly over ~10 s.',
    mock: { title: 'Refactoring plan', turns: [{ type: 'text', text: LONG_TEXT, chunks: 'lines', firstDelayMs: 500, durationMs: 10_000 }] },
    steps: [...ready, ...submit('Write a refactoring plan.'), waitText(OPENCODE.completed, 90_000, 'turn finished'), wait(5000)],
    tailMs: 0,
    expect: [...startup(), working(), completed()],
  },
  {
    id: '08-esc-interrupt',
    agent: A,
    description: 'A long answer is streaming; Esc, Esc ("esc again to interrupt") interrupts it.',
    mock: {
      title: 'Refactoring plan',
      turns: [{ type: 'text', text: `${LONG_TEXT}\n${LONG_TEXT}`, chunks: 'lines', firstDelayMs: 500, durationMs: 60_000 }],
    },
    steps: [
      ...ready,
      ...submit('Write a long refactoring plan.'),
      waitText(/1\. Step 1 of the plan/, 60_000, 'streaming visible'),
      wait(4000),
      key('esc', 'interrupt'),
      waitText(/esc again to interrupt/, 5000, undefined, true),
      key('esc', 'interrupt2'),
      waitText(OPENCODE.interrupted, 15_000, 'stopped visible'),
      wait(5000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'stopped', from: atMark('interrupt2'), cue: '"▣  Build · Mock Model · interrupted"', accept: ['idle'] },
    ],
  },
  {
    id: '09-api-error-401',
    agent: A,
    description: 'The model request gets HTTP 401 (not retried): OpenCode shows the provider error at once.',
    mock: {
      title: 'Summarise',
      turns: [
        {
          type: 'error',
          status: 401,
          sticky: true,
          message: 'Incorrect API key provided: dummy-no*-key. You can find your API key in your provider dashboard.',
        },
      ],
    },
    steps: [...ready, ...submit('Summarise the README.'), waitText(/Incorrect API key provided/, 60_000, 'error visible'), wait(8000)],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'failed', from: screen(/Incorrect API key provided/), cue: 'error block (and toast) "Incorrect API key provided …"' },
    ],
  },
  {
    id: '10-multistep-quit',
    agent: A,
    description: 'Turn 1: bash `wc -l README.md` allowed after ~3 s, answer; turn 2: plain answer; then ctrl+c quits.',
    mock: {
      title: 'Count lines',
      turns: [
        { type: 'tool', name: 'bash', text: 'I will count the lines in README.md.', input: BASH_WC },
        { type: 'text', text: 'README.md has 3 lines.', firstDelayMs: 500, delayMs: 50, chunks: 10 },
        { type: 'text', text: 'The first line is the title: # demo-app.', firstDelayMs: 500, delayMs: 50, chunks: 10 },
      ],
    },
    steps: [
      ...ready,
      ...submit('how many lines are in README.md?', 'submit'),
      waitText(OPENCODE.permission, 60_000, 'dock visible'),
      wait(3000),
      enter('approve'),
      waitText(OPENCODE.completed, 60_000, 'turn 1 finished'),
      wait(3000),
      ...submit('what is on the first line?', 'submit2'),
      waitText(/The first line is the title/, 60_000),
      waitText(new RegExp(`${OPENCODE.completed.source}[\\s\\S]*${OPENCODE.completed.source}`), 30_000, 'turn 2 finished'),
      wait(3000),
      quit(),
      waitExit(15_000, 'exit seen'),
    ],
    tailMs: 500,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(OPENCODE.permission), cue: '"△ Permission required" dock' },
      { state: 'working', from: atMark('approve'), cue: 'allowed once' },
      completed(1),
      { state: 'working', from: atMark('submit2'), cue: 'footer spinner' },
      completed(2),
      { state: 'exited', from: atExit, cue: 'process exited (logo, "Continue  opencode -s …")' },
    ],
  },
  {
    id: '11-narrow-80x24-permission',
    agent: A,
    cols: 80,
    rows: 24,
    description: 'Like 04 at 80x24 (the dock hints are cut); held ~10 s, then allowed once.',
    mock: {
      title: 'Count lines',
      turns: [
        { type: 'tool', name: 'bash', text: 'I will count the lines in README.md.', input: BASH_WC },
        { type: 'text', text: 'README.md has 3 lines.', firstDelayMs: 500, delayMs: 50, chunks: 10 },
      ],
    },
    steps: [
      ...ready,
      ...submit('how many lines are in README.md?'),
      waitText(OPENCODE.permission, 60_000, 'dock visible'),
      wait(10_000),
      enter('approve'),
      waitText(OPENCODE.completed, 60_000, 'turn finished'),
      wait(4000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(OPENCODE.permission), cue: '"△ Permission required" dock (80 cols)' },
      { state: 'working', from: atMark('approve'), cue: 'allowed once, command runs' },
      completed(),
    ],
  },
];
