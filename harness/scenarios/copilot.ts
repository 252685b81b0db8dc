/**
 * GitHub Copilot CLI 1.0.102 scenarios: a full-screen TUI whose footer row says what it is doing (`← open sidebar ·
 * Interactive · Manual Approval · …` at rest, `◉ Working · 39 B esc esc interrupt` while working). No completion line:
 * a turn's end is anchored on the reply's last words with the resting footer back below them. Esc interrupts only
 * when pressed twice (`esc esc interrupt`); a single Esc answers an approval dialog with "No" and stops the turn.
 */
import {
  type Scenario,
  type Segment,
  type Step,
  atExit,
  atMark,
  atStart,
  enter,
  key,
  quit,
  screen,
  wait,
  waitExit,
  waitText,
} from '../scenario';
import {
  type BasicsOf,
  basicScenarios,
  dialogScenario,
  streamedText,
  typedAsk,
  type MultistepRun,
  multistepQuitExpect,
  multistepQuitSteps,
} from './basics';
import { PLAN_DONE, numberedPlanScenario } from './numberedPlans';

const A = 'copilot' as const;

export const COPILOT = {
  /** The footer at rest (the input box is empty: no placeholder). */
  ready: /open sidebar · Interactive · Manual Approval/,
  working: /Working(?: · [\d.]+ [KM]?B)? esc esc (?:interrupt|edit prompt)/,
  shellDialog: /Do you want to run this command\?/,
  createDialog: /Do you want to create \S+\?/,
  trustDialog: /Do you trust the files in this folder\?/,
  cancelled: /Operation cancelled by user/,
  /** The denied tool's row; "● Operation cancelled by user" below it was missing in 1 of 4 runs. */
  aborted: /Operation aborted by user/,
  failed500: /Failed to get response from the AI model; retried \d+ times/,
  failed400: /✗ 400 /,
  exitSummary: /Resume\s+copilot --resume=/,
};

/** The reply's last words with the resting footer below them: the turn is over. */
const doneRe = (lastWords: RegExp): RegExp => new RegExp(`${lastWords.source}[\\s\\S]*${COPILOT.ready.source}`);

const startup = (): Segment[] => [
  {
    state: 'idle',
    from: atStart,
    cue: 'startup (before the first frame)',
    note: 'startup: nothing drawn yet; scorers may skip this interval',
  },
  {
    state: 'idle',
    from: screen(COPILOT.ready),
    cue: 'tab bar, "Copilot v1.0.102 uses AI." header, empty "┃" input in a ▄/▀ frame, footer "← open sidebar · Interactive · Manual Approval · …"',
  },
];
const working = (cue = 'footer "◉ Working · <bytes> esc esc interrupt"'): Segment => ({ state: 'working', from: atMark('submit'), cue });
const completedAt = (lastWords: RegExp): Segment => ({
  state: 'completed',
  from: screen(doneRe(lastWords)),
  cue: 'reply "● …" complete, resting footer back',
  accept: ['idle'],
});
const ready: Step[] = [waitText(COPILOT.ready, 30_000, 'prompt visible'), wait(1500)];
const ask = typedAsk(20, 400);
const text = streamedText;
const RM = { command: 'rm -rf build', description: 'Remove the build directory' };
const stopped = (cue: string): Segment => ({ state: 'stopped', from: screen(COPILOT.cancelled), cue, accept: ['idle'] });

export const COPILOT_BASICS: BasicsOf = {
  agent: A,
  name: 'GitHub Copilot CLI',
  ready,
  ask,
  startup,
  working: () => working(),
  completedAt,
};

