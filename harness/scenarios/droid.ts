/**
 * Factory droid 0.225.2 scenarios: an inline TUI (no alternate screen) with the input box between the mode row
 * (`Auto (Off) · all actions require approval`) and the `? for help` footer. A reply is drawn whole when its message
 * ends (nothing of it shows while it streams), and the spinner row `⠋ Streaming...  (Press ESC to stop)` stays while
 * the Stop hook runs, so a turn ends when the reply is on screen and no spinner row is left above the mode row.
 * Every tool call asks first (autonomy Off), except in 06, started with `--auto low`.
 */
import { type Scenario, type Segment, type Step, atMark, atStart, key, screen, wait, waitText } from '../scenario';
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
import { numberedPlanScenario } from './numberedPlans';

const A = 'droid' as const;

export const DROID = {
  ready: /Auto \(Off\) · all actions require approval/,
  placeholder: /> (?:Try|Type) "/,
  working: /\(Press ESC to stop\)/,
  dialog: /Command to approve · /,
  createDialog: /Enter select {3}Esc cancel/,
  interrupted: /⎿ Interrupted/,
  cancelled: /Request cancelled by user/,
  apiError: /BYOK Error: /,
  resume: /To resume this session, run: droid --resume /,
};

/** `what` is on screen and no spinner row comes after it before the mode row above the input box. */
export const settled = (what: RegExp): RegExp => new RegExp(`${what.source}(?:(?!Press ESC to stop)[\\s\\S])*\\n Auto \\(`);

const startup = (): Segment[] => [
  {
    state: 'idle',
    from: atStart,
    cue: 'startup (before the first frame)',
    note: 'startup: nothing drawn yet; scorers may skip this interval',
  },
  {
    state: 'idle',
    from: screen(DROID.ready),
    cue: 'DROID logo, "v0.225.2 - Airgap", mode row "Auto (Off) · all actions require approval", input box with a rotating \'Try "…"\' placeholder',
  },
];
const working = (cue = 'spinner row "⠋ Thinking.../Streaming...  (Press ESC to stop)" above the mode row'): Segment => ({
  state: 'working',
  from: atMark('submit'),
  cue,
});
const completedAt = (lastWords: RegExp): Segment => ({
  state: 'completed',
  from: screen(settled(lastWords)),
  cue: 'reply "⛬  …" drawn, the Stop hook row, spinner row gone',
  accept: ['idle'],
});
const ready: Step[] = [waitText(DROID.ready, 30_000, 'prompt visible'), waitText(DROID.placeholder, 10_000), wait(2000)];
/** Typed like a person, Enter as its own write. */
const ask = typedAsk(20, 500);
const text = streamedText;
/** droid's Execute tool requires a summary and a risk level with its reason. */
const execute = (command: string, summary: string, riskLevel: string, riskLevelReason: string, say?: string) => ({
  type: 'tool' as const,
  name: 'Execute',
  ...(say ? { text: say } : {}),
  input: { summary, command, riskLevelReason, riskLevel },
});
const RM = execute(
  'rm -rf build',
  'Remove the build directory',
  'medium',
  'This rm command deletes the build directory inside the project.',
  "I'll remove the build directory.",
);

export const DROID_BASICS: BasicsOf = { agent: A, name: 'droid', ready, ask, startup, working: () => working(), completedAt };

const approvals: Scenario[] = [
  dialogScenario(DROID_BASICS, {
    id: '04-execute-approve',
    description: 'Execute `rm -rf build`: the approval dialog is held ~15 s, then "Yes, allow" (Enter); the model answers.',
    turns: [RM, text('Done: the build directory has been removed.')],
    dialog: DROID.dialog,
    holdMs: 15_000,
    answer: 'approve',
    done: /directory has been removed\./,
    end: completedAt(/directory has been removed\./),
    dialogCue:
      '"Command to approve · medium risk" / "↳ rm -rf build" / "Why this needs approval: …" / box "Yes, allow" (bold) / "Yes, and always allow medium impact commands …" / "No, cancel"',
    answeredCue: 'allowed, "Executing..." then "↳ Command completed successfully"',
  }),
  dialogScenario(DROID_BASICS, {
    id: '05-execute-deny',
    description:
      'Like 04, but the dialog is answered with Esc after ~15 s: the tool row shows "⎿ Interrupted", the model gets "Tool execution cancelled by user" and is not asked again.',
    turns: [RM, text('Understood, I left the build directory alone.')],
    dialog: DROID.dialog,
    holdMs: 15_000,
    answer: 'deny',
    done: DROID.interrupted,
    end: {
      state: 'stopped',
      from: screen(settled(DROID.interrupted)),
      cue: '"Execute rm -rf build" / "⎿ Interrupted", Stop hook row, empty input box',
      accept: ['idle'],
    },
    dialogCue: 'approval dialog "Command to approve · medium risk"',
    answeredCue: 'cancelled',
    restMs: 8000,
  }),
];

const SLOW_WC = 'sleep 4; wc -l README.md';

const toolRuns: Scenario = {
  id: '06-tool-runs',
  agent: A,
  description:
    'Started with `--auto low`: a low-risk Execute (`sleep 4; wc -l README.md`, ~4 s) runs without asking ("Executing..."), then the answer.',
  args: ['--auto', 'low'],
  mock: {
    turns: [
      execute(SLOW_WC, 'Count the readme lines', 'low', 'This wc command only reads a file.', "I'll count the lines."),
      text('README.md has 3 lines.'),
    ],
  },
  steps: [
    waitText(/Auto \(Low\)/, 30_000, 'prompt visible'),
    waitText(DROID.placeholder, 10_000),
    wait(2000),
    ...ask('count the lines of the readme'),
    waitText(/README\.md has 3 lines\./, 40_000, 'turn finished'),
    wait(6000),
  ],
  tailMs: 0,
  expect: [
    startup()[0]!,
    { state: 'idle', from: screen(/Auto \(Low\)/), cue: 'mode row "Auto (Low) · …", empty input box' },
    working('"Execute sleep 4; wc -l README.md" row, spinner "Executing...  (Press ESC to stop)"'),
    completedAt(/README\.md has 3 lines\./),
  ],
};

