/**
 * Kilo Code CLI 7.7.7 scenarios (a fork of OpenCode: the same full-screen TUI, provider "mock", agent "Code",
 * permission.bash = "ask"). Cues are the strings the real CLI draws (test/fixtures/live/kilocode/FACTS.md). Kilo is
 * slow to start on 2 cores (home screen after ~10–20 s) and spends ~5–10 s "Initializing snapshot…" before its first
 * model request: timeouts are generous.
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
  waitText,
} from '../scenario';
import type { BasicsOf } from './basics';
import { numberedPlanScenario } from './numberedPlans';

const A = 'kilocode' as const;

export const KILO = {
  ready: /Ask anything/,
  agentLine: /Code\s+· Mock Model/,
  working: /esc (?:again to )?interrupt/,
  permission: /△ Permission required/,
  rejectStage: /△ Reject permission/,
  /** ▣  Code · Mock Model · 7.6s */
  completed: /▣\s+Code · Mock Model · [<\d]/,
  interrupted: /▣\s+Code · Mock Model · interrupted/,
};

const startup = (): Segment[] => [
  {
    state: 'idle',
    from: atStart,
    cue: 'startup (blank alternate screen, TUI not drawn yet)',
    note: 'startup: screen blank / TUI still drawing; scorers may skip this interval',
  },
  { state: 'idle', from: screen(KILO.ready), cue: 'home screen: logo, input "Ask anything... \\"<example>\\""' },
];
const working = (cue = 'footer "⬝⬝⬝⬝⬝⬝⬝⬝  esc interrupt" (block spinner)'): Segment => ({ state: 'working', from: atMark('submit'), cue });
const completed = (n = 1): Segment => ({
  state: 'completed',
  from: n === 1 ? screen(KILO.completed) : screenN(KILO.completed, n),
  cue: '"▣  Code · Mock Model · <n>s" (duration shown), footer spinner gone',
  accept: ['idle'],
});
const waitingDock: Segment = {
  state: 'waiting',
  from: screen(KILO.permission),
  cue: '"△ Permission required" dock: "Allow once   Allow always   Reject", "⇆ select  enter confirm"',
};
const ready = [waitText(KILO.ready, 60_000, 'home visible'), waitText(KILO.agentLine, 20_000), wait(2500)];
const text = (t: string) => ({ type: 'text' as const, text: t, firstDelayMs: 400, delayMs: 60, chunks: 14 });
const bash = (command: string, description: string, say?: string) => ({
  type: 'tool' as const,
  name: 'bash',
  ...(say ? { text: say } : {}),
  input: { command, description },
});

/** What the scenarios every agent shares need; Kilo's turn ends on its completion line. */
export const KILO_BASICS: BasicsOf = {
  agent: A,
  name: 'Kilo Code CLI',
  ready,
  ask: (t) => submit(t),
  startup,
  working: () => working(),
  completedAt: () => completed(),
};

const answered = /largest city in the country\./;
const asked = /would you like me to use\?/;

