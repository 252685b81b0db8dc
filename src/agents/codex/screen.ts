import { CODEX_COMPLETION } from '../completion';
import type { AgentSignature } from '../screenRules';

/** OpenAI Codex CLI, checked against 0.169.0 (its recordings: test/fixtures/recordings/codex, test/fixtures/live/codex). */
export const screen: AgentSignature = {
  agent: 'codex',
  displayName: 'Codex',
  seenIn: '0.169.0',
  commands: ['codex'],
  packages: ['@openai/codex'],
  processNames: ['codex'],
  headless: { subcommands: ['exec', 'e'], header: /^OpenAI Codex v\d+\.\d+\.\d+/ },
  identify: [
    { id: 'cx.program-status', where: 'osc', pattern: /^7501;state=\w+.*:app=codex\b/, weight: 2 },
    { id: 'cx.banner', where: 'screen', pattern: />_ OpenAI Codex \(v\d+\.\d+/, weight: 2, altScreenOnly: true },
    { id: 'cx.exec-header', where: 'screen', pattern: /^OpenAI Codex v\d+\.\d+\.\d+/, weight: 1 },
    // `codex exec`'s header block names its session: with the header line, a run started from a script is known.
    {
      id: 'cx.exec-session',
      where: 'screen',
      pattern: /^session id: [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\s*$/,
      weight: 1,
      normalScreenOnly: true,
    },
    { id: 'cx.composer', where: 'bottom', pattern: /^› Ask Codex to do anything/, weight: 1, altScreenOnly: true },
    { id: 'cx.title-action', where: 'title', pattern: /^\[ [!.] \] Action Required \| /, weight: 1 },
    // Older Codex patterns that still hold somewhere in 0.169 (case-insensitive version string, model name).
    { id: 'cx.seed-version', where: 'screen', pattern: /\bcodex v\d/i, weight: 1, altScreenOnly: true },
    { id: 'cx.seed-model', where: 'bottom', pattern: /\bgpt-[0-9.]+/i, weight: 1, altScreenOnly: true },
  ],
  waiting: [
    {
      id: 'cx.approval',
      where: 'bottom',
      pattern: /^\s*Press enter to confirm or esc to cancel/,
      state: 'waiting',
      waitKind: 'permission',
    },
    {
      id: 'cx.run-command',
      where: 'screen',
      pattern: /^\s*Would you like to (?:run the following command|make the following edits)\?/,
      state: 'waiting',
      waitKind: 'permission',
    },
    { id: 'cx.title-action', where: 'title', pattern: /Action Required/, state: 'waiting', waitKind: 'permission' },
  ],
  working: [
    { id: 'cx.esc-to-interrupt', where: 'bottom', pattern: /[(•·]\s*esc to interrupt\)/, state: 'working' },
    { id: 'cx.title-spinner', where: 'title', pattern: /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /, state: 'working' },
  ],
  outcomes: [
    { id: 'cx.completion', where: 'screen', pattern: CODEX_COMPLETION, state: 'stopped', completion: true },
    { id: 'cx.interrupted', where: 'screen', pattern: /^■ Conversation interrupted\b/, state: 'stopped' },
    { id: 'cx.error', where: 'screen', pattern: /^■ (?!Conversation interrupted).+/, state: 'failed' },
  ],
  exit: [
    { id: 'cx.reconnect-hint', where: 'screen', pattern: /^(?:To reconnect, run:|\s*codex resume [0-9a-f-]{8,})/, normalScreenOnly: true },
  ],
  programStatus: {
    id: 'cx.program-status',
    osc: 7501,
    parse(body) {
      const m = /^state=(\w+)(?::[^:]*)*?(?::app=(\w+))?/.exec(body);
      if (!m) return undefined;
      if (!/(?:^|:)app=codex(?::|$)/.test(body) && m[1] !== 'clear') return undefined;
      return m[1];
    },
    states: { idle: 'idle', working: 'working', blocked: 'waiting', done: 'completed', error: 'failed', clear: 'clear' },
  },
  replyPrefix: /^\s*•\s+/,
  // The composer ("› Ask Codex to do anything", or the draft); a dialog's cursor choice ("› 1. Yes") is not it.
  inputRow: /^› (?!\d{1,2}[.)]\s)/,
};
