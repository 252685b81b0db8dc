import type { StateRule } from './screenRules';

/**
 * Agent-neutral dialog and working cues, for agents without rules of their own. The three recorded CLIs have exact rules of their own;
 * these serve the agents we have no recordings of yet, and only in the bottom rows of an identified agent's TUI.
 */
export const SEED_WAITING: StateRule[] = [
  { id: 'seed.proceed', where: 'bottom', pattern: /Do you want to proceed\?/, state: 'waiting', waitKind: 'permission' },
  { id: 'seed.allow', where: 'bottom', pattern: /\bAllow (?:once|always)\b/, state: 'waiting', waitKind: 'permission' },
  { id: 'seed.yes-no', where: 'bottom', pattern: /\(y\/n\)/i, state: 'waiting', waitKind: 'prompt' },
  { id: 'seed.requires-approval', where: 'bottom', pattern: /\brequires approval\b/i, state: 'waiting', waitKind: 'permission' },
];

export const SEED_WORKING: StateRule[] = [
  // At the start of a row or after a separator, as footers and spinner rows put it: the same words typed in the
  // input box (after its prompt glyph) or quoted in a reply's prose are not a cue.
  { id: 'seed.esc-to-interrupt', where: 'bottom', pattern: /(?:^\s*|[(·•,|]\s*)esc to (?:interrupt|cancel)\b/i, state: 'working' },
];