const basics: Scenario[] = [
  {
    id: '01-idle-start',
    agent: A,
    description: 'Start Kilo and leave it untouched on the home screen for ~15 s.',
    mock: { turns: [] },
    steps: [...ready, wait(12_500)],
    tailMs: 0,
    expect: startup(),
  },
  {
    id: '02-plain-answer',
    agent: A,
    description: 'One prompt answered with plain text, then ~8 s at rest.',
    mock: { title: 'Capital of France', turns: [text('The capital of France is Paris. It is also the largest city in the country.')] },
    steps: [
      ...ready,
      ...submit('What is the capital of France?'),
      waitText(answered, 60_000),
      waitText(KILO.completed, 30_000, 'turn finished'),
      wait(8000),
    ],
    tailMs: 0,
    expect: [...startup(), working(), completed()],
  },
  {
    id: '03-question-reply',
    agent: A,
    description: 'The answer ends with a question to the user; the turn ends normally.',
    mock: {
      title: 'Set up unit tests',
      turns: [text('I can set up tests with either Vitest or Jest. Which one would you like me to use?')],
    },
    steps: [
      ...ready,
      ...submit('Set up unit tests for this project.'),
      waitText(asked, 60_000),
      waitText(KILO.completed, 30_000, 'turn finished'),
      wait(8000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      {
        state: 'waiting',
        from: screen(KILO.completed),
        cue: 'answer ends with a question; "▣ … <n>s" shown',
        accept: ['completed', 'idle'],
      },
    ],
  },
];

const dialogs: Scenario[] = [
  {
    id: '04-permission-approve',
    agent: A,
    description:
      'bash `wc -l README.md` (permission "ask"): the dock is held ~15 s, then "Allow once" (Enter); the command runs; the model answers.',
    mock: {
      title: 'Count lines',
      turns: [bash('wc -l README.md', 'Count lines in README.md', 'I will count the lines in README.md.'), text('README.md has 3 lines.')],
    },
    steps: [
      ...ready,
      ...submit('how many lines are in README.md?'),
      waitText(KILO.permission, 60_000, 'dock visible'),
      wait(15_000),
      enter('approve'),
      waitText(KILO.completed, 60_000, 'turn finished'),
      wait(6000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      waitingDock,
      { state: 'working', from: atMark('approve'), cue: 'allowed once, the command runs' },
      completed(),
    ],
  },
  {
    id: '05-permission-reject',
    agent: A,
    description:
      'Like 04 with `rm -rf build`, but after ~15 s Esc opens "△ Reject permission" ("Tell Kilo what to do differently"); Enter confirms an empty reason: the turn stops.',
    mock: {
      title: 'Clean build output',
      turns: [
        bash('rm -rf build', 'Remove the build directory', 'I will remove the build directory.'),
        text('Understood, I left the build directory alone.'),
      ],
    },
    steps: [
      ...ready,
      ...submit('clean the build output'),
      waitText(KILO.permission, 60_000, 'dock visible'),
      wait(15_000),
      key('esc', 'deny'),
      waitText(KILO.rejectStage, 10_000, 'reject stage visible'),
      wait(2000),
      enter('reject'),
      waitText(KILO.agentLine, 10_000),
      wait(8000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      waitingDock,
      {
        state: 'waiting',
        from: screen(KILO.rejectStage),
        cue: '"△ Reject permission" / "Tell Kilo what to do differently" / "enter confirm  esc cancel"',
      },
      {
        state: 'stopped',
        from: atMark('reject'),
        cue: 'dock gone; "▣  Code · Mock Model" without duration, no answer (the model is not asked again)',
        accept: ['idle', 'completed'],
      },
    ],
  },
  {
    id: '06-tool-runs',
    agent: A,
    description: 'A bash call that takes ~4 s runs without asking (KILO_PERMISSION={"bash":"allow"} overlays the config), then the answer.',
    env: { KILO_PERMISSION: '{"bash":"allow"}' },
    mock: {
      title: 'Count lines',
      turns: [
        bash('sleep 4; wc -l README.md', 'Count lines in README.md', 'I will count the lines in README.md.'),
        text('README.md has 3 lines.'),
      ],
    },
    steps: [...ready, ...submit('count the lines of the readme'), waitText(KILO.completed, 60_000, 'turn finished'), wait(6000)],
    tailMs: 0,
    expect: [...startup(), working('footer spinner; "$ sleep 4; wc -l README.md" block while it runs'), completed()],
  },
];

const stops: Scenario[] = [
  {
    id: '07-esc-interrupt',
    agent: A,
    description: 'A reply streams slowly; after ~6 s Esc ("esc again to interrupt"), Esc interrupts it.',
    mock: {
      title: 'Test plan',
      turns: [{ type: 'hang', text: 'Here is a step-by-step plan for adding tests to demo-app. First, ', maxMs: 120_000 }],
    },
    steps: [
      ...ready,
      ...submit('Plan how to add tests to this project.'),
      waitText(/step-by-step plan/, 60_000, 'streaming'),
      wait(6000),
      key('esc', 'interrupt'),
      waitText(/esc again to interrupt/, 5000, undefined, true),
      wait(300),
      key('esc', 'interrupt2'),
      waitText(KILO.interrupted, 15_000, 'stopped'),
      wait(8000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      {
        state: 'stopped',
        from: screen(KILO.interrupted),
        cue: '"▣  Code · Mock Model · interrupted", partial reply kept',
        accept: ['idle'],
      },
    ],
  },
  {
    id: '08-server-error-500',
    agent: A,
    description:
      'Every request answers HTTP 500: Kilo retries 5 times (2, 4, 8, ~17, ~35 s; "<message> [retrying in Ns attempt #n]" in the footer), then shows the error in a block.',
    mock: { title: 'Capital of France', turns: [{ type: 'error', status: 500, sticky: true }] },
    steps: [
      ...ready,
      ...submit('What is the capital of France?'),
      waitText(/┃\s+Internal server error \(mock upstream failure\)/, 150_000, 'gave up'),
      wait(8000),
    ],
    tailMs: 0,
    timeoutMs: 240_000,
    expect: [
      ...startup(),
      working('footer spinner; between attempts "Internal server error (mock upstream failure) [retrying in Ns attempt #n]"'),
      {
        state: 'failed',
        from: screen(/┃\s+Internal server error \(mock upstream failure\)/),
        cue: 'error block "Internal server error (mock upstream failure)"',
      },
    ],
  },
  {
    id: '16-api-error-400',
    agent: A,
    description: 'Every request answers HTTP 400 "Invalid request" (not retried): the error block ends the turn at once.',
    mock: {
      title: 'Capital of France',
      turns: [{ type: 'error', status: 400, sticky: true, message: 'Invalid request: unknown field "foo"' }],
    },
    steps: [
      ...ready,
      ...submit('What is the capital of France?'),
      waitText(/┃\s+Invalid request: unknown field/, 60_000, 'error shown'),
      wait(8000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'failed', from: screen(/┃\s+Invalid request: unknown field/), cue: 'error block "Invalid request: unknown field "foo""' },
    ],
  },
  {
    id: '09-multistep-quit',
    agent: A,
    description: 'Turn 1: bash `wc -l README.md` allowed after ~3 s, answer; turn 2: bash `node src/index.js` allowed, answer; then /exit.',
    mock: {
      title: 'Count lines',
      turns: [
        bash('wc -l README.md', 'Count lines in README.md'),
        text('README.md has 3 lines.'),
        bash('node src/index.js', 'Run the script'),
        text('It printed the greeting: all good.'),
      ],
    },
    steps: [
      ...ready,
      ...submit('how many lines are in README.md?'),
      waitText(KILO.permission, 60_000, 'dock visible'),
      wait(3000),
      enter('approve'),
      waitText(KILO.completed, 60_000, 'turn 1 finished'),
      wait(4000),
      ...submit('now run src/index.js', 'submit2'),
      waitText(KILO.permission, 60_000, 'dock 2 visible'),
      wait(3000),
      enter('approve2'),
      waitText(/printed the greeting: all good\./, 60_000),
      waitText(new RegExp(`${KILO.completed.source}[\\s\\S]*${KILO.completed.source}`), 30_000, 'turn 2 finished'),
      wait(4000),
      quit(),
      waitExit(15_000, 'exit seen'),
    ],
    tailMs: 500,
    expect: [
      ...startup(),
      working(),
      waitingDock,
      { state: 'working', from: atMark('approve'), cue: 'allowed once' },
      completed(1),
      { state: 'working', from: atMark('submit2'), cue: 'footer spinner' },
      waitingDock,
      { state: 'working', from: atMark('approve2'), cue: 'allowed once' },
      completed(2),
      { state: 'exited', from: atExit, cue: 'process exited (logo, session title, "kilo -s <sessionID>")' },
    ],
  },
];

export const kiloScenarios: Scenario[] = [...basics, ...dialogs, ...stops, numberedPlanScenario(KILO_BASICS)];
