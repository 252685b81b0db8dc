/**
 * Codex CLI 0.169.0 scenarios (custom Responses-API provider, approval_policy on-request,
 * sandbox read-only, hooks pre-trusted in config.toml, daemon on (killed after each run).
 * The first run on a machine is slow (~16 s to the model footer): Codex copies ~400 MB of daemon
 * binaries into $CODEX_HOME/packages; later runs hard-link them from a cache.
 * Cues are the on-screen strings the real CLI prints (seen in its recordings under test/fixtures/live).
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

const A = 'codex' as const;

export const CODEX = {
  /** Composer placeholder plus the model footer (the footer shows "? for shortcuts" for the first ~2 s). */
  ready: /GPT-[\d.]+-Sol/i,
  composer: /Ask Codex to do anything/,
  working: /esc to interrupt/,
  approval: /Would you like to run the following command\?/,
  /** "Worked for 23s • 16:16"; sub-second turns show "Worked for <1s". */
  completed: /Worked for (?:<1s|\d)/,
  stopped: /Conversation interrupted/,
  failed: /■ (?:We’re currently experiencing|exceeded retry limit|[^\n]*(?:error|status))/i,
};

/**
 * JavaScript for Codex's freeform `exec` tool: run a shell command through `tools.exec_command`.
 * With `escalate`, the command asks for `sandbox_permissions: "require_escalated"`, which opens the
 * approval dialog under approval_policy=on-request (the `justification` is shown as "Reason:").
 */
export function codexExec(cmd: string, opts: { escalate?: boolean; justification?: string } = {}): string {
  const args: Record<string, string> = { cmd };
  if (opts.escalate) {
    args.sandbox_permissions = 'require_escalated';
    args.justification = opts.justification ?? `Do you want to allow me to run ${cmd}?`;
  }
  return `const r = await tools.exec_command(${JSON.stringify(args)});\ntext(r.output);\ntext("exit_code=" + r.exit_code);\n`;
}

const startup = (): Segment[] => [
  {
    state: 'idle',
    from: atStart,
    cue: 'startup (TUI not drawn yet)',
    note: 'startup: screen blank / TUI still drawing; scorers may skip this interval',
  },
  { state: 'idle', from: screen(CODEX.composer), cue: 'composer "Ask Codex to do anything"' },
];
const working = (cue = 'status row "Working (… esc to interrupt)" / title spinner'): Segment => ({
  state: 'working',
  from: atMark('submit'),
  cue,
});
const completed = (n = 1): Segment => ({
  state: 'completed',
  from: n === 1 ? screen(CODEX.completed) : screenN(CODEX.completed, n),
  cue: '"Worked for <n>s • hh:mm"',
  accept: ['idle'],
});
const ready = [waitText(CODEX.composer, 30_000, 'composer visible'), waitText(CODEX.ready, 45_000, 'footer model visible'), wait(2500)];
/** What the scenarios every agent shares need (numberedPlans.ts); Codex's turn ends on its completion line. */
export const CODEX_BASICS: BasicsOf = {
  agent: A,
  name: 'Codex',
  ready,
  ask: (t) => submit(t),
  startup,
  working: () => working(),
  completedAt: () => completed(),
};

const MARKER = 'touch build-marker.txt && echo created build-marker.txt';
const APPROVAL_TURNS = (deny = false) => [
  {
    type: 'tool' as const,
    name: 'exec',
    input: codexExec(MARKER, { escalate: true, justification: 'Do you want to allow me to create build-marker.txt in the project root?' }),
  },
  ...(deny ? [] : [{ type: 'text' as const, text: 'Created `build-marker.txt` in the project root.' }]),
];

const LONG_TEXT = Array.from(
  { length: 14 },
  (_, i) => `${i + 1}. Step ${i + 1} of the plan: move one more helper into its own module and update its imports.`,
).join('\n');

/** Turn 1 (a command, then its answer), turn 2 (a plain answer ending in `lastWords`), then /quit: 10 and 40. */
function twoTurnsThenQuit(ask1: string, ask2: string, lastWords: RegExp): Pick<Scenario, 'steps' | 'tailMs' | 'expect'> {
  return {
    steps: [
      ...ready,
      ...submit(ask1, 'submit'),
      waitText(CODEX.completed, 30_000, 'turn 1 finished'),
      wait(3000),
      ...submit(ask2, 'submit2'),
      waitText(lastWords, 30_000),
      waitText(/Worked for[\s\S]*Worked for/, 30_000, 'turn 2 finished'),
      wait(3000),
      quit(),
      waitExit(15_000, 'exit seen'),
    ],
    tailMs: 500,
    expect: [
      ...startup(),
      working(),
      completed(1),
      { state: 'working', from: atMark('submit2'), cue: 'status row "Working"' },
      completed(2),
      { state: 'exited', from: atExit, cue: 'process exited ("Disconnected from this task …")' },
    ],
  };
}

