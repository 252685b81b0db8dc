/**
 * Continue CLI 1.5.47 (`cn`) scenarios: an inline Ink TUI (no alternate screen) with a rounded input box above a
 * footer (cwd, git branch, `◉ Continue CLI`). No completion line, and a reply is drawn only once it is complete (no
 * streaming on screen), so a turn's end is anchored on the reply's last words. The approval box takes the place of
 * the input box while the spinner row above it keeps counting.
 */
import { type Scenario, type Segment, type Step, atExit, atMark, atStart, key, quit, screen, wait, waitExit, waitText } from '../scenario';
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

const A = 'continue-cli' as const;

export const CONTINUE = {
  ready: /Ask anything, @ for context, \/ for slash commands/,
  footer: /◉ Continue CLI/,
  working: /esc to interrupt \)/,
  dialog: /Would you like to continue\?/,
  interrupted: /Interrupted by user - Press enter to continue/,
  denied: /Tool canceled - please tell Continue what to do differently/,
  error: /^Error: /m,
};

const startup = (): Segment[] => [
  {
    state: 'idle',
    from: atStart,
    cue: 'startup (before the first frame)',
    note: 'startup: nothing drawn yet; scorers may skip this interval',
  },
  {
    state: 'idle',
    from: screen(CONTINUE.ready),
    cue: 'CONTINUE logo, "Config: …" / "Model: …", input box "Ask anything, @ for context, / for slash commands, ! for shell mode"',
  },
];
const working = (cue = 'spinner row "⣿⡿⡿  ( 0s • esc to interrupt )" above the input box'): Segment => ({
  state: 'working',
  from: atMark('submit'),
  cue,
});
/** cn draws no completion line: the turn ends when the reply's last words are on screen and the spinner row is gone. */
const completedAt = (lastWords: RegExp): Segment => ({
  state: 'completed',
  from: screen(lastWords),
  cue: 'reply "● …" complete, spinner row gone',
  accept: ['idle'],
});
const ready: Step[] = [waitText(CONTINUE.ready, 30_000, 'prompt visible'), waitText(CONTINUE.footer, 10_000), wait(1500)];
const ask = typedAsk(20, 400);
const text = streamedText;
const RM = { command: 'rm -rf build' };
const DIALOG_CUE = 'box "Bash(rm -rf build)" / "⎿ Will run: rm -rf build" / "Would you like to continue?" with "> Continue (tab)"';

export const CONTINUE_BASICS: BasicsOf = { agent: A, name: 'Continue CLI', ready, ask, startup, working: () => working(), completedAt };

const escInterrupt: Scenario = {
  id: '07-esc-interrupt',
  agent: A,
  description: 'A reply streams slowly (cn draws nothing of it before it is complete); Esc after ~6 s interrupts it.',
  mock: { turns: [{ type: 'hang', text: 'Here is a step-by-step plan for adding tests to demo-app. First, ', maxMs: 120_000 }] },
  steps: [
    ...ready,
    ...ask('Plan how to add tests to this project.'),
    waitText(CONTINUE.working, 10_000, 'spinner'),
    wait(6000),
    key('esc', 'interrupt'),
    waitText(CONTINUE.interrupted, 10_000, 'stopped'),
    wait(8000),
  ],
  tailMs: 0,
  expect: [
    ...startup(),
    working('spinner row "( Ns • esc to interrupt )"; the streamed words are not drawn'),
    { state: 'stopped', from: screen(CONTINUE.interrupted), cue: '"Interrupted by user - Press enter to continue"', accept: ['idle'] },
  ],
};

const MULTISTEP: MultistepRun = {
  dialogs: [CONTINUE.dialog, CONTINUE.dialog],
  waitFor: [CONTINUE.dialog, /Bash\(node hello\.js\)[\s\S]*Would you like to continue\?/],
  dialogMarks: ['dialog1', 'dialog2'],
  approveMarks: ['approve1', 'approve2'],
  dialogCues: ['box "Write(hello.js)" with a diff preview, "Would you like to continue?"', 'box "Bash(node hello.js)"'],
  approvedCues: ['approved (Enter on "> Continue"); the file is written', 'approved; the command runs'],
  exited: { state: 'exited', from: atExit, cue: '"/exit" typed and Enter; the process exits 0 (the slash menu stays drawn)' },
};

const multistepQuit: Scenario = {
  id: '09-multistep-quit',
  agent: A,
  description: 'A Write tool call (approved), a second prompt with a Bash call (approved), then /exit: cn exits 0.',
  mock: {
    turns: [
      { type: 'tool', name: 'Write', input: { filepath: 'hello.js', content: "console.log('Hello from demo-app');\n" } },
      text('Created hello.js.'),
      { type: 'tool', name: 'Bash', input: { command: 'node hello.js' } },
      text('It printed the greeting: all good.'),
    ],
  },
  steps: multistepQuitSteps(CONTINUE_BASICS, MULTISTEP),
  tailMs: 500,
  expect: multistepQuitExpect(CONTINUE_BASICS, MULTISTEP),
};

