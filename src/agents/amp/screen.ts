import { COMPLETION_SHAPE } from '../completion';
import { SEED_WAITING, SEED_WORKING } from '../seedRules';
import type { AgentSignature } from '../screenRules';

/*
 * Not verified here: no recording of this agent exists on this machine. Identified by command line and
 * process tree, with the generic cues for state. `seenIn: 'unverified'` is printed by `npm run compat` so
 * nobody mistakes it for a checked signature.
 */

export const screen: AgentSignature = {
  agent: 'amp',
  displayName: 'Amp',
  seenIn: 'unverified',
  commands: ['amp', 'amp-local'],
  packages: ['@sourcegraph/amp', '@ampcode/cli'],
  processNames: ['amp'],
  headless: { flags: ['-x', '--execute'] },
  identify: [],
  waiting: SEED_WAITING,
  working: SEED_WORKING,
  outcomes: [{ id: 'amp.completion', where: 'screen', pattern: COMPLETION_SHAPE, state: 'stopped', completion: true }],
  exit: [],
};
