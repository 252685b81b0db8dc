/**
 * The first three scenarios of a CLI whose turn ends on the reply's last words (no completion line: Gemini CLI,
 * pi): sit idle at the prompt, a plain answer, and an answer that ends with a question; and the shape of a
 * tool-approval dialog held, then answered.
 */
import { type Scenario, type Segment, type Step, atMark, enter, key, quit, screen, wait, waitExit, waitText } from '../scenario';
import type { AgentName } from '../homeBase';
import type { MockScript } from '../mock/common';

export interface BasicsOf {
  agent: AgentName;
  /** The CLI's name in descriptions. */
  name: string;
  ready: Step[];
  ask: (text: string, submitMark?: string) => Step[];
  startup: () => Segment[];
  working: () => Segment;
  completedAt: (lastWords: RegExp) => Segment;
}

/** A text turn the mock streams in 14 chunks, 60 ms apart, after 400 ms (`extra` overrides any of it). */
export const streamedText = (t: string, extra: Record<string, unknown> = {}) => ({
  type: 'text' as const,
  text: t,
  firstDelayMs: 400,
  delayMs: 60,
  chunks: 14,
  ...extra,
});
const text = (t: string) => streamedText(t);

/** A prompt typed a character every `charDelayMs`, a pause, then Enter as its own write (marked `submitMark`). */
export const typedAsk =
  (charDelayMs: number, pauseMs: number) =>
  (text: string, submitMark = 'submit'): Step[] => [{ do: 'type', text, charDelayMs, mark: 'typing' }, wait(pauseMs), enter(submitMark)];

export function basicScenarios(o: BasicsOf): Scenario[] {
  const answered = /largest city in the country\./;
  const asked = /would you like me to use\?/;
  return [
    {
      id: '01-idle-start',
      agent: o.agent,
      description: `Start ${o.name} and leave it untouched at the prompt for ~15 s.`,
      mock: { turns: [] },
      steps: [...o.ready, wait(13_000)],
      tailMs: 0,
      expect: o.startup(),
    },
    {
      id: '02-plain-answer',
      agent: o.agent,
      description: 'One prompt answered with plain text, then ~8 s at rest.',
      mock: { turns: [text('The capital of France is Paris. It is also the largest city in the country.')] },
      steps: [...o.ready, ...o.ask('What is the capital of France?'), waitText(answered, 30_000, 'turn finished'), wait(8000)],
      tailMs: 0,
      expect: [...o.startup(), o.working(), o.completedAt(answered)],
    },
    {
      id: '03-question-reply',
      agent: o.agent,
      description: 'The answer ends with a question to the user; the turn ends normally.',
      mock: { turns: [text('I can set up tests with either Vitest or Jest. Which one would you like me to use?')] },
      steps: [...o.ready, ...o.ask('Set up unit tests for this project.'), waitText(asked, 30_000, 'turn finished'), wait(8000)],
      tailMs: 0,
      expect: [
        ...o.startup(),
        o.working(),
        { state: 'waiting', from: screen(asked), cue: 'reply ends with a question', accept: ['completed', 'idle'] },
      ],
    },
  ];
}

export interface DialogRun {
  id: string;
  description: string;
  /** The scripted model turns: the tool call the dialog asks about, then whatever follows the answer. */
  turns: MockScript['turns'];
  dialog: RegExp;
  holdMs: number;
  /** Enter approves; Esc denies. */
  answer: 'approve' | 'deny';
  /** What shows once the answer has taken effect, and the segment that starts there. */
  done: RegExp;
  end: Segment;
  dialogCue: string;
  answeredCue: string;
  /** How long to record after `done` shows (default 6 s). */
  restMs?: number;
  extra?: Partial<Scenario>;
}

/** A tool call whose approval dialog is held for a while, then answered: Working, Waiting, Working, then the end. */
export function dialogScenario(o: BasicsOf, d: DialogRun): Scenario {
  const answerStep = d.answer === 'approve' ? enter('approve') : key('esc', 'deny');
  return {
    id: d.id,
    agent: o.agent,
    description: d.description,
    mock: { turns: d.turns },
    steps: [
      ...o.ready,
      ...o.ask('clean the build output'),
      waitText(d.dialog, 30_000, 'dialog visible'),
      wait(d.holdMs),
      answerStep,
      waitText(d.done, 30_000, 'turn finished'),
      wait(d.restMs ?? 6000),
    ],
    tailMs: 0,
    expect: [
      ...o.startup(),
      o.working(),
      { state: 'waiting', from: screen(d.dialog), cue: d.dialogCue },
      ...(d.answer === 'approve' || d.end.state === 'completed'
        ? [{ state: 'working' as const, from: atMark(d.answer), cue: d.answeredCue }]
        : []),
      d.end,
    ],
    ...d.extra,
  };
}

