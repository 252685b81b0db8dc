import { COMPLETION_SHAPE } from '../completion';
import type { AgentSignature } from '../screenRules';

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
    // The window title is set by the program itself: "✳ Claude Code" at rest, "◐/◑ Claude Code" while working.
    { id: 'cc.title', where: 'title', pattern: /^[✳◐◑◒◓✻✽✶✢·*]\s+Claude Code$/, weight: 2 },
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
      pattern: /^\s*Esc to cancel(?: · Tab to amend)?\s*$/,
      state: 'waiting',
      waitKind: 'permission',
    },
    { id: 'cc.question-hint', where: 'bottom', pattern: /Enter to select · ↑\/↓ to navigate/, state: 'waiting', waitKind: 'question' },
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
    { id: 'cc.esc-to-interrupt', where: 'bottom', pattern: /\besc to interrupt\b/, state: 'working' },
    { id: 'cc.title-spinner', where: 'title', pattern: /^[◐◑◒◓]\s+Claude Code/, state: 'working' },
    // "✢ Nebulizing… (3s · ↓ 12 tokens)": a spinner glyph, a verb, an ellipsis.
    { id: 'cc.spinner', where: 'screen', pattern: /^[·✢*✶✻✽✳]\s+[A-Z][\p{L}'-]+(?: [a-z]+)?…/u, state: 'working' },
    { id: 'cc.retrying', where: 'screen', pattern: /^✻ .*\bretrying\b.*· attempt \d+\/\d+/, state: 'working' },
    { id: 'cc.background-agent', where: 'screen', pattern: /^✻ Waiting for \d+ background agents? to finish/, state: 'working' },
  ],
  outcomes: [
    { id: 'cc.completion', where: 'screen', pattern: COMPLETION_SHAPE, state: 'stopped', completion: true },
    { id: 'cc.interrupted', where: 'screen', pattern: /^\s*⎿\s+Interrupted · What should Claude do instead\?/, state: 'stopped' },
    { id: 'cc.api-error', where: 'screen', pattern: /^[●⏺] API Error: .+/, state: 'failed' },
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
};
