import { SEED_WAITING, SEED_WORKING } from './seedRules';
import type { AgentSignature } from './screenRules';

/**
 * More agents, identified by command line, package and process only (not verified against the real programs
 * here): their screens fall back to the generic rules (seedRules.ts) and the generic dialog shape. The headless flags
 * are the ones each CLI documents for one prompt and exit.
 */
export function byNameOnly(
  agent: AgentSignature['agent'],
  displayName: string,
  commands: string[],
  packages: string[],
  headless?: AgentSignature['headless'],
): AgentSignature {
  return {
    agent,
    displayName,
    seenIn: 'unverified',
    commands,
    packages,
    processNames: commands,
    identify: [],
    waiting: SEED_WAITING,
    working: SEED_WORKING,
    outcomes: [],
    exit: [],
    ...(headless ? { headless } : {}),
  };
}