/** A reply streams slowly and Esc stops it after ~6 s; `stopped` is what the CLI prints then. */
export function escInterruptScenario(o: BasicsOf, verb: string, stopped: RegExp, stoppedCue: string): Scenario {
  return {
    id: '07-esc-interrupt',
    agent: o.agent,
    description: `A reply streams slowly; Esc after ~6 s ${verb} it.`,
    mock: { turns: [{ type: 'hang', text: 'Here is a step-by-step plan for adding tests to demo-app. First, ', maxMs: 120_000 }] },
    steps: [
      ...o.ready,
      ...o.ask('Plan how to add tests to this project.'),
      waitText(/step-by-step plan/, 30_000, 'streaming'),
      wait(6000),
      key('esc', 'interrupt'),
      waitText(stopped, 10_000, 'stopped'),
      wait(8000),
    ],
    tailMs: 0,
    expect: [...o.startup(), o.working(), { state: 'stopped', from: screen(stopped), cue: stoppedCue, accept: ['idle'] }],
  };
}

/** Two prompts, each with a tool whose dialog is approved, then the CLI's quit: the 09-multistep-quit shape. */
export interface MultistepRun {
  /** The first and the second tool's dialog as drawn (where its waiting segment starts). */
  dialogs: [RegExp, RegExp];
  /** What the steps wait for before approving, where it is more than the dialog's anchor. */
  waitFor?: [RegExp, RegExp];
  /** The marks of the moments each dialog shows and each is approved (the recordings' own names). */
  dialogMarks: [string, string];
  approveMarks?: [string, string];
  /** The first and the second dialog's cue, and what each approval does. */
  dialogCues: [string, string];
  approvedCues: [string, string];
  /** What to wait for before the next step: the reply's last words, as this CLI draws them at rest. */
  settled?: (lastWords: RegExp) => RegExp;
  /** How the quit shows (the last segment) and how long the exit may take. */
  exited: Segment;
  exitMs?: number;
}

const FIRST_DONE = /Created hello\.js\./;
const SECOND_DONE = /printed the greeting: all good\./;

/** The steps: each prompt, its dialog held 3 s then approved with Enter, a rest, and the quit. */
export function multistepQuitSteps(o: BasicsOf, m: MultistepRun): Step[] {
  const [approve1, approve2] = m.approveMarks ?? ['approve', 'approve2'];
  const settled = m.settled ?? ((re: RegExp) => re);
  const [dialog1, dialog2] = m.waitFor ?? m.dialogs;
  return [
    ...o.ready,
    ...o.ask('create a hello world script'),
    waitText(dialog1, 30_000, m.dialogMarks[0]),
    wait(3000),
    enter(approve1),
    waitText(settled(FIRST_DONE), 30_000, 'first turn finished'),
    wait(5000),
    ...o.ask('now run it', 'submit2'),
    waitText(dialog2, 30_000, m.dialogMarks[1]),
    wait(3000),
    enter(approve2),
    waitText(settled(SECOND_DONE), 30_000, 'second turn finished'),
    wait(4000),
    quit(),
    waitExit(m.exitMs ?? 15_000, 'exit'),
  ];
}

/** The expected states: working, waiting, working, completed, twice, then exited. */
export function multistepQuitExpect(o: BasicsOf, m: MultistepRun): Segment[] {
  const [approve1, approve2] = m.approveMarks ?? ['approve', 'approve2'];
  return [
    ...o.startup(),
    o.working(),
    { state: 'waiting', from: screen(m.dialogs[0]), cue: m.dialogCues[0] },
    { state: 'working', from: atMark(approve1), cue: m.approvedCues[0] },
    o.completedAt(FIRST_DONE),
    { state: 'working', from: atMark('submit2'), cue: 'second prompt' },
    { state: 'waiting', from: screen(m.dialogs[1]), cue: m.dialogCues[1] },
    { state: 'working', from: atMark(approve2), cue: m.approvedCues[1] },
    o.completedAt(SECOND_DONE),
    m.exited,
  ];
}
