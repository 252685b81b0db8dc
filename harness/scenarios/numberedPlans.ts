/**
 * A streamed reply that lists numbered steps and quotes a dialog (issue 28, class 8): the shape of a dialog in the
 * transcript, with the input box still below it. Never waiting, on any agent: a false "needs you" notifies.
 */
import { type Scenario, submit, wait, waitText } from '../scenario';
import type { BasicsOf } from './basics';
import { completed, ready, startup, working } from './claudeCues';
import { CODEX_BASICS } from './codex';
import { GEMINI_BASICS } from './gemini';
import { OPENCODE_BASICS } from './opencode';
import { PI_BASICS } from './pi';
import { QWEN_BASICS } from './qwen';

const FENCE = '```';

/** Lines a model writes; the quoted block is what a dialog looks like, literally (a code block keeps it so). */
export const PLAN_REPLY = [
  'Here is the plan:',
  '',
  '1. Read the config loader.',
  '2. Add a test for the empty file.',
  '3. Fix the parser.',
  '',
  'If the installer stops, it shows this:',
  '',
  `${FENCE}text`,
  'Do you want to proceed?',
  '❯ 1. Yes',
  '  2. No',
  'Esc to cancel · Enter to confirm',
  FENCE,
  '',
  'The plan is ready.',
].join('\n');

export const PLAN_DONE = /The plan is ready\./;

export function numberedPlanScenario(o: BasicsOf): Scenario {
  return {
    id: '28-numbered-plan',
    agent: o.agent,
    description: `${o.name} streams a numbered plan that quotes a dialog (choices with a cursor, key hints), line by line; never waiting.`,
    mock: { turns: [{ type: 'text', text: `${PLAN_REPLY}\n`, firstDelayMs: 400, delayMs: 350, chunks: 'lines' }] },
    steps: [...o.ready, ...o.ask('Plan the parser fix.'), waitText(PLAN_DONE, 60_000, 'done'), wait(6000)],
    tailMs: 0,
    expect: [...o.startup(), o.working(), o.completedAt(PLAN_DONE)],
  };
}

const CLAUDE_BASICS: BasicsOf = {
  agent: 'claude-code',
  name: 'Claude Code',
  ready: [ready],
  ask: (t) => submit(t),
  startup,
  working: () => working(),
  completedAt: () => completed(),
};

/** Every verified agent's numbered plan. */
export const numberedPlanScenarios: Scenario[] = [CLAUDE_BASICS, CODEX_BASICS, OPENCODE_BASICS, GEMINI_BASICS, PI_BASICS, QWEN_BASICS].map(
  numberedPlanScenario,
);
