import type { AgentSignature } from '../screenRules';

/** OpenCode, checked against 1.18.33 (its recordings: test/fixtures/recordings/opencode, test/fixtures/live/opencode). */
export const screen: AgentSignature = {
  agent: 'opencode',
  displayName: 'OpenCode',
  seenIn: '1.18.33',
  commands: ['opencode'],
  packages: ['opencode-ai'],
  processNames: ['opencode', 'opencode.exe'],
  headless: { subcommands: ['run'] },
  identify: [
    // The OpenTUI renderer's capability query is unique to OpenCode's TUI.
    { id: 'oc.opentui-query', where: 'osc', pattern: /^99;i=opentui-notifications\b/, weight: 2 },
    { id: 'oc.title', where: 'title', pattern: /^(?:OpenCode$|OC \| )/, weight: 2 },
    { id: 'oc.commands-hint', where: 'bottom', pattern: /ctrl\+p commands\s*$/, weight: 1, altScreenOnly: true },
    { id: 'oc.ask-anything', where: 'screen', pattern: /┃\s+Ask anything…/, weight: 1, altScreenOnly: true },
  ],
  waiting: [
    { id: 'oc.permission', where: 'bottom', pattern: /△ Permission required/, state: 'waiting', waitKind: 'permission' },
    {
      id: 'oc.permission-options',
      where: 'bottom',
      pattern: /Allow once\s+Allow always\s+Reject/,
      state: 'waiting',
      waitKind: 'permission',
    },
    { id: 'oc.question', where: 'bottom', pattern: /↑↓ select\s+enter submit\s+esc dismiss/, state: 'waiting', waitKind: 'question' },
  ],
  working: [
    { id: 'oc.esc-interrupt', where: 'bottom', pattern: /\besc (?:again to )?interrupt\b/, state: 'working' },
    { id: 'oc.retrying', where: 'bottom', pattern: /\[retrying in \d+s attempt #\d+\]/, state: 'working' },
  ],
  outcomes: [
    // "▣  Build · Mock Model · 10.8s": the turn footer gains its duration when the turn completes.
    { id: 'oc.completion', where: 'screen', pattern: /^\s*▣\s+\S.* · \d+(?:\.\d+)?(?:ms|s|m)\s*$/, state: 'stopped', completion: true },
    { id: 'oc.interrupted', where: 'screen', pattern: /^\s*▣\s+\S.* · interrupted\s*$/, state: 'stopped' },
    // A bare footer (no duration): a rejected permission or dismissed question (stopped), or a provider error
    // shown in a block right above it (failed).
    {
      id: 'oc.bare-footer',
      where: 'screen',
      pattern: /^\s*▣\s+(?!.* · (?:\d+(?:\.\d+)?(?:ms|s|m)|interrupted)\s*$)\S.*$/,
      state: 'stopped',
      failedIfAbove:
        /^\s*┃\s+.*\b(?:error|invalid|incorrect|unauthori[sz]ed|forbidden|rate.?limit|overloaded|quota|exceeded|failed|denied|[45]\d\d)\b/i,
    },
  ],
  turnInProgress: {
    id: 'oc.turn-in-progress',
    inputBoxEnd: /^\s*╹▀+\s*$/,
    inputBoxRow: /^\s*┃/,
    restingLast: /^\s*▣\s/,
    startScreen: /█▀▀█ █▀▀█ █▀▀█/,
  },
  exit: [{ id: 'oc.continue-hint', where: 'screen', pattern: /^\s*Continue\s+opencode -s ses_\w+/, normalScreenOnly: true }],
  replyPrefix: /^\s*/,
  // The input box's agent and model line ("┃  Build · Mock Model Mock"); a dialog in the box replaces it.
  inputRow: /^\s*┃\s{2}[A-Z][\w-]* · \S/,
};
