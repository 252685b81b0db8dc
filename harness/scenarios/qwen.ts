/**
 * Qwen Code 0.24.4 scenarios: a full-screen Ink TUI (alternate screen; a Gemini CLI fork) with the input box between two
 * full-width rules. No completion line: a turn ends when the scripted reply's last words sit right above the input box
 * (the spinner row between them gone). After a turn with two or more model replies Qwen Code asks the model for a
 * follow-up suggestion (`[SUGGESTION MODE: …]`, with the tools): the chat mock answers it with empty text without
 * consuming a scripted turn. Facts: test/fixtures/live/qwen/FACTS.md.
 */
import {
  type Anchor,
  type Scenario,
  type Segment,
  type Step,
  atMark,
  atStart,
  enter,
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
  escInterruptScenario,
  streamedText,
  typedAsk,
  type MultistepRun,
  multistepQuitExpect,
  multistepQuitSteps,
} from './basics';

const A = 'qwen' as const;

export const QWEN = {
  ready: /Type your message or @path\/to\/file/,
  footer: /Ask permissions \(shift \+ tab to cycle\)/,
  working: /esc to cancel/,
  shellDialog: /Allow execution of/,
  writeDialog: /Apply this change\?/,
  cancelled: /Request cancelled\./,
  /** A tool call row the user declined: `  - Shell rm -rf build`. */
  declined: /^ {2}- Shell /m,
  /** `✕ [API Error: 500 Internal server error (mock upstream failure)] (Press Ctrl+Y to retry)` */
  apiError: /✕ \[API Error: /,
  goodbye: /Agent powering down\. Goodbye!/,
};

const startup = (): Segment[] => [
  {
    state: 'idle',
    from: atStart,
    cue: 'startup: blank, then the logo box over a spinner row "⠋ Initializing..." (no input box yet)',
    note: 'startup: the CLI is not ready for input yet; scorers may skip this interval',
  },
  {
    state: 'idle',
    from: screen(QWEN.ready),
    cue: 'logo, ">_ Qwen Code (v0.24.4)" box, input box with placeholder "Type your message or @path/to/file"',
  },
];
const working = (cue = 'spinner row "⠋ <phrase>... (0s · ↓ N tokens · esc to cancel)", title "◐︎ Qwen - demo-app"'): Segment => ({
  state: 'working',
  from: atMark('submit'),
  cue,
});
/**
 * Qwen Code draws no completion line: the turn ends when the reply's last words are on screen with nothing but blank
 * rows between them and the input box's top rule (the spinner row, which stays while the Stop hooks run, is gone).
 */
const restingOn = (lastWords: RegExp): Anchor => screen(new RegExp(`${lastWords.source}\\s*\\n─{20,}\\n`));
const completedAt = (lastWords: RegExp): Segment => ({
  state: 'completed',
  from: restingOn(lastWords),
  cue: 'reply "◆︎ …" complete, spinner row gone, title back to "Qwen - demo-app"',
  accept: ['idle'],
});
const ready: Step[] = [waitText(QWEN.ready, 30_000, 'prompt visible'), waitText(QWEN.footer, 10_000), wait(2000)];
/** Typed like a person (a burst followed by Enter would be taken as a paste), Enter as its own write. */
const ask = typedAsk(25, 600);

const RM = { command: 'rm -rf build' };
const SLOW_WC = 'node -e "setTimeout(() => {}, 4000)" && wc -l README.md';
const text = streamedText;

export const QWEN_BASICS: BasicsOf = { agent: A, name: 'Qwen Code', ready, ask, startup, working: () => working(), completedAt };

/** The shared 01–03; 03's question, like every turn end here, counts once the spinner row is gone. */
const basics = basicScenarios(QWEN_BASICS).map((sc) => ({
  ...sc,
  expect: sc.expect.map((seg) => (seg.state === 'waiting' ? { ...seg, from: restingOn(/would you like me to use\?/) } : seg)),
}));

const MULTISTEP: MultistepRun = {
  dialogs: [QWEN.writeDialog, QWEN.shellDialog],
  dialogMarks: ['write dialog', 'shell dialog'],
  dialogCues: [
    '"? WriteFile Writing to hello.js ←" / "Apply this change?" / "› 1. Yes, allow once"',
    '"? Shell node hello.js ←" / "Allow execution of: \'node\'?"',
  ],
  approvedCues: ['allowed once', 'allowed once'],
  exited: {
    state: 'exited',
    from: screen(QWEN.goodbye),
    cue: '/quit: "Agent powering down. Goodbye!" summary box, then the screen is cleared to "To continue this session, run / qwen --resume <id>"; exit 0',
  },
};

const USAGE_FIRST = /The readme describes demo-app\./;
const USAGE_SECOND = /Noted: nothing else to do\./;

export const qwenScenarios: Scenario[] = [
  ...basics,
  dialogScenario(QWEN_BASICS, {
    id: '04-shell-approve',
    description: 'run_shell_command `rm -rf build`: the approval dialog is held ~20 s, then "Yes, allow once" (Enter); the model answers.',
    turns: [
      { type: 'tool', name: 'run_shell_command', text: "I'll remove the build directory.", input: RM },
      text('Done: the build directory has been removed.'),
    ],
    dialog: QWEN.shellDialog,
    holdMs: 20_000,
    answer: 'approve',
    done: /directory has been removed\./,
    end: completedAt(/directory has been removed\./),
    dialogCue: '"? Shell rm -rf build" / "Allow execution of: \'rm\'?" / "› 1. Yes, allow once"',
    answeredCue: 'allowed once, the command runs',
  }),
  dialogScenario(QWEN_BASICS, {
    id: '05-shell-deny',
    description:
      'Like 04, but after ~20 s the dialog is answered with Esc ("4. No, suggest changes (esc)"): the tool row turns to "- Shell rm -rf build", no further request, the turn ends silently.',
    turns: [{ type: 'tool', name: 'run_shell_command', text: "I'll remove the build directory.", input: RM }],
    dialog: QWEN.shellDialog,
    holdMs: 20_000,
    answer: 'deny',
    done: QWEN.declined,
    end: {
      state: 'stopped',
      from: screen(QWEN.declined),
      cue: 'tool row "- Shell rm -rf build" (declined), input box back, title without "✳︎ "',
      accept: ['idle'],
    },
    dialogCue: 'approval dialog "Allow execution of: \'rm\'?"',
    answeredCue: 'declined',
    restMs: 8000,
  }),
  {
    id: '06-shell-runs',
    agent: A,
    description:
      'A shell command that takes ~4 s (node waits 4 s, then `wc -l`; Qwen Code blocks `sleep N; …`): its approval dialog answered after ~2 s, the command runs, then the answer.',
    mock: {
      turns: [
        { type: 'tool', name: 'run_shell_command', text: "I'll count the lines.", input: { command: SLOW_WC } },
        text('README.md has 3 lines.'),
      ],
    },
    steps: [
      ...ready,
      ...ask('count the lines of the readme'),
      waitText(QWEN.shellDialog, 30_000, 'dialog visible'),
      wait(2000),
      enter('approve'),
      waitText(/README\.md has 3 lines\./, 40_000, 'turn finished'),
      wait(6000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(QWEN.shellDialog), cue: 'approval dialog "Allow execution of: \'node\'?" (wc is read-only)' },
      { state: 'working', from: atMark('approve'), cue: 'the command runs ~4 s: "⊶ Shell node -e …" under the spinner row' },
      completedAt(/README\.md has 3 lines\./),
    ],
  },
  escInterruptScenario(
    QWEN_BASICS,
    'cancels',
    QWEN.cancelled,
    '"●︎ Request cancelled." under the partial reply; the prompt is put back into the input box',
  ),
  {
    id: '08-server-error-500',
    agent: A,
    description:
      'Every request answers HTTP 500: 7 attempts of 4 requests each (the SDK retries 3 times within an attempt), backoff ~2/3/7/10/18/30 s, the spinner row only; after ~95 s "✕ [API Error: 500 …] (Press Ctrl+Y to retry)".',
    mock: { turns: [{ type: 'error', status: 500, sticky: true }] },
    steps: [...ready, ...ask('What is the capital of France?'), waitText(QWEN.apiError, 180_000, 'gave up'), wait(8000)],
    tailMs: 0,
    timeoutMs: 260_000,
    expect: [
      ...startup(),
      working('spinner row "⠋ <phrase>... (1m 35s · esc to cancel)" while the CLI retries (no retry text)'),
      { state: 'failed', from: screen(QWEN.apiError), cue: '"✕ [API Error: 500 Internal server error (…)] (Press Ctrl+Y to retry)"' },
    ],
  },
  {
    id: '09-multistep-quit',
    agent: A,
    description: 'write_file approved, a second prompt with a shell command approved, then /quit: the goodbye summary, exit 0.',
    mock: {
      turns: [
        {
          type: 'tool',
          name: 'write_file',
          text: "I'll create hello.js.",
          input: { file_path: '{{CWD}}/hello.js', content: "console.log('Hello from demo-app');\n" },
        },
        text('Created hello.js.'),
        { type: 'tool', name: 'run_shell_command', text: "I'll run it.", input: { command: 'node hello.js' } },
        text('It printed the greeting: all good.'),
      ],
    },
    steps: multistepQuitSteps(QWEN_BASICS, MULTISTEP),
    tailMs: 500,
    expect: multistepQuitExpect(QWEN_BASICS, MULTISTEP),
  },
  {
    id: '16-api-error-400',
    agent: A,
    description: 'The model answers HTTP 400 "Invalid request" (not retried): "✕ [API Error: 400 …]" ends the turn at once.',
    mock: { turns: [{ type: 'error', status: 400, sticky: true, message: 'Invalid request: unknown field "foo"' }] },
    steps: [...ready, ...ask('What is the capital of France?'), waitText(QWEN.apiError, 30_000, 'error shown'), wait(8000)],
    tailMs: 0,
    expect: [...startup(), working(), { state: 'failed', from: screen(QWEN.apiError), cue: '"✕ [API Error: 400 …]"' }],
  },
  {
    id: '40-usage-two-turns',
    agent: A,
    description:
      'Usage: read_file README.md (read-only: no dialog) then a text answer, a second prompt answered with text, then /quit. The mock logs the usage it served; test/unit/usage compares the session log with it.',
    mock: {
      turns: [
        { type: 'tool', name: 'read_file', text: "I'll read the readme.", input: { file_path: '{{CWD}}/README.md' } },
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