const escInterrupt: Scenario = {
  id: '07-esc-interrupt',
  agent: A,
  description:
    'A reply streams slowly (droid draws nothing of it while it streams); Esc after ~6 s: the partial reply is drawn, then "● Request cancelled by user".',
  mock: { turns: [{ type: 'hang', text: 'Here is a step-by-step plan for adding tests to demo-app. First, ', maxMs: 120_000 }] },
  steps: [
    ...ready,
    ...ask('Plan how to add tests to this project.'),
    waitText(/Streaming\.\.\./, 30_000, 'streaming'),
    wait(6000),
    key('esc', 'interrupt'),
    waitText(DROID.cancelled, 10_000, 'stopped'),
    wait(8000),
  ],
  tailMs: 0,
  expect: [
    ...startup(),
    working('"Streaming...  (Press ESC to stop)"; none of the streamed text is drawn yet'),
    {
      state: 'stopped',
      from: screen(settled(DROID.cancelled)),
      cue: 'the partial reply "⛬  Here is a step-by-step plan …", then "● Request cancelled by user"',
      accept: ['idle'],
    },
  ],
};

const serverError: Scenario = {
  id: '08-server-error-500',
  agent: A,
  description:
    'Every request answers HTTP 500: droid retries 10 times (11 requests, ~5 s growing to ~30 s apart, "Retrying the model request (attempt N)..."), then after ~3.5 min "● BYOK Error: 500 …".',
  mock: { turns: [{ type: 'error', status: 500, sticky: true }] },
  steps: [...ready, ...ask('What is the capital of France?'), waitText(DROID.apiError, 300_000, 'gave up'), wait(8000)],
  tailMs: 0,
  timeoutMs: 360_000,
  expect: [
    ...startup(),
    working('spinner row "⠋ Retrying the model request (attempt N)...  (Press ESC to stop)" between the attempts'),
    {
      state: 'failed',
      from: screen(settled(DROID.apiError)),
      cue: '"● BYOK Error: 500 Internal server error (…)" / "Upstream error: …" / "If this persists, verify your custom model configuration in settings."',
    },
  ],
};

const HELLO = { file_path: '{{CWD}}/hello.js', content: "console.log('Hello from demo-app');\n" };

const MULTISTEP: MultistepRun = {
  dialogs: [DROID.createDialog, /Command to approve · /],
  waitFor: [DROID.createDialog, DROID.dialog],
  dialogMarks: ['create dialog', 'execute dialog'],
  dialogCues: ['file approval dialog for "Create hello.js"', '"Command to approve · low risk" / "↳ node hello.js"'],
  approvedCues: ['allowed', 'allowed'],
  exited: {
    state: 'exited',
    from: screen(DROID.resume),
    cue: '/exit: SessionEnd hook rows, then "To resume this session, run: droid --resume <id>"; exit 0',
  },
  exitMs: 20_000,
};

const multistepQuit: Scenario = {
  id: '09-multistep-quit',
  agent: A,
  description: 'Create hello.js (approved), a second prompt with Execute `node hello.js` (approved), then /exit: exit 0.',
  mock: {
    turns: [
      { type: 'tool', name: 'Create', text: "I'll create hello.js.", input: HELLO },
      text('Created hello.js.'),
      execute('node hello.js', 'Run the hello script', 'low', 'This node command runs a local script that only prints.', "I'll run it."),
      text('It printed the greeting: all good.'),
    ],
  },
  steps: multistepQuitSteps(DROID_BASICS, MULTISTEP),
  tailMs: 500,
  expect: multistepQuitExpect(DROID_BASICS, MULTISTEP),
};

const badRequest: Scenario = {
  id: '16-api-error-400',
  agent: A,
  description:
    'The model answers HTTP 400 "Invalid request" (not retried): "● BYOK Error: 400 …" with troubleshooting tips ends the turn at once.',
  mock: { turns: [{ type: 'error', status: 400, sticky: true, message: 'Invalid request: unknown field "foo"' }] },
  steps: [...ready, ...ask('What is the capital of France?'), waitText(DROID.apiError, 30_000, 'error shown'), wait(8000)],
  tailMs: 0,
  expect: [
    ...startup(),
    working(),
    {
      state: 'failed',
      from: screen(settled(DROID.apiError)),
      cue: '"● BYOK Error: 400 Invalid request: …" / "Upstream error: …" / "Troubleshooting tips for custom models:" 1.–3.',
    },
  ],
};

/** The shared 03 ends when the question is on screen; droid still shows its spinner then (the Stop hook runs): end it when that goes. */
function settledQuestion(sc: Scenario): Scenario {
  if (sc.id !== '03-question-reply') return sc;
  const last = sc.expect[sc.expect.length - 1]!;
  const asked = 'screen' in last.from ? last.from.screen : /would you like me to use\?/;
  return {
    ...sc,
    expect: [...sc.expect.slice(0, -1), { ...last, from: screen(settled(asked)), cue: 'reply ends with a question; spinner row gone' }],
  };
}

export const droidScenarios: Scenario[] = [
  ...basicScenarios(DROID_BASICS).map(settledQuestion),
  ...approvals,
  toolRuns,
  escInterrupt,
  serverError,
  multistepQuit,
  badRequest,
  numberedPlanScenario(DROID_BASICS),
];