/** An HTTP error on every request: how cn shows it once it gives up (`Error: <status> <message>` above the input box). */
function errorScenario(id: string, status: number, message: string | undefined, waitMs: number, description: string): Scenario {
  const shown = new RegExp(`^Error: ${status} `, 'm');
  return {
    id,
    agent: A,
    description,
    mock: { turns: [{ type: 'error', status, sticky: true, ...(message ? { message } : {}) }] },
    steps: [...ready, ...ask('What is the capital of France?'), waitText(shown, waitMs, 'error shown'), wait(8000)],
    tailMs: 0,
    timeoutMs: waitMs + 60_000,
    expect: [
      ...startup(),
      working(status === 500 ? 'spinner row; "Retrying request (n/9). Error: 500 …" lines printed above the transcript' : undefined),
      { state: 'failed', from: screen(shown), cue: `"Error: ${status} …" under the prompt` },
    ],
  };
}

const USAGE_FIRST = /The readme describes demo-app\./;
const USAGE_SECOND = /Noted: nothing else to do\./;

/**
 * Usage (issue 30): the session file's usage against what the mock served (test/unit/usage/continue.test.ts). The
 * harness copies no session file of cn's (sessionLogs.ts copies JSON-lines logs): `continue-session.json` and its
 * snapshots are added from the kept run, as for the other recordings (FACTS.md §7).
 */
const usageTwoTurns: Scenario = {
  id: '40-usage-two-turns',
  agent: A,
  description:
    'Usage: Read README.md (read-only: no dialog) then a text answer, a second prompt answered with text, then /exit. The mock logs the usage it served.',
  mock: {
    turns: [
      { type: 'tool', name: 'Read', input: { filepath: 'README.md' } },
      text('The readme describes demo-app.'),
      text('Noted: nothing else to do.'),
    ],
  },
  steps: [
    ...ready,
    ...ask('what does the readme say?'),
    waitText(USAGE_FIRST, 30_000, 'first turn finished'),
    wait(5000),
    ...ask('thanks', 'submit2'),
    waitText(USAGE_SECOND, 30_000, 'second turn finished'),
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

export const continueScenarios: Scenario[] = [
  ...basicScenarios(CONTINUE_BASICS),
  dialogScenario(CONTINUE_BASICS, {
    id: '04-bash-approve',
    description: 'Bash `rm -rf build`: the approval box is held ~15 s, then "Continue" (Enter); the model answers.',
    turns: [{ type: 'tool', name: 'Bash', input: RM }, text('Done: the build directory has been removed.')],
    dialog: CONTINUE.dialog,
    holdMs: 15_000,
    answer: 'approve',
    done: /directory has been removed\./,
    end: completedAt(/directory has been removed\./),
    dialogCue: DIALOG_CUE,
    answeredCue: 'approved; the command runs ("⎿  No output")',
  }),
  dialogScenario(CONTINUE_BASICS, {
    id: '05-bash-deny',
    description: 'Like 04, but Esc ("No, and tell Continue what to do differently") after ~15 s: the tool is refused and the turn stops.',
    turns: [{ type: 'tool', name: 'Bash', input: RM }, text('Understood, I left the build directory alone.')],
    dialog: CONTINUE.dialog,
    holdMs: 15_000,
    answer: 'deny',
    done: CONTINUE.denied,
    end: {
      state: 'stopped',
      from: screen(CONTINUE.denied),
      cue: '"Permission denied by user" / "[Tool canceled - please tell Continue what to do differently]"; no further request',
      accept: ['idle'],
    },
    dialogCue: DIALOG_CUE,
    answeredCue: 'denied',
  }),
  {
    id: '06-tool-runs',
    agent: A,
    description: 'With `--allow Bash` a ~4 s Bash call runs without asking, then the answer.',
    args: ['--allow', 'Bash'],
    mock: { turns: [{ type: 'tool', name: 'Bash', input: { command: 'sleep 4; wc -l README.md' } }, text('README.md has 3 lines.')] },
    steps: [...ready, ...ask('count the lines of the readme'), waitText(/README\.md has 3 lines\./, 40_000, 'turn finished'), wait(6000)],
    tailMs: 0,
    expect: [
      ...startup(),
      working('"○ Bash(sleep 4; wc -l README.md)", spinner row "( Ns • esc to interrupt • ctrl+b to background )"'),
      completedAt(/README\.md has 3 lines\./),
    ],
  },
  escInterrupt,
  errorScenario(
    '08-server-error-500',
    500,
    undefined,
    220_000,
    'Every request answers HTTP 500: cn makes 11 attempts with backoff (each is 3 HTTP requests), printing "Retrying request (n/9) …", then "Error: 500 …" after ~2 min.',
  ),
  multistepQuit,
  errorScenario(
    '16-api-error-400',
    400,
    'Invalid request: unknown field "foo"',
    30_000,
    'Every request answers HTTP 400 "Invalid request": not retried, "Error: 400 …" ends the turn.',
  ),
  numberedPlanScenario(CONTINUE_BASICS),
  usageTwoTurns,
];
