import { SEED_WAITING, SEED_WORKING } from '../seedRules';
import type { AgentSignature } from '../screenRules';

/*
 * Not verified here: no recording of this agent exists on this machine. Identified by command line and
 * process tree, with the generic cues for state. `seenIn: 'unverified'` is printed by `npm run compat` so
 * nobody mistakes it for a checked signature.
 */

export const screen: AgentSignature = {
  agent: 'hermes',
  displayName: 'Hermes',
  seenIn: 'unverified',
  commands: ['hermes', 'hermes-agent'],
  packages: ['hermes-agent'],
  processNames: ['hermes'],
  identify: [],
  waiting: SEED_WAITING,
  working: SEED_WORKING,
  outcomes: [],
  exit: [],
};