const approvals: Scenario[] = [
  dialogScenario(COPILOT_BASICS, {
    id: '04-shell-approve',
    description: 'bash `rm -rf build`: "Do you want to run this command?" is held ~15 s, then "1. Yes" (Enter); the model answers.',
    turns: [{ type: 'tool', name: 'bash', input: RM }, text('Done: the build directory has been removed.')],
    dialog: COPILOT.shellDialog,
    holdMs: 15_000,
    answer: 'approve',
    done: doneRe(/directory has been removed\./),
    end: completedAt(/directory has been removed\./),
    dialogCue: 'box "Remove the build directory" / "rm -rf build" / "Do you want to run this command?" / "❯ 1. Yes"',
    answeredCue: 'approved, the command runs',
  }),
  dialogScenario(COPILOT_BASICS, {
    id: '05-shell-deny',
    description:
      'Like 04, but after ~15 s the dialog is answered with Esc ("3. No, and tell Copilot what to do differently (Esc to stop)").',
    turns: [{ type: 'tool', name: 'bash', input: RM }, text('Understood, I left the build directory alone.')],
    dialog: COPILOT.shellDialog,
    holdMs: 15_000,
    answer: 'deny',
    done: COPILOT.aborted,
    end: {
      state: 'stopped',
      from: screen(COPILOT.aborted),
      cue: 'tool row "✗ Shell Remove the build directory Operation aborted by user", usually with "● Operation cancelled by user" below; resting footer',
      accept: ['idle'],
    },
    dialogCue: 'approval dialog',
    answeredCue: 'cancelled',
    restMs: 8000,
  }),
];

const toolRuns: Scenario = {
  id: '06-tool-runs',
  agent: A,
  description:
    'A ~4 s bash command pre-allowed with `--allow-tool=shell(sleep) --allow-tool=shell(wc)` runs without asking, then the answer.',
  args: ['--allow-tool=shell(sleep)', '--allow-tool=shell(wc)'],
  mock: {
    turns: [
      { type: 'tool', name: 'bash', input: { command: 'sleep 4; wc -l README.md', description: 'Count README lines' } },
      text('README.md has 3 lines.'),
    ],
  },
  steps: [
    ...ready,
    ...ask('count the lines of the readme'),
    waitText(doneRe(/README\.md has 3 lines\./), 40_000, 'turn finished'),
    wait(6000),
  ],
  tailMs: 0,
  expect: [
    ...startup(),
    working('"$ Shell Count README lines" / "sleep 4; wc -l README.md", footer Working'),
    completedAt(/README\.md has 3 lines\./),
  ],
};

const escInterrupt: Scenario = {
  id: '07-esc-interrupt',
  agent: A,
  description: 'A reply streams slowly; after ~6 s Esc is pressed twice (one Esc does nothing while working: "esc esc interrupt").',
  mock: { turns: [{ type: 'hang', text: 'Here is a step-by-step plan for adding tests to demo-app. First, ', maxMs: 120_000 }] },
  steps: [
    ...ready,
    ...ask('Plan how to add tests to this project.'),
    waitText(/step-by-step plan/, 30_000, 'streaming'),
    wait(6000),
    key('esc', 'interrupt', 2),
    waitText(COPILOT.cancelled, 10_000, 'stopped'),
    wait(8000),
  ],
  tailMs: 0,
  expect: [...startup(), working(), stopped('"● Operation cancelled by user" under the partial reply')],
};

const errors: Scenario[] = [
  {
    id: '08-server-error-500',
    agent: A,
    description: 'Every request answers HTTP 500: "Request failed due to a transient API error. Retrying..." rows, then it gives up.',
    mock: { turns: [{ type: 'error', status: 500, sticky: true }] },
    steps: [...ready, ...ask('What is the capital of France?'), waitText(COPILOT.failed500, 90_000, 'gave up'), wait(8000)],
    tailMs: 0,
    timeoutMs: 180_000,
    expect: [
      ...startup(),
      working('footer Working; "● Request failed due to a transient API error. Retrying..." per retry'),
      {
        state: 'failed',
        from: screen(doneRe(COPILOT.failed500)),
        cue: '"✗ Failed to get response from the AI model; retried 5 times … Last error: 500 …"',
      },
    ],
  },
  {
    id: '16-api-error-400',
    agent: A,
    description: 'Every request answers HTTP 400 "Invalid request": no retry, "✗ 400 …" ends the turn.',
    mock: { turns: [{ type: 'error', status: 400, sticky: true, message: 'Invalid request: unknown field "foo"' }] },
    steps: [...ready, ...ask('What is the capital of France?'), waitText(COPILOT.failed400, 30_000, 'error shown'), wait(8000)],
    tailMs: 0,
    expect: [...startup(), working(), { state: 'failed', from: screen(doneRe(COPILOT.failed400)), cue: '"✗ 400 Invalid request: …"' }],
  },
];

