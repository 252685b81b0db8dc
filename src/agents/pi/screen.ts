import { SEED_WAITING, SEED_WORKING } from '../seedRules';
import type { AgentSignature } from '../screenRules';

/** pi draws its editor between two full-width rules; the row above them is where a turn leaves its last words. */
const EDITOR_RULE = /^─{20,}\s*$/;
/** A transcript-end row that is not a turn's last words: the spinner row and the start screen's tip. */
const NOT_LAST_WORDS = '(?![⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] )(?!Pi can explain its own features)';

/**
 * pi 0.73.1 (`@mariozechner/pi-coding-agent`; harness recordings in test/fixtures/live/pi). An inline TUI with no
 * completion line and no approvals of its own: the spinner row means Working, and at rest the row above the
 * editor is the turn's outcome — "Operation aborted", "Error: …", or the reply's last row (a question asks).
 * Extensions' dialogs (`ctx.ui.select`/`confirm`, e.g. the shipped permission-gate) take the editor's place.
 */
export const screen: AgentSignature = {
  agent: 'pi',
  displayName: 'pi',
  seenIn: '0.73.1 (idle, answer, question, extension dialog approve/deny, tool, Esc, server errors, quit, headless)',
  commands: ['pi'],
  packages: ['@mariozechner/pi-coding-agent'],
  processNames: ['pi'],
  headless: { flags: ['-p', '--print'] },
  identify: [
    // The title pi sets: "π - <folder>".
    { id: 'pi.title', where: 'title', pattern: /^π - /, weight: 2 },
    { id: 'pi.header', where: 'screen', pattern: /^ pi v\d{1,3}\.\d{1,3}\.\d{1,4}\s*$/, weight: 1 },
    { id: 'pi.key-hints', where: 'screen', pattern: /^ escape interrupt · ctrl\+c\/ctrl\+d clear\/exit · /, weight: 1 },
  ],
  waiting: [
    // pi's selector, drawn for an extension's question in place of the editor.
    {
      id: 'pi.selector',
      where: 'bottom',
      pattern: /↑↓ navigate {1,4}enter select {1,4}escape\/ctrl\+c cancel/,
      state: 'waiting',
      waitKind: 'prompt',
    },
    // A first start without a model (0.73.1, its own screen): nothing can run until the user connects a provider
    // with /login. It stays in the transcript; a row pi writes below it (a login, a prompt) makes it history.
    {
      id: 'pi.no-models',
      where: 'screen',
      pattern: /^ Warning: No models available\. Use \/login\b.*/,
      state: 'waiting',
      waitKind: 'prompt',
      notice: true,
      unlessBelow: /^ \S/,
    },
    ...SEED_WAITING,
  ],
  working: [
    {
      id: 'pi.spinner',
      where: 'bottom',
      pattern: /^\s{0,2}[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (?:Working\.\.\.|Retrying \(\d{1,3}\/\d{1,3}\) in \d{1,5}s\.\.\.)/,
      state: 'working',
    },
    ...SEED_WORKING,
  ],
  outcomes: [
    { id: 'pi.aborted', where: 'transcriptEnd', pattern: /^ Operation aborted\s*$/, state: 'stopped' },
    { id: 'pi.error', where: 'transcriptEnd', pattern: /^ Error: /, state: 'failed' },
    // Replies, tool results and notes start one column in; the reply's last row is the marker and the reply.
    {
      id: 'pi.last-words',
      where: 'transcriptEnd',
      pattern: new RegExp(`^ ${NOT_LAST_WORDS}\\S`),
      state: 'stopped',
      completion: true,
      replyEnd: EDITOR_RULE,
    },
  ],
  inputEdge: EDITOR_RULE,
  exit: [],
};
