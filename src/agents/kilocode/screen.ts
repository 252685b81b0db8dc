import type { AgentSignature } from '../screenRules';
import { screen as opencode } from '../opencode/screen';

/** OpenCode's rules under Kilo's ids: every dialog, working and outcome rule reads Kilo's screen as OpenCode's (FACTS.md §13). */
const renamed = <T extends { id: string }>(rules: readonly T[]): T[] => rules.map((r) => ({ ...r, id: r.id.replace(/^oc\./, 'kc.') }));

/**
 * Kilo Code CLI 7.7.7 (harness recordings and FACTS.md in test/fixtures/live/kilocode), a fork of OpenCode: the
 * same OpenTUI screen — the `△ Permission required` dock, the footer spinner with `esc interrupt`, the turn line
 * `▣  Code · Mock Model · 4.0s` — under its own title (`Kilo CLI`, `Kilo CLI | <session>`, never a state), its own
 * logo and placeholder (`Ask anything... "…"`), and a second dialog when a permission is rejected.
 */
export const screen: AgentSignature = {
  agent: 'kilocode',
  displayName: 'Kilo Code',
  seenIn: '7.7.7 (idle, answer, question, approve, reject, Esc Esc, server errors, quit, headless)',
  commands: ['kilocode', 'kilo-code'],
  // Its npm package installs `kilo` too, the name of a small text editor (`kilo notes.txt`).
  sharedCommands: ['kilo'],
  packages: ['@kilocode/cli'],
  processNames: ['kilocode', 'kilo-code'],
  headless: { subcommands: ['run'] },
  identify: [
    { id: 'kc.title', where: 'title', pattern: /^Kilo CLI(?: \| |$)/, weight: 2 },
    { id: 'kc.ask-anything', where: 'screen', pattern: /┃\s+Ask anything\.\.\. "/, weight: 2, altScreenOnly: true },
    { id: 'kc.commands-hint', where: 'bottom', pattern: /ctrl\+p commands\s*$/, weight: 1, altScreenOnly: true },
  ],
  waiting: [
    ...renamed(opencode.waiting),
    // "No" in the dock asks what to do instead before it rejects (Enter confirms).
    { id: 'kc.reject-permission', where: 'bottom', pattern: /△ Reject permission/, state: 'waiting', waitKind: 'permission' },
  ],
  working: renamed(opencode.working),
  outcomes: renamed(opencode.outcomes),
  // The home screen's KILO logo (its sextant corners) stands where a transcript would.
  turnInProgress: { ...opencode.turnInProgress!, id: 'kc.turn-in-progress', startScreen: /██🬺🬏/ },
  exit: [{ id: 'kc.continue-hint', where: 'screen', pattern: /\bkilo -s ses_\w+/, normalScreenOnly: true }],
  replyPrefix: opencode.replyPrefix,
  // The input box's agent and model line (`┃  Code  · Mock Model Mock`: two spaces before the dot, not OpenCode's one).
  inputRow: /^\s*┃\s{2}[A-Z][\w-]* {1,2}· \S/,
};
