/**
 * Gemini CLI 0.61.0 scenarios: inline Ink TUI, no completion line, so a turn's end
 * is anchored on the last words of the scripted reply; the approval dialog is the bottom of the screen.
 */
import { type Scenario, type Segment, type Step, atMark, atStart, quit, screen, wait, waitExit, waitText } from '../scenario';
import {
  type BasicsOf,
  basicScenarios,
  dialogScenario,
  escInterruptScenario,
  streamedText,
  typedAsk,
  type MultistepRun,
  multistepQuitExpect,
  multistepQuitSteps,
} from './basics';

const A = 'gemini' as const;

export const GEMINI = {
  ready: /Type your message or @path\/to\/file/,
  working: /esc to cancel/,
  shellDialog: /Allow execution of/,
  writeDialog: /Apply this change\?/,
  cancelled: /Request cancelled\./,
  apiError: /✕ \[API Error/,
  goodbye: /Agent powering down/,
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
    from: screen(GEMINI.ready),
    cue: 'banner, empty status row "? for shortcuts", placeholder "Type your message or @path/to/file"',
  },
];
const working = (cue = 'status row "⠋ Thinking... (esc to cancel, Ns)"'): Segment => ({ state: 'working', from: atMark('submit'), cue });
/** Gemini draws no completion line: the turn ends when the reply's last words are on screen (the title goes to Ready with them). */
const completedAt = (lastWords: RegExp): Segment => ({
  state: 'completed',
  from: screen(lastWords),
  cue: 'reply "✦ …" complete, status row back to "? for shortcuts"',
  accept: ['idle'],
});
const ready: Step[] = [waitText(GEMINI.ready, 30_000, 'prompt visible'), wait(2000)];
/** Typed like a person (a burst followed by Enter would be taken as a paste), Enter as its own write. */
const ask = typedAsk(25, 600);

const RM = { command: 'rm -rf build', description: 'Remove the build directory.' };
const WRITE = { file_path: 'hello.js', content: "console.log('Hello from demo-app');\n" };
const text = streamedText;

export const GEMINI_BASICS: BasicsOf = { agent: A, name: 'Gemini CLI', ready, ask, startup, working: () => working(), completedAt };

const MULTISTEP: MultistepRun = {
  dialogs: [GEMINI.writeDialog, GEMINI.shellDialog],
  dialogMarks: ['write dialog', 'shell dialog'],
  dialogCues: ['"? WriteFile  Writing to hello.js" / "Apply this change?"', '"Allow execution of [Shell]?"'],
  approvedCues: ['allowed once', 'allowed once'],
  exited: { state: 'exited', from: screen(GEMINI.goodbye), cue: '"Agent powering down. Goodbye!" summary, then the process exits' },
};

const USAGE_FIRST = /The readme describes demo-app\./;
const USAGE_SECOND = /Noted: nothing else to do\./;

export const geminiScenarios: Scenario[] = [
  ...basicScenarios(GEMINI_BASICS),
  dialogScenario(GEMINI_BASICS, {
    id: '04-shell-approve',
    description: 'run_shell_command `rm -rf build`: the approval dialog is held ~20 s, then "Allow once" (Enter); the model answers.',
    turns: [
      { type: 'tool', name: 'run_shell_command', text: "I'll remove the build directory.", input: RM },
      text('Done: the `build/` directory has been removed.'),
    ],
    dialog: GEMINI.shellDialog,
    holdMs: 20_000,
    answer: 'approve',
    done: /directory has been removed\./,
    end: completedAt(/directory has been removed\./),
    dialogCue: 'dialog "? Shell rm -rf build" / "Allow execution of [Shell]?" / "● 1. Allow once"',
    answeredCue: 'allowed once, the command runs',
  }),
  dialogScenario(GEMINI_BASICS, {
    id: '05-shell-deny',
    description: 'Like 04, but after ~20 s the dialog is answered with Esc ("No, suggest changes (esc)"): the request is cancelled.',
    turns: [{ type: 'tool', name: 'run_shell_command', text: "I'll remove the build directory.", input: RM }],
    dialog: GEMINI.shellDialog,
    holdMs: 20_000,
    answer: 'deny',
    done: GEMINI.cancelled,
    end: {
      state: 'stopped',
      from: screen(GEMINI.cancelled),
      cue: '"ℹ Request cancelled.", tool box "│ -  Shell rm -rf build │"',
      accept: ['idle'],
    },
    dialogCue: 'approval dialog',
    answeredCue: 'cancelled',
    restMs: 8000,
  }),
  escInterruptScenario(GEMINI_BASICS, 'cancels', GEMINI.cancelled, '"ℹ Request cancelled." under the partial reply'),
  {
    id: '08-server-error-500',
    agent: A,
    description:
      'The main model answers every request with HTTP 500: the TUI retries with backoff (5 s doubling) and stays on "Thinking..." — it never fails a turn within minutes.',
    mock: { turns: [{ type: 'error', status: 500, sticky: true }] },
    steps: [...ready, ...ask('What is the capital of France?'), wait(30_000)],
    tailMs: 0,
    expect: [...startup(), working('"Thinking... (esc to cancel, Ns)" while the CLI retries')],
  },
  {
    id: '09-multistep-quit',
    agent: A,
    description: 'write_file approved, a second prompt with a shell command approved, then /quit: the goodbye summary, exit 0.',
    mock: {
      turns: [
        { type: 'tool', name: 'write_file', text: "I'll create hello.js.", input: WRITE },
        text('Created `hello.js`.'),
        {
          type: 'tool',
          name: 'run_shell_command',
          text: "I'll run it.",
          input: { command: 'node hello.js', description: 'Run hello.js.' },
        },
        text('It printed the greeting: all good.'),
      ],
    },
    steps: multistepQuitSteps(GEMINI_BASICS, MULTISTEP),
    tailMs: 500,
    expect: multistepQuitExpect(GEMINI_BASICS, MULTISTEP),
  },
  {
    id: '16-api-error-400',
    agent: A,
    description: 'The main model answers HTTP 400 (not retryable): "✕ [API Error: …]" and "ℹ This request failed." end the turn.',
    mock: { turns: [{ type: 'error', status: 400, sticky: true }] },
    steps: [...ready, ...ask('What is the capital of France?'), waitText(GEMINI.apiError, 30_000, 'error shown'), wait(8000)],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'failed', from: screen(GEMINI.apiError), cue: '"✕ [API Error: {…400…}]" + "ℹ This request failed."' },
    ],
  },
  {
    id: '40-usage-two-turns',
    agent: A,
    description:
      'Usage: read_file README.md (read-only: no dialog) then a text answer, a second prompt answered with text, then /quit. The mock logs the usage it served; test/unit/usage compares the session log with it.',
    mock: {
      turns: [
        { type: 'tool', name: 'read_file', text: "I'll read the readme.", input: { file_path: 'README.md' } },
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
  },
];
