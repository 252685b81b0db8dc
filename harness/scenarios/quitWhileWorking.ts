/**
 * Quitting an agent while it works (issue 28, class 12). Codex 0.169 answers Ctrl+C during a turn with a dialog
 * ("Task is still running" · Cancel task / Run in background / Exit) while its own status (OSC 7501) still says
 * working: the dialog needs the user, and Exit ends the program at once. `/quit` typed during the turn exits too.
 */
import { type Scenario, type Step, atExit, atMark, key, screen, submit, type, wait, waitExit, waitText } from '../scenario';
import { CODEX, CODEX_BASICS } from './codex';

const LONG = Array.from({ length: 40 }, (_, i) => `Step ${i + 1}: look at module ${i + 1} and write down what it does.`).join('\n');
const MOCK = {
  title: 'Write a plan',
  turns: [{ type: 'text' as const, text: LONG, chunks: 'lines' as const, firstDelayMs: 1500, durationMs: 60_000 }],
};
const STILL_RUNNING = /Task is still running/;
/** Both scenarios: the long answer asked for, and four seconds of it streaming. */
const WORKING: Step[] = [
  ...CODEX_BASICS.ready,
  ...CODEX_BASICS.ask('Write a long plan.'),
  waitText(CODEX.working, 20_000, 'working visible'),
  wait(4000),
];

export const quitWhileWorkingScenarios: Scenario[] = [
  {
    id: '29-quit-while-working',
    agent: 'codex',
    description: 'A long answer streams; Ctrl+C opens "Task is still running" (waiting), and its third choice, Exit, quits Codex.',
    mock: MOCK,
    steps: [
      ...WORKING,
      key('ctrl-c', 'ctrl-c'),
      waitText(STILL_RUNNING, 10_000, 'dialog visible'),
      wait(3000),
      type('3', 'exit'),
      waitExit(15_000, 'exit seen'),
    ],
    tailMs: 500,
    expect: [
      ...CODEX_BASICS.startup(),
      CODEX_BASICS.working(),
      { state: 'waiting', from: screen(STILL_RUNNING), cue: '"Task is still running" with three choices (OSC 7501 still says working)' },
      { state: 'exited', from: atMark('exit'), cue: 'Exit chosen: the program ends at once', accept: ['waiting'] },
      { state: 'exited', from: atExit, cue: 'process exit' },
    ],
  },
  {
    id: '30-slash-quit-while-working',
    agent: 'codex',
    description: 'A long answer streams; /quit typed in the composer quits Codex in the middle of the turn.',
    mock: MOCK,
    steps: [...WORKING, ...submit('/quit', 'quit'), waitExit(15_000, 'exit seen')],
    tailMs: 500,
    expect: [...CODEX_BASICS.startup(), CODEX_BASICS.working(), { state: 'exited', from: atExit, cue: 'process exit' }],
  },
];
