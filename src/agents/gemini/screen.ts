import { SEED_WAITING, SEED_WORKING } from '../seedRules';
import type { AgentSignature } from '../screenRules';

/** The rows under Gemini's transcript: the status row (spinner, lingering hook names, `? for shortcuts`) and the rule. */
const STATUS_ROW = /\? for shortcuts|^\s*[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] |^\s*Executing Hooks?: |^─{20,}$/;

/**
 * Gemini CLI 0.61.0 (harness recordings in test/fixtures/live/gemini). An inline
 * TUI without a completion line: a finished turn is its reply `✦ …` as the lowest outcome, and a reply that
 * ends with a question asks.
 */
export const screen: AgentSignature = {
  agent: 'gemini',
  displayName: 'Gemini CLI',
  seenIn: '0.61.0 (idle, answer, question, approve, deny, Esc, server errors, quit, headless)',
  commands: ['gemini'],
  packages: ['@google/gemini-cli'],
  processNames: ['gemini'],
  headless: { flags: ['-p', '--prompt'] },
  // The title Gemini CLI 0.61.0 sets itself: icon, two spaces, state, folder.
  identify: [{ id: 'gm.title', where: 'title', pattern: /^(?:◇ {2}Ready|✦ {2}Working…|✋ {2}Action Required) \(/, weight: 2 }],
  waiting: [
    {
      id: 'gm.allow-execution',
      where: 'bottom',
      pattern: /\bAllow execution\b|\bApply this change\?/,
      state: 'waiting',
      waitKind: 'permission',
    },
    ...SEED_WAITING,
  ],
  working: [
    // The elapsed time goes 0s … 59s, 1m, 1m 1s.
    { id: 'gm.esc-to-cancel', where: 'bottom', pattern: /\(esc to cancel, \d+[hms](?: \d+[ms]){0,2}\)/, state: 'working' },
    { id: 'gm.title-working', where: 'title', pattern: /^✦ {2}Working…/, state: 'working' },
    ...SEED_WORKING,
  ],
  outcomes: [
    { id: 'gm.reply', where: 'screen', pattern: /^✦ \S/, state: 'stopped', completion: true, replyEnd: STATUS_ROW },
    { id: 'gm.cancelled', where: 'screen', pattern: /^ℹ Request cancelled\./, state: 'stopped' },
    { id: 'gm.api-error', where: 'screen', pattern: /^✕ \[API Error: /, state: 'failed' },
  ],
  replyPrefix: /^\s*✦\s/,
  // The prompt line of its input box (" >   Type your message or @path/to/file", or the draft).
  inputRow: /^ > {1,3}\S/,
  exit: [{ id: 'gm.goodbye', where: 'screen', pattern: /Agent powering down\. Goodbye!/ }],
};
