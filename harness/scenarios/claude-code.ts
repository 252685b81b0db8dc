/**
 * Claude Code 2.1.328 scenarios (manual permission mode, dark theme, VS Code terminal env).
 * Cues are the on-screen strings documented in shared/recordings/claude-code/FACTS.md.
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

const A = 'claude-code' as const;

// ---- screen cues
export const CLAUDE = {
  /** Footer of an empty prompt box in manual mode. */
  ready: /⏸ manual mode on/,
  working: /esc to interrupt/,
  permission: /Do you want to proceed\?/,
  createFile: /Do you want to create /,
  question: /Enter to select · ↑\/↓ to navigate · Esc to cancel/,
  /** ✻ <Verb> for <n>s (one of the 8 completion verbs). */
  completed: /✻ (?:Baked|Brewed|Churned|Cogitated|Cooked|Crunched|Sautéed|Worked) for \d+/,
  stopped: /Interrupted · What should Claude do instead\?/,
  failed: /API Error: /,
  /** AskUserQuestion dismissed with Esc (not in FACTS.md; observed in 2.1.328). */
  declined: /Declined to answer Claude's questions/,
};

const startup = (): Segment[] => [
  {
    state: 'idle',
    from: atStart,
    cue: 'startup (TUI not drawn yet)',
    note: 'startup: screen blank / TUI still drawing; scorers may skip this interval',
  },
  { state: 'idle', from: screen(CLAUDE.ready), cue: 'empty prompt box, no finished turn on screen' },
];
const working = (cue = 'footer "esc to interrupt"'): Segment => ({ state: 'working', from: screen(CLAUDE.working), cue });
const completed = (n = 1): Segment => ({
  state: 'completed',
  from: n === 1 ? screen(CLAUDE.completed) : screenN(CLAUDE.completed, n),
  cue: 'completion line "✻ <Verb> for <n>s"',
  accept: ['idle'],
});
const ready = waitText(CLAUDE.ready, 30_000, 'prompt visible');

const BASH_RM = { command: 'rm -rf build', description: 'Remove the build directory' };

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
  {
    id: '04-bash-permission-approve',
    agent: A,
    description: 'Bash tool_use `rm -rf build`; the permission dialog is held ~20 s, then approved with Enter (1. Yes); Claude answers.',
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
      wait(20_000),
      enter('approve'),
      waitText(CLAUDE.completed, 30_000, 'turn finished'),
      wait(5000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(CLAUDE.permission), cue: 'permission dialog "Do you want to proceed?"' },
      { state: 'working', from: atMark('approve'), cue: 'dialog closed, command runs' },
      completed(),
    ],
  },
  {
    id: '05-bash-permission-deny',
    agent: A,
    description: 'Like 04, but after ~20 s the dialog is answered with "4. No" (Esc behaves the same): the turn stops.',
    mock: {
      title: 'Clean build output',
      turns: [{ type: 'tool', name: 'Bash', text: "I'll remove the build directory.", input: BASH_RM }],
    },
    steps: [
      ready,
      wait(1500),
      ...submit('clean the build output'),
      waitText(CLAUDE.permission, 30_000, 'dialog visible'),
      wait(20_000),
      key('down', 'select No', 3),
      wait(400),
      enter('deny'),
      waitText(CLAUDE.stopped, 15_000, 'stopped visible'),
      wait(5000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(CLAUDE.permission), cue: 'permission dialog "Do you want to proceed?"' },
      { state: 'stopped', from: atMark('deny'), cue: '"Interrupted · What should Claude do instead?"', accept: ['idle'] },
    ],
  },
  {
    id: '06-ask-user-question',
    agent: A,
    description: 'AskUserQuestion with 3 options; after ~10 s the 2nd option is chosen; Claude answers.',
    mock: {
      title: 'Pick test framework',
      turns: [
        {
          type: 'tool',
          name: 'AskUserQuestion',
          input: {
            questions: [
              {
                question: 'Which test framework should I set up for demo-app?',
                header: 'Tests',
                multiSelect: false,
                options: [
                  { label: 'Vitest (Recommended)', description: 'Fast, Vite-native, Jest-compatible API' },
                  { label: 'Jest', description: 'The most widely used JavaScript test runner' },
                  { label: 'node:test', description: 'Built into Node.js, no dependency' },
                ],
              },
            ],
          },
        },
        { type: 'text', text: 'Jest it is. I will add a jest config and a first test.\n', chunks: 'lines' },
      ],
    },
    steps: [
      ready,
      wait(1500),
      ...submit('set up unit tests'),
      waitText(CLAUDE.question, 30_000, 'question visible'),
      wait(10_000),
      key('down'),
      wait(300),
      enter('answer'),
      waitText(CLAUDE.completed, 30_000, 'turn finished'),
      wait(5000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(CLAUDE.question), cue: 'AskUserQuestion dialog' },
      { state: 'working', from: atMark('answer'), cue: 'answer submitted' },
      completed(),
    ],
  },
  {
    id: '06b-ask-user-question-dismiss',
    agent: A,
    description: 'AskUserQuestion dismissed with Esc after ~10 s: the turn stops.',
    mock: {
      title: 'Pick test framework',
      turns: [
        {
          type: 'tool',
          name: 'AskUserQuestion',
          input: {
            questions: [
              {
                question: 'Which test framework should I set up for demo-app?',
                header: 'Tests',
                multiSelect: false,
                options: [
                  { label: 'Vitest (Recommended)', description: 'Fast, Vite-native, Jest-compatible API' },
                  { label: 'Jest', description: 'The most widely used JavaScript test runner' },
                ],
              },
            ],
          },
        },
      ],
    },
    steps: [
      ready,
      wait(1500),
      ...submit('set up unit tests'),
      waitText(CLAUDE.question, 30_000, 'question visible'),
      wait(10_000),
      key('esc', 'dismiss'),
      waitText(CLAUDE.declined, 15_000, 'stopped visible'),
      wait(5000),
    ],
    tailMs: 0,
    notes: [
      'Esc on AskUserQuestion shows "● Declined to answer Claude\'s questions:" (no "Interrupted" line); no hook fires, no further API request.',
    ],
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(CLAUDE.question), cue: 'AskUserQuestion dialog' },
      { state: 'stopped', from: atMark('dismiss'), cue: '"● Declined to answer Claude\'s questions:"', accept: ['idle'] },
    ],
  },
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
