import type { AgentSignature } from '../screenRules';

/**
 * Continue CLI 1.5.47 (`cn`; harness recordings and FACTS.md in test/fixtures/live/continue-cli). An inline Ink TUI
 * with no window title and no OSC at all: a spinner row `⣿⡿⡿  ( 5s • esc to interrupt )` above the input box
 * while it works (also while its approval box is open), replies drawn whole when they end, no completion line.
 * Its approval box takes the input box's place; the rows of its end are what the rules read.
 */
export const screen: AgentSignature = {
  agent: 'continue-cli',
  displayName: 'Continue CLI',
  seenIn: '1.5.47 (idle, answer, question, approve, deny, Esc, server errors, quit, headless)',
  commands: ['cn'],
  packages: ['@continuedev/cli'],
  processNames: ['cn'],
  headless: { flags: ['-p', '--print'] },
  identify: [
    { id: 'cn.input', where: 'screen', pattern: /^│ ● ▋?Ask anything, @ for context, \/ for slash commands, ! for shell mode/, weight: 2 },
    // The footer's right end: its update status (offline `◉ Continue CLI`, online the version or an update).
    {
      id: 'cn.footer',
      where: 'bottom',
      pattern: /(?:◉ Continue CLI|Continue CLI v\d+\.\d+\.\d+|Update available: v\S{1,20})\s*$/,
      weight: 2,
    },
  ],
  waiting: [
    {
      id: 'cn.approval',
      where: 'bottom',
      pattern: /^│ {2,4}(?:> )?No, and tell Continue what to do differently \(esc\)\s*│$/,
      state: 'waiting',
      waitKind: 'permission',
    },
    { id: 'cn.continue', where: 'bottom', pattern: /^│ {2}Would you like to continue\?\s*│$/, state: 'waiting', waitKind: 'permission' },
  ],
  working: [{ id: 'cn.spinner', where: 'bottom', pattern: /\( \d+s • esc to interrupt(?: • ctrl\+b to background)? \)/, state: 'working' }],
  outcomes: [
    { id: 'cn.interrupted', where: 'screen', pattern: /^ Interrupted by user - Press enter to continue\s*$/, state: 'stopped' },
    {
      id: 'cn.denied',
      where: 'screen',
      pattern: /^\s*\[Tool canceled - please tell Continue what to do differently\]\s*$/,
      state: 'stopped',
    },
    { id: 'cn.error', where: 'screen', pattern: /^\s*Error: \d{3} \S/, state: 'failed' },
    // The newest prompt, reply or tool row (all `● `): the last words above the input box are the turn's.
    { id: 'cn.turn', where: 'screen', pattern: /^● \S/, state: 'stopped', completion: true, replyEnd: /^╭─{8,}/ },
  ],
  replyPrefix: /^\s*(?:● )?/,
  // The input box's row (`│ ● ▋Ask anything…`, or the draft); the approval box takes its place.
  inputRow: /^│ ● /,
  exit: [],
};
