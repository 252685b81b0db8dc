import { byNameOnly } from '../byNameOnly';
import { SEED_WAITING, SEED_WORKING } from '../seedRules';
import type { AgentSignature } from '../screenRules';

/**
 * Not verified here (Cursor Agent is not on npm): its rules are built from the screens published by other
 * projects (its approval menu: unnumbered choices with a `→` cursor and key hints in parentheses; its working
 * cues: `ctrl+c to stop` beside the composer, a hexagon or braille spinner with a verb).
 */
const named = byNameOnly('cursor', 'Cursor Agent', ['cursor-agent'], [], { flags: ['-p', '--print'] });

export const screen: AgentSignature = {
  ...named,
  launchers: [{ command: 'cursor', subcommand: 'agent' }],
  identify: [
    { id: 'cur.banner', where: 'screen', pattern: /^\s*Cursor Agent\s*$/, weight: 1, altScreenOnly: true },
    { id: 'cur.composer', where: 'bottom', pattern: /^\s*→ (?:Plan, search, build anything|Add a follow-up)\s*$/, weight: 1 },
  ],
  waiting: [
    {
      id: 'cur.approval',
      where: 'bottom',
      pattern:
        /^\s*(?:│\s*)?(?:Run this (?:command|MCP tool)(?: outside the sandbox)?|Write to this file|Allow this web (?:fetch|search))\?/,
      state: 'waiting',
      waitKind: 'permission',
    },
    // The menu's own key hints: `Skip (esc or n)`, `Skip & tell the agent what to do instead (esc or n)`.
    { id: 'cur.skip-hint', where: 'bottom', pattern: /\(esc or n(?: or p)?\)\s*(?:│\s*)?$/, state: 'waiting', waitKind: 'permission' },
    { id: 'cur.trust', where: 'bottom', pattern: /Do you trust the contents of this directory\?/, state: 'waiting', waitKind: 'prompt' },
    ...SEED_WAITING,
  ],
  working: [
    { id: 'cur.ctrl-c-to-stop', where: 'bottom', pattern: /(?:^\s*|\s{2})ctrl\+c to stop\s*$/, state: 'working' },
    { id: 'cur.hexagon', where: 'bottom', pattern: /^\s*[⬡⬢] [A-Z][a-z]+ing\b/, state: 'working' },
    { id: 'cur.braille-status', where: 'bottom', pattern: /^\s*[\u2800-\u28ff]{1,2} [A-Z][a-z]+ing\b/, state: 'working' },
    ...SEED_WORKING,
  ],
};
