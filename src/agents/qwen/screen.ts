import { SEED_WAITING, SEED_WORKING } from '../seedRules';
import type { AgentSignature } from '../screenRules';

/** The rows under Qwen Code's transcript: the spinner row, the status row, the rules of its input box. */
const STATUS_ROW = /^\s*[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] |^─{20,}$/;

/**
 * Qwen Code 0.24.4 (harness recordings in test/fixtures/live/qwen; a Gemini CLI fork). An inline TUI without a
 * completion line: a finished turn is its reply `◆︎ …` as the lowest outcome, and a reply that ends with a
 * question asks. Its window title is `Qwen - <folder>` padded to 80 columns, `◐︎ ` before it while it responds
 * and `✳︎ ` while a dialog waits.
 */
export const screen: AgentSignature = {
  agent: 'qwen',
  displayName: 'Qwen Code',
  seenIn: '0.24.4 (idle, answer, question, approve, deny, Esc, server errors, quit, headless)',
  commands: ['qwen'],
  packages: ['@qwen-code/qwen-code'],
  processNames: ['qwen'],
  headless: { flags: ['-p', '--prompt'] },
  identify: [
    { id: 'qw.title', where: 'title', pattern: /^(?:[◐✳]\uFE0E? )?Qwen - \S/, weight: 2 },
    { id: 'qw.header', where: 'screen', pattern: /│ >_ Qwen Code \(v\d/, weight: 2 },
  ],
  waiting: [
    {
      id: 'qw.allow-execution',
      where: 'bottom',
      pattern: /^\s*(?:Allow execution of: .{1,200}\?|Apply this change\?|Do you want to proceed\?)\s*$/,
      state: 'waiting',
      waitKind: 'permission',
    },
    { id: 'qw.title-waiting', where: 'title', pattern: /^✳\uFE0E? Qwen - /, state: 'waiting', waitKind: 'permission' },
    ...SEED_WAITING,
  ],
  working: [
    // `(0s · ↑ 2 tokens · esc to cancel)`; the elapsed time goes 0s … 59s, 1m, 1m 1s.
    {
      id: 'qw.esc-to-cancel',
      where: 'bottom',
      pattern: /\(\d+[hms](?: \d+[ms]){0,2}(?: · [^()]{1,40}){0,3} · esc to cancel\)/,
      state: 'working',
    },
    { id: 'qw.title-working', where: 'title', pattern: /^◐\uFE0E? Qwen - /, state: 'working' },
    ...SEED_WORKING,
  ],
  outcomes: [
    { id: 'qw.reply', where: 'screen', pattern: /^\s*◆\uFE0E? \S/, state: 'stopped', completion: true, replyEnd: STATUS_ROW },
    // Esc: the partial reply stays, this note goes under it, and the prompt goes back into the input box.
    { id: 'qw.cancelled', where: 'screen', pattern: /^\s*●\uFE0E? Request cancelled\.\s*$/, state: 'stopped' },
    // After its retries (a 500: seven attempts over about 95 s) or at once (a 400).
    { id: 'qw.api-error', where: 'screen', pattern: /^\s*✕\uFE0E? \[API Error: /, state: 'failed' },
  ],
  replyPrefix: /^\s*◆\uFE0E?\s/,
  // The prompt line of its input box (">   Type your message or @path/to/file", or the draft).
  inputRow: /^> {1,3}\S/,
  // `/quit`: a summary box under "Agent powering down. Goodbye!", then a cleared screen with the resume line.
  exit: [
    { id: 'qw.goodbye', where: 'screen', pattern: /Agent powering down\. Goodbye!/ },
    { id: 'qw.resume', where: 'screen', pattern: /^qwen --resume [0-9a-f-]{36}\s*$/ },
  ],
};
