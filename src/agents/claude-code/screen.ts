import { COMPLETION_SHAPE } from '../completion';
import type { AgentSignature } from '../screenRules';

/** A reply or tool block starts here ("● text", "⏺ Bash(…)"): a spinner row above one is an earlier turn's. */
const CC_BLOCK_START = /^[●⏺] \S/;

/**
 * Claude Code's error banners, as `⎿` lines under the turn; the login ones also alone at the prompt. Public
 * wording of its releases (not all can be provoked against the mock): each alternative starts with a fixed phrase.
 */
const CC_ERROR_BANNER = new RegExp(
  // One anchor and one look-ahead for all: a banner that is being retried ("… · Retrying in 3 seconds… (attempt
  // 2/10)") has not failed yet.
  String.raw`^(?!.*Retrying in \d)\s*(?:` +
    [
      // With a reply's bullet too: 2.1.328 draws "● There's an issue with the selected model (…)" (harness 27).
      String.raw`(?:⎿\s+|[●⏺]\s+)?(?:Not logged in · Please run /login|Invalid API key · |OAuth token (?:revoked|has expired)|Please run /login · API Error|There's an issue with the selected model \()`,
      String.raw`⎿\s+(?:API Error[:( ]|Failed to authenticate\b|Authentication error · |Unable to connect to API\b|Request timed out\b)`,
      String.raw`⎿\s+(?:Credit balance (?:is )?too low\b|Context limit reached\b)`,
      String.raw`⎿\s+(?:You've hit your (?:[A-Za-z]+ )?limit\b|Claude (?:AI )?usage limit reached\b|\d+-hour limit reached\b)`,
      // Its first start without a connection (2.1.328, an empty home): the onboarding stops here.
      String.raw`Unable to connect to Anthropic services\s*$`,
    ].join('|') +
    ').*',
);

