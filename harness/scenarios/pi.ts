/**
 * pi 0.73.1 scenarios: an inline TUI (no alternate screen) with the editor between two rules at the bottom. No
 * completion line and no approval of its own: a turn's end is anchored on the reply's last words, and the
 * approval dialog comes from pi's own example extension `permission-gate` (it asks before `rm -rf`).
 */
import { type Scenario, type Segment, type Step, atExit, atMark, atStart, quit, screen, wait, waitExit, waitText } from '../scenario';
import { type BasicsOf, basicScenarios, dialogScenario, escInterruptScenario, streamedText, typedAsk } from './basics';

const A = 'pi' as const;

export const PI = {
  ready: /escape interrupt · ctrl\+c\/ctrl\+d clear\/exit/,
  model: /mock-model\s*$/,
  working: /Working\.\.\./,
  aborted: /Operation aborted/,
  error: /^ Error: /m,
  gate: /Dangerous command:/,
};

const startup = (): Segment[] => [
  {
    state: 'idle',
    from: atStart,
    cue: 'startup (before the first frame)',
    note: 'startup: nothing drawn yet; scorers may skip this interval',
  },
  { state: 'idle', from: screen(PI.ready), cue: 'header "pi v0.73.1", key hints, empty editor between two rules' },
];
const working = (cue = 'spinner row "⠋ Working..." above the editor'): Segment => ({ state: 'working', from: atMark('submit'), cue });
/** pi draws no completion line: the turn ends when the reply's last words are on screen and the spinner is gone. */
const completedAt = (lastWords: RegExp): Segment => ({
  state: 'completed',
  from: screen(lastWords),
  cue: 'reply complete, spinner row gone',
  accept: ['idle'],
});
const ready: Step[] = [waitText(PI.ready, 30_000, 'prompt visible'), waitText(PI.model, 10_000), wait(1500)];
const ask = typedAsk(20, 400);
const text = streamedText;
const RM = { command: 'rm -rf build' };

export const PI_BASICS: BasicsOf = { agent: A, name: 'pi', ready, ask, startup, working: () => working(), completedAt };

export const piScenarios: Scenario[] = [
  ...basicScenarios(PI_BASICS),
  dialogScenario(PI_BASICS, {
    id: '04-gate-approve',
    description:
      'bash `rm -rf build` with pi\'s example extension permission-gate: its select dialog is held ~15 s, then "Yes" (Enter); the model answers.',
    turns: [{ type: 'tool', name: 'bash', input: RM }, text('Done: the build directory has been removed.')],
    dialog: PI.gate,
    holdMs: 15_000,
    answer: 'approve',
    done: /directory has been removed\./,
    end: completedAt(/directory has been removed\./),
    dialogCue: 'extension dialog "⚠️ Dangerous command: rm -rf build  Allow?" with Yes / No',
    answeredCue: 'allowed, the command runs',
    extra: { piExtensions: ['permission-gate'] },
  }),
  dialogScenario(PI_BASICS, {
    id: '05-gate-deny',
    description: 'Like 04, but the dialog is answered with Esc after ~15 s: the tool is blocked and the model says so.',
    turns: [{ type: 'tool', name: 'bash', input: RM }, text('Understood, I left the build directory alone.')],
    dialog: PI.gate,
    holdMs: 15_000,
    answer: 'deny',
    done: /left the build directory alone\./,
    end: completedAt(/left the build directory alone\./),
    dialogCue: 'extension dialog',
    answeredCue: 'blocked; the model gets "Blocked by user"',
    extra: { piExtensions: ['permission-gate'] },
  }),
  {
    id: '06-tool-runs',
    agent: A,
    description: 'A bash tool call that takes ~4 s runs without asking (pi has no approvals), then the answer.',
    mock: { turns: [{ type: 'tool', name: 'bash', input: { command: 'sleep 4; wc -l README.md' } }, text('README.md has 3 lines.')] },
    steps: [...ready, ...ask('count the lines of the readme'), waitText(/README\.md has 3 lines\./, 40_000, 'turn finished'), wait(6000)],
    tailMs: 0,
    expect: [
      ...startup(),
      working('"$ sleep 4; wc -l README.md" box with "Elapsed Ns", spinner "Working..."'),
      completedAt(/README\.md has 3 lines\./),
    ],
  },
  escInterruptScenario(PI_BASICS, 'aborts', PI.aborted, '"Operation aborted" under the partial reply'),
  {
    id: '08-server-error-500',
    agent: A,
    description:
      'Every request answers HTTP 500: pi retries three times ("Retrying (n/3) in Ns... (escape to cancel)"), then "Error: Retry failed after 3 attempts".',
    mock: { turns: [{ type: 'error', status: 500, sticky: true }] },
    steps: [...ready, ...ask('What is the capital of France?'), waitText(/Retry failed after \d+ attempts/, 90_000, 'gave up'), wait(8000)],
    tailMs: 0,
    timeoutMs: 180_000,
    expect: [
      ...startup(),
      working('"Working..." / "Retrying (n/3) in Ns... (escape to cancel)" between the errors'),
      { state: 'failed', from: screen(/Retry failed after \d+ attempts/), cue: '"Error: Retry failed after 3 attempts: 500 …"' },
    ],
  },
  {
    id: '09-multistep-quit',
    agent: A,
    description: 'A write tool call, a second prompt with a bash call, then Ctrl+D: pi exits 0 and leaves its screen as it was.',
    mock: {
      turns: [
        { type: 'tool', name: 'write', input: { path: 'hello.js', content: "console.log('Hello from demo-app');\n" } },
        text('Created hello.js.'),
        { type: 'tool', name: 'bash', input: { command: 'node hello.js' } },
        text('It printed the greeting: all good.'),
      ],
    },
    steps: [
      ...ready,
      ...ask('create a hello world script'),
      waitText(/Created hello\.js\./, 30_000, 'first turn finished'),
      wait(5000),
      ...ask('now run it', 'submit2'),
      waitText(/printed the greeting: all good\./, 30_000, 'second turn finished'),
      wait(4000),
      quit(),
      waitExit(15_000, 'exit'),
    ],
    tailMs: 500,
    expect: [
      ...startup(),
      working(),
      completedAt(/Created hello\.js\./),
      { state: 'working', from: atMark('submit2'), cue: 'second prompt' },
      completedAt(/printed the greeting: all good\./),
      { state: 'exited', from: atExit, cue: 'Ctrl+D in the empty editor; the process exits (nothing printed)' },
    ],
  },
  {
    id: '16-api-error-400',
    agent: A,
    description:
      'Every request answers HTTP 400 "Invalid request" (pi retries by the message text, and this one names no server error): "Error: 400 …" ends the turn.',
    mock: { turns: [{ type: 'error', status: 400, sticky: true, message: 'Invalid request: unknown field "foo"' }] },
    steps: [...ready, ...ask('What is the capital of France?'), waitText(PI.error, 30_000, 'error shown'), wait(8000)],
    tailMs: 0,
    expect: [...startup(), working(), { state: 'failed', from: screen(PI.error), cue: '"Error: 400 …" in red' }],
  },
];
