import type { AgentSignature } from '../screenRules';

/** The rows under droid's newest turn: a hook's row, its mode row, the input box's top edge. */
const BELOW_REPLY = /^ {3}Hooks [A-Z]|^ (?:Auto \(\w+\)|Spec)\b|^╭─{8,}/;

/**
 * Factory droid 0.225.2 (harness recordings and FACTS.md in test/fixtures/live/droid). An inline TUI: a spinner row
 * `⠋ Thinking...  (Press ESC to stop)` above its mode row while it works, replies `⛬  …` drawn whole when they
 * end, no completion line. Its approval dialog lists `Yes, allow` / `Yes, and always allow …` / `No, cancel` in a
 * box over the key hints; its window title names the session (`⛬ …`), never the state.
 */
export const screen: AgentSignature = {
  agent: 'droid',
  displayName: 'Factory Droid',
  seenIn: '0.225.2 (idle, answer, question, approve, deny, Esc, server errors, quit, headless)',
  commands: ['droid'],
  packages: ['@factory/cli', 'droid'],
  processNames: ['droid'],
  headless: { subcommands: ['exec'] },
  identify: [
    { id: 'dr.title', where: 'title', pattern: /^⛬ \S/, weight: 2 },
    { id: 'dr.mode', where: 'bottom', pattern: /^ (?:Auto \((?:Off|Low|Medium|High)\)|Spec) · /, weight: 1 },
  ],
  waiting: [
    {
      id: 'dr.approval-keys',
      where: 'bottom',
      pattern: /^\s*↑↓ navigate {2,4}Enter select {2,4}Esc cancel\b/,
      state: 'waiting',
      waitKind: 'permission',
    },
    { id: 'dr.no-cancel', where: 'bottom', pattern: /^│\s+No, cancel(?: all)?\s*│$/, state: 'waiting', waitKind: 'permission' },
  ],
  working: [
    // Thinking…, Streaming…, Executing…, Waiting for tool confirmation…, Retrying the model request (attempt N)…,
    // Cancelling tools… (Please wait).
    {
      id: 'dr.spinner',
      where: 'bottom',
      pattern: /^\s*[⠀-⣿] [A-Z].{2,80}?\.\.\.\s{1,4}\((?:Press ESC to stop|Please wait)\)/,
      state: 'working',
    },
    // The input box while a turn runs (a prompt typed now steers it).
    { id: 'dr.steer', where: 'bottom', pattern: /^│ > Enter to steer · Ctrl\+Enter to queue\b/, state: 'working' },
  ],
  outcomes: [
    { id: 'dr.cancelled', where: 'screen', pattern: /^●  Request cancelled by user\s*$/, state: 'stopped' },
    // A dialog answered with Esc: the tool's row gets this under it.
    { id: 'dr.interrupted', where: 'screen', pattern: /^ {4}⎿ Interrupted\s*$/, state: 'stopped' },
    { id: 'dr.error', where: 'screen', pattern: /^●  (?:BYOK )?Error: /, state: 'failed' },
    { id: 'dr.reply', where: 'screen', pattern: /^⛬  \S/, state: 'stopped', completion: true, replyEnd: BELOW_REPLY },
  ],
  replyPrefix: /^\s*⛬\s+/,
  // The input box's row (`│ > Try "…"`, the draft, or an empty `│ > `); the dialog takes its place.
  inputRow: /^│ > /,
  exit: [{ id: 'dr.resume', where: 'screen', pattern: /To resume this session, run: droid --resume \S/ }],
};