/** Claude Code, checked against 2.1.328 (its recordings: test/fixtures/recordings/claude-code, test/fixtures/live/claude-code). */
export const screen: AgentSignature = {
  agent: 'claude-code',
  displayName: 'Claude Code',
  seenIn: '2.1.328',
  commands: ['claude', 'claude-code'],
  packages: ['@anthropic-ai/claude-code'],
  processNames: ['claude'],
  headless: { flags: ['-p', '--print'] },
  // A submitted prompt or slash command stays in the transcript as "❯ <text>" (2.1.328, harness 24); the input
  // box shows the same glyph under its top rule. Dialog choices ("❯ 1. Yes") are not turns.
  turnStart: { id: 'cc.submitted-prompt', pattern: /^❯ (?!\d{1,2}\.\s)\S/, inputBoxAbove: /^─{8,}/ },
  identify: [
    // The window title is set by the program itself: "✳ Claude Code" at rest, "◐/◑ Claude Code" while working
    // (braille frames "⠂/⠐" before 2.1.228). Once a conversation has a topic, the topic replaces the name.
    { id: 'cc.title', where: 'title', pattern: /^[✳◐◑◒◓✻✽✶✢·*⠂⠐]\s+Claude Code$/, weight: 2 },
    { id: 'cc.banner', where: 'screen', pattern: /Claude Code v\d+\.\d+/, weight: 1, altScreenOnly: true },
    { id: 'cc.prompt-box', where: 'bottom', pattern: /^[❯>]\u00a0/, weight: 1, altScreenOnly: true },
    {
      id: 'cc.footer',
      where: 'bottom',
      pattern: /^\s*(?:⏸ manual mode on|⏵⏵ (?:auto mode|accept edits) on)/,
      weight: 1,
      altScreenOnly: true,
    },
    // The product's name on screen, kept weak: a cat of a file can print it too.
    { id: 'cc.seed-name', where: 'screen', pattern: /\bClaude Code\b/, weight: 1, altScreenOnly: true },
  ],
  waiting: [
    {
      id: 'cc.dialog-hint',
      where: 'bottom',
      // "Esc to cancel", then any of its optional hints: " · Tab to amend", " · ctrl+e to explain" (or "to hide").
      pattern: /^\s*Esc to cancel(?: · (?:Tab to amend|ctrl\+e to (?:explain|hide)))*\s*$/,
      state: 'waiting',
      waitKind: 'permission',
    },
    {
      id: 'cc.question-hint',
      where: 'bottom',
      pattern: /Enter to select · (?:↑\/↓|Tab\/Arrow keys) to navigate/,
      state: 'waiting',
      waitKind: 'question',
    },
    {
      id: 'cc.proceed',
      where: 'bottom',
      pattern: /^\s*Do you want to (?:proceed|create|make this edit|allow)\b.*\?\s*$/,
      state: 'waiting',
      waitKind: 'permission',
    },
    {
      id: 'cc.auto-mode-offer',
      where: 'bottom',
      pattern: /Make auto mode your default permission mode\?/,
      state: 'waiting',
      waitKind: 'prompt',
    },
  ],
  working: [
    // In the spinner row's parentheses or the footer, after a separator: the same words typed in the prompt box
    // (after "❯") or quoted in a reply are not a cue.
    { id: 'cc.esc-to-interrupt', where: 'bottom', pattern: /(?:^\s*|[(·]\s*)esc to interrupt\b/, state: 'working' },
    // The title's spinner before the name or a conversation topic: half circles since 2.1.228, braille before.
    { id: 'cc.title-spinner', where: 'title', pattern: /^[◐◑◒◓\u2800-\u28ff]\s+\S.*/, state: 'working' },
    // "✢ Nebulizing… (3s · ↓ 12 tokens)": a spinner glyph, a verb, an ellipsis. A reply block below it makes it stale.
    {
      id: 'cc.spinner',
      where: 'screen',
      pattern: /^[·✢*✶✻✽✳]\s+[A-Z][\p{L}'-]+(?: [a-z]+)?…/u,
      state: 'working',
      unlessBelow: CC_BLOCK_START,
    },
    // The label of the todo in progress (its active form, several words): "✶ Fixing the scanner buffer overflow…
    // (1m 16s · ↓ 938 tokens)". Several words need the status in parentheses, or the row ending at the ellipsis;
    // "●" is the spinner's glyph with reduced motion.
    {
      id: 'cc.task-spinner',
      where: 'screen',
      pattern: /^[·✢*✶✻✽✳●]\s+\S[^…]{0,200}…(?:\s*$|\s+\((?:\d+[hms]\b|esc to interrupt|ctrl\+c to interrupt|thinking|thought for))/,
      state: 'working',
      unlessBelow: CC_BLOCK_START,
    },
    { id: 'cc.retrying-in', where: 'screen', pattern: /(?:^\s*|⎿\s+|· )Retrying in \d+ seconds?… \(attempt \d+\/\d+\)/, state: 'working' },
    { id: 'cc.retrying', where: 'screen', pattern: /^✻ .*\bretrying\b.*· attempt \d+\/\d+/, state: 'working' },
    { id: 'cc.background-agent', where: 'screen', pattern: /^✻ Waiting for \d+ background agents? to finish/, state: 'working' },
  ],
  outcomes: [
    { id: 'cc.completion', where: 'screen', pattern: COMPLETION_SHAPE, state: 'stopped', completion: true },
    { id: 'cc.interrupted', where: 'screen', pattern: /^\s*⎿\s+Interrupted · What should Claude do instead\?/, state: 'stopped' },
    { id: 'cc.api-error', where: 'screen', pattern: /^[●⏺] API Error: .+/, state: 'failed' },
    // The error banners under a turn (or alone above the prompt): a login needed, no connection, a model or a
    // limit that is not available. The turn failed; the banner is the reason.
    { id: 'cc.error-banner', where: 'screen', pattern: CC_ERROR_BANNER, state: 'failed' },
    // "⎿  Compacted (ctrl+o to see full summary)": /compact ran to its end.
    { id: 'cc.compacted', where: 'screen', pattern: /^\s*⎿\s+Compacted\b/, state: 'stopped', completion: true },
    // Esc on an AskUserQuestion dialog (2.1.328, harness scenario 06b): no "Interrupted" line, this instead.
    { id: 'cc.declined', where: 'screen', pattern: /^[●⏺] Declined to answer Claude's questions/, state: 'stopped' },
  ],
  exit: [
    {
      id: 'cc.resume-hint',
      where: 'screen',
      pattern: /^\s*(?:Resume this session with:|claude --resume [0-9a-f-]{8,})/,
      normalScreenOnly: true,
    },
  ],
  replyPrefix: /^\s*[●⏺]\s+/,
  // The prompt line of the input box: "❯" and a no-break space (a submitted prompt keeps a plain space).
  inputRow: /^❯\u00a0/,
};
