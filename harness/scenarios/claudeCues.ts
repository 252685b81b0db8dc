/**
 * Claude Code 2.1.328 screen cues and the segments and steps its scenarios share (claude-code.ts, claudeDialogs.ts).
 * Cues are the on-screen strings the real CLI prints (seen in its recordings under test/fixtures/live).
 */
import { type Segment, atStart, screen, screenN, waitText } from '../scenario';

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
  /** AskUserQuestion dismissed with Esc (observed in 2.1.328). */
  declined: /Declined to answer Claude's questions/,
};

export const startup = (): Segment[] => [
  {
    state: 'idle',
    from: atStart,
    cue: 'startup (TUI not drawn yet)',
    note: 'startup: screen blank / TUI still drawing; scorers may skip this interval',
  },
  { state: 'idle', from: screen(CLAUDE.ready), cue: 'empty prompt box, no finished turn on screen' },
];
export const working = (cue = 'footer "esc to interrupt"'): Segment => ({ state: 'working', from: screen(CLAUDE.working), cue });
export const completed = (n = 1): Segment => ({
  state: 'completed',
  from: n === 1 ? screen(CLAUDE.completed) : screenN(CLAUDE.completed, n),
  cue: 'completion line "✻ <Verb> for <n>s"',
  accept: ['idle'],
});
export const ready = waitText(CLAUDE.ready, 30_000, 'prompt visible');

export const BASH_RM = { command: 'rm -rf build', description: 'Remove the build directory' };

/** The AskUserQuestion the question scenarios and the answering tests ask: three options, one answer. */
export const ASK_FRAMEWORK = {
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
};
