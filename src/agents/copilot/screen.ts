import type { AgentSignature } from '../screenRules';

/** The rows under Copilot's transcript: the folder and branch row, the input box's top edge. */
const BELOW_REPLY = /\s\[⎇ \S{1,80}\]\s*$|^╻▄{8,}/;

/**
 * GitHub Copilot CLI 1.0.102 (harness recordings and FACTS.md in test/fixtures/live/copilot). A full-screen TUI
 * whose footer is its state: `← open sidebar · Interactive · …` at rest, `◉ Working · 73 B esc esc interrupt`
 * while it works. Dialogs are boxes (`│ Do you want to run this command? │`) that take the input box's place.
 * No completion line: a finished turn is its reply `● …` as the lowest outcome. Its window title names the
 * session once and never its state.
 */
export const screen: AgentSignature = {
  agent: 'copilot',
  displayName: 'GitHub Copilot CLI',
  seenIn: '1.0.102 (idle, answer, question, approve, deny, folder trust, Esc Esc, server errors, quit, headless)',
  commands: ['copilot'],
  packages: ['@github/copilot'],
  processNames: ['copilot'],
  headless: { flags: ['-p', '--prompt'] },
  identify: [
    { id: 'cp.header', where: 'screen', pattern: /Copilot v\d+\.\d+\.\d+ uses AI\./, weight: 2 },
    { id: 'cp.title', where: 'title', pattern: /(?:^| - )GitHub Copilot$/, weight: 2 },
    { id: 'cp.footer', where: 'bottom', pattern: /^ ← open sidebar · Interactive · /, weight: 1, altScreenOnly: true },
  ],
  waiting: [
    {
      id: 'cp.dialog',
      where: 'bottom',
      pattern: /^│ Do you (?:want to [^?│]{1,200}|trust the files in this folder)\?\s*│$/,
      state: 'waiting',
      waitKind: 'permission',
    },
    {
      id: 'cp.dialog-hint',
      where: 'bottom',
      pattern: /^│ ↑\/↓ to navigate · enter to select · esc to cancel\s*│$/,
      state: 'waiting',
      waitKind: 'permission',
    },
  ],
  working: [
    // The footer's spinner cycles ● ◉ ◎ ○; "esc esc edit prompt" until the first bytes arrive; one Esc asks for another.
    {
      id: 'cp.working',
      where: 'bottom',
      pattern: /^ [●◉◎○] \S.{0,100}? (?:esc esc (?:interrupt|edit prompt)|esc again to interrupt)\b/,
      state: 'working',
    },
  ],
  outcomes: [
    { id: 'cp.failed', where: 'screen', pattern: /^ ✗ (?:Failed to get response from the AI model|\d{3} )/, state: 'failed' },
    { id: 'cp.cancelled', where: 'screen', pattern: /^ ● Operation cancelled by user\s*$/, state: 'stopped' },
    // A denied dialog: the tool's row (the note above may be missing: FACTS §4).
    { id: 'cp.aborted', where: 'screen', pattern: /^ ✗ .{1,160} Operation aborted by user\b/, state: 'stopped' },
    {
      id: 'cp.reply',
      where: 'screen',
      // Not the notes that share its bullet, nor the footer when its spinner shows ● (`● Working …`, `● Loading: …`).
      pattern:
        /^ ● (?!Operation cancelled by user|Request failed due to a transient API error|No copilot-instructions\.md found|Loading: |Working\b)\S/,
      state: 'stopped',
      completion: true,
      replyEnd: BELOW_REPLY,
    },
  ],
  // Its progress report (OSC 9;4): `3` (busy) right after Enter and every 5 s while the turn lasts, dialogs too;
  // `0` when the turn ends. The footer lags it by a second or more while its hooks run, so it says working first.
  programStatus: {
    id: 'cp.progress',
    osc: 9,
    parse: (body) => /^4;([0-4])(?:;|$)/.exec(body)?.[1],
    states: { '3': 'working' },
  },
  replyPrefix: /^\s*●\s/,
  // The input box's text row; a dialog box takes its place.
  inputRow: /^┃ /,
  exit: [{ id: 'cp.resume', where: 'screen', pattern: /Resume {2,}copilot --resume=\S/, normalScreenOnly: true }],
};
