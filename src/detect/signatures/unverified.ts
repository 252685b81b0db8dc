import { COMPLETION_SHAPE } from '../completion';
import { SEED_WAITING, SEED_WORKING } from './seedRules';
import type { AgentSignature } from './types';

/*
 * Agents without recordings on this machine: identified by command line and process tree (seed 000 says
 * Amp is found by the process scan), with seed 000's generic cues for state. `seenIn: 'unverified'` is
 * printed by `npm run compat` so nobody mistakes these for checked signatures.
 */

export const amp: AgentSignature = {
  agent: 'amp',
  displayName: 'Amp',
  seenIn: 'unverified',
  commands: ['amp'],
  packages: ['@sourcegraph/amp'],
  processNames: ['amp'],
  headless: { flags: ['-x', '--execute'] },
  identify: [],
  waiting: SEED_WAITING,
  working: SEED_WORKING,
  outcomes: [{ id: 'amp.completion', where: 'screen', pattern: COMPLETION_SHAPE, state: 'stopped', completion: true }],
  exit: [],
};

export const hermes: AgentSignature = {
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

/**
 * More agents, identified by command line, package and process only (not verified against the real programs
 * here): their screens fall back to seed 000's generic rules and the generic dialog shape. The headless flags
 * are the ones each CLI documents for one prompt and exit.
 */
function byNameOnly(agent: AgentSignature['agent'], displayName: string, commands: string[], packages: string[], headless?: AgentSignature['headless']): AgentSignature {
  return { agent, displayName, seenIn: 'unverified', commands, packages, processNames: commands, identify: [], waiting: SEED_WAITING, working: SEED_WORKING, outcomes: [], exit: [], ...(headless ? { headless } : {}) };
}

export const copilot = byNameOnly('copilot', 'GitHub Copilot CLI', ['copilot'], ['@github/copilot'], { flags: ['-p', '--prompt'] });
export const cursor = byNameOnly('cursor', 'Cursor Agent', ['cursor-agent'], [], { flags: ['-p', '--print'] });
export const crush = byNameOnly('crush', 'Crush', ['crush'], ['@charmland/crush'], { subcommands: ['run'] });
export const qwen = byNameOnly('qwen', 'Qwen Code', ['qwen'], ['@qwen-code/qwen-code'], { flags: ['-p', '--prompt'] });
export const kilocode = byNameOnly('kilocode', 'Kilo Code', ['kilocode'], ['@kilocode/cli'], { subcommands: ['run'] });
export const aider = byNameOnly('aider', 'Aider', ['aider'], ['aider-chat'], { flags: ['-m', '--message', '--message-file'] });