const MULTISTEP: MultistepRun = {
  dialogs: [COPILOT.createDialog, COPILOT.shellDialog],
  dialogMarks: ['create dialog', 'shell dialog'],
  dialogCues: ['"Create file" box, "Do you want to create …/hello.js?"', 'shell dialog'],
  approvedCues: ['1. Yes', '1. Yes'],
  settled: doneRe,
  exited: { state: 'exited', from: atExit, cue: '/exit: usage summary (Changes, Duration, Tokens, Resume copilot --resume=<id>), exit 0' },
};

const multistep: Scenario = {
  id: '09-multistep-quit',
  agent: A,
  description: 'create hello.js approved, a second prompt with `node hello.js` approved, then /exit: usage summary, exit 0.',
  mock: {
    turns: [
      { type: 'tool', name: 'create', input: { path: '{{CWD}}/hello.js', file_text: "console.log('Hello from demo-app');\n" } },
      text('Created hello.js.'),
      { type: 'tool', name: 'bash', input: { command: 'node hello.js', description: 'Run hello.js' } },
      text('It printed the greeting: all good.'),
    ],
  },
  steps: multistepQuitSteps(COPILOT_BASICS, MULTISTEP),
  tailMs: 500,
  expect: multistepQuitExpect(COPILOT_BASICS, MULTISTEP),
};

const folderTrust: Scenario = {
  id: '30-folder-trust',
  agent: A,
  description:
    'An untrusted project folder: "Confirm folder trust" / "Do you trust the files in this folder?" at start, held ~10 s, then "1. Yes".',
  untrusted: true,
  mock: { turns: [] },
  steps: [
    waitText(COPILOT.trustDialog, 30_000, 'trust dialog'),
    wait(10_000),
    enter('approve'),
    waitText(COPILOT.ready, 15_000, 'prompt visible'),
    wait(6000),
  ],
  tailMs: 0,
  expect: [
    {
      state: 'idle',
      from: atStart,
      cue: 'startup (before the first frame)',
      note: 'startup: nothing drawn yet; scorers may skip this interval',
    },
    {
      state: 'waiting',
      from: screen(COPILOT.trustDialog),
      cue: '"Confirm folder trust" box, "❯ 1. Yes / 2. Yes, and remember … / 3. No (Esc)"',
    },
    {
      state: 'idle',
      from: atMark('approve'),
      cue: '"● Folder … has been added to trusted folders." no: 1. Yes trusts for this session; resting footer',
    },
  ],
};

const USAGE_FIRST = /The readme describes demo-app\./;
const USAGE_SECOND = /Noted: nothing else to do\./;

/** Usage (issue 30): the session log's usage records against what the mock served (test/unit/usage/copilot.test.ts). */
const usageTwoTurns: Scenario = {
  id: '40-usage-two-turns',
  agent: A,
  description:
    'Usage: view README.md (read-only: no dialog) then a text answer, a second prompt answered with text, then /exit. The mock logs the usage it served.',
  mock: {
    turns: [
      { type: 'tool', name: 'view', input: { path: '{{CWD}}/README.md' } },
      text('The readme describes demo-app.'),
      text('Noted: nothing else to do.'),
    ],
  },
  steps: [
    ...ready,
    ...ask('what does the readme say?'),
    waitText(doneRe(USAGE_FIRST), 30_000, 'first turn finished'),
    wait(5000),
    ...ask('thanks', 'submit2'),
    waitText(doneRe(USAGE_SECOND), 30_000, 'second turn finished'),
    wait(4000),
    quit(),
    waitExit(15_000, 'exit'),
  ],
  tailMs: 500,
  expect: [
    ...startup(),
    working(),
    completedAt(USAGE_FIRST),
    { state: 'working', from: atMark('submit2'), cue: 'second prompt' },
    completedAt(USAGE_SECOND),
    MULTISTEP.exited,
  ],
};

export const copilotScenarios: Scenario[] = [
  ...basicScenarios(COPILOT_BASICS),
  ...approvals,
  toolRuns,
  escInterrupt,
  errors[0]!,
  multistep,
  errors[1]!,
  {
    ...numberedPlanScenario(COPILOT_BASICS),
    steps: [...ready, ...ask('Plan the parser fix.'), waitText(doneRe(PLAN_DONE), 60_000, 'done'), wait(6000)],
  },
  folderTrust,
  usageTwoTurns,
];