export const codexScenarios: Scenario[] = [
  {
    id: '01-idle-start',
    agent: A,
    description: 'Start Codex and leave it untouched at the empty composer for ~15 s.',
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
      title: 'Name the capital of France',
      turns: [{ type: 'text', text: 'The capital of France is Paris. It is also the largest city in the country and sits on the Seine.' }],
    },
    steps: [...ready, ...submit('What is the capital of France?'), waitText(CODEX.completed, 30_000, 'turn finished'), wait(8000)],
    tailMs: 0,
    expect: [...startup(), working(), completed()],
  },
  {
    id: '03-question-reply',
    agent: A,
    description: 'The answer ends with a question to the user; the turn ends normally (OSC 7501 done).',
    mock: {
      title: 'Set up unit tests',
      turns: [{ type: 'text', text: 'I can set up tests with either Vitest or Jest. Which one would you like me to use?' }],
    },
    steps: [...ready, ...submit('Set up unit tests for this project.'), waitText(CODEX.completed, 30_000, 'turn finished'), wait(8000)],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      {
        state: 'waiting',
        from: screen(CODEX.completed),
        cue: 'answer ends with a question; "Worked for" shown',
        accept: ['completed', 'idle'],
      },
    ],
  },
  {
    id: '04-approval-approve',
    agent: A,
    description:
      'exec_command with sandbox_permissions=require_escalated opens the approval dialog; held ~20 s, approved with Enter (1. Yes, proceed).',
    mock: { title: 'Create marker file', turns: APPROVAL_TURNS() },
    steps: [
      ...ready,
      ...submit('Please create a marker file named build-marker.txt in the project root.'),
      waitText(CODEX.approval, 30_000, 'dialog visible'),
      wait(20_000),
      enter('approve'),
      waitText(CODEX.completed, 30_000, 'turn finished'),
      wait(5000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(CODEX.approval), cue: '"Would you like to run the following command?" (title "Action Required")' },
      { state: 'working', from: atMark('approve'), cue: 'approved, command runs' },
      completed(),
    ],
  },
  {
    id: '05-approval-deny',
    agent: A,
    description: 'Like 04, but after ~20 s the dialog is answered with Esc ("No, and tell Codex what to do differently"): the turn stops.',
    mock: { title: 'Create marker file', turns: APPROVAL_TURNS(true) },
    steps: [
      ...ready,
      ...submit('Please create a marker file named build-marker.txt in the project root.'),
      waitText(CODEX.approval, 30_000, 'dialog visible'),
      wait(20_000),
      key('esc', 'deny'),
      waitText(CODEX.stopped, 15_000, 'stopped visible'),
      wait(5000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(CODEX.approval), cue: '"Would you like to run the following command?"' },
      { state: 'stopped', from: atMark('deny'), cue: '"■ Conversation interrupted"', accept: ['idle'] },
    ],
  },
  {
    id: '06-question-async',
    agent: A,
    description:
      'Substitute for a question tool: the model calls the request_user_input_async function tool (Default mode has no blocking question tool); Codex lists the question ("? …" with options), the turn ends; after ~10 s the user types the answer, which starts a new turn.',
    notes: [
      'Codex 0.169.0 Default mode: request_user_input is "only available in Plan mode"; request_user_input_async returns {"accepted":true} at once and the TUI shows the question as a transcript item ("? <title>" / "• <option>"), not as a selector: the user answers by typing a prompt.',
      'tools.request_user_input_async is not reachable from the exec (code-mode) tool: "TypeError: tools.request_user_input_async is not a function".',
    ],
    mock: {
      title: 'Pick test framework',
      turns: [
        {
          type: 'tool',
          name: 'request_user_input_async',
          input: {
            questions: [
              { title: 'Which test framework should I set up for demo-app?', options: ['Vitest (Recommended)', 'Jest', 'node:test'] },
            ],
          },
        },
        { type: 'text', text: 'I asked which test framework you prefer; I will continue once you answer.' },
        { type: 'text', text: 'Jest it is. I will add a jest config and a first test.' },
      ],
    },
    steps: [
      ...ready,
      ...submit('Set up unit tests for this project.'),
      waitText(/Which test framework should I set up/, 30_000, 'question visible'),
      waitText(CODEX.completed, 30_000, 'turn 1 finished'),
      wait(10_000),
      ...submit('Jest', 'answer'),
      waitText(/Jest it is/, 30_000),
      waitText(/Worked for[\s\S]*Worked for/, 30_000, 'turn 2 finished'),
      wait(5000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      {
        state: 'waiting',
        from: screen(CODEX.completed),
        cue: 'turn ended with the question "? Which test framework …" listed',
        accept: ['completed', 'idle'],
      },
      { state: 'working', from: atMark('answer'), cue: 'answer typed as a new prompt' },
      completed(2),
    ],
  },
  // 06b (question dismissed) has no Codex counterpart: the async question is not a dialog, nothing to dismiss.
  {
    id: '07-slow-streaming',
    agent: A,
    description: 'A 14-line answer streamed slowly over ~10 s (the Working row is hidden while text streams).',
    mock: { title: 'Write a plan', turns: [{ type: 'text', text: LONG_TEXT, chunks: 'lines', firstDelayMs: 500, durationMs: 10_000 }] },
    steps: [...ready, ...submit('Write a refactoring plan.'), waitText(CODEX.completed, 40_000, 'turn finished'), wait(5000)],
    tailMs: 0,
    expect: [...startup(), working('Working row, then streaming text (row hidden)'), completed()],
  },
  {
    id: '08-esc-interrupt',
    agent: A,
    description: 'A long answer is streaming; Esc after ~5 s interrupts it.',
    mock: {
      title: 'Write a plan',
      turns: [{ type: 'text', text: `${LONG_TEXT}\n${LONG_TEXT}`, chunks: 'lines', firstDelayMs: 1500, durationMs: 60_000 }],
    },
    steps: [
      ...ready,
      ...submit('Write a long refactoring plan.'),
      waitText(CODEX.working, 20_000, 'working visible'),
      wait(5000),
      key('esc', 'interrupt'),
      waitText(CODEX.stopped, 15_000, 'stopped visible'),
      wait(5000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'stopped', from: atMark('interrupt'), cue: '"■ Conversation interrupted"', accept: ['idle'] },
    ],
  },
  {
    id: '09-api-error-429',
    agent: A,
    description: 'Every request gets HTTP 429 with retry-after: 1; Codex retries (~6 requests) and fails with "exceeded retry limit".',
    mock: { title: 'Summarise', turns: [{ type: 'error', status: 429, headers: { 'retry-after': '1' }, sticky: true }] },
    steps: [...ready, ...submit('Summarise the README.'), waitText(CODEX.failed, 90_000, 'error visible'), wait(6000)],
    tailMs: 0,
    expect: [
      ...startup(),
      working('Working / "Server is busy, reconnecting n/5"'),
      { state: 'failed', from: screen(CODEX.failed), cue: '"■ exceeded retry limit, last status: 429 Too Many Requests"' },
    ],
  },
  {
    id: '10-multi-step-quit',
    agent: A,
    description: 'Turn 1 runs a read-only command (no approval) and answers; turn 2 is a plain answer; then /quit.',
    mock: {
      title: 'Count lines',
      turns: [
        { type: 'tool', name: 'exec', input: codexExec('wc -l README.md notes.txt') },
        { type: 'text', text: 'README.md has 3 lines and notes.txt has 1 line.' },
        { type: 'text', text: 'notes.txt says: remember to write tests.' },
      ],
    },
    ...twoTurnsThenQuit('How many lines do README.md and notes.txt have?', 'What does notes.txt say?', /remember to write tests\./),
  },
  {
    id: '40-usage-two-turns',
    agent: A,
    description: 'Usage (issue 30): like 10, turn 1 reads README.md (cat, no approval); the mock logs the usage of each response.',
    mock: {
      title: 'Read the README',
      turns: [
        { type: 'tool', name: 'exec', input: codexExec('cat README.md') },
        { type: 'text', text: 'The README says this is a tiny demo project for the recording harness.' },
        { type: 'text', text: 'It has three lines.' },
      ],
    },
    ...twoTurnsThenQuit('What does the README say?', 'How many lines does it have?', /It has three lines\./),
  },
  {
    id: '11-narrow-80x24-approval',
    agent: A,
    cols: 80,
    rows: 24,
    description: 'Like 04 at 80x24: the approval dialog wraps and the banner scrolls away; held ~10 s, then approved.',
    mock: { title: 'Create marker file', turns: APPROVAL_TURNS() },
    steps: [
      ...ready,
      ...submit('Please create a marker file named build-marker.txt in the project root.'),
      waitText(CODEX.approval, 30_000, 'dialog visible'),
      wait(10_000),
      enter('approve'),
      waitText(CODEX.completed, 30_000, 'turn finished'),
      wait(4000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(CODEX.approval), cue: '"Would you like to run the following command?" (wrapped at 80 cols)' },
      { state: 'working', from: atMark('approve'), cue: 'approved, command runs' },
      completed(),
    ],
  },
];
