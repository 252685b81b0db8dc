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

export const gemini: AgentSignature = {
  agent: 'gemini',
  displayName: 'Gemini CLI',
  seenIn: 'unverified',
  commands: ['gemini'],
  packages: ['@google/gemini-cli'],
  processNames: ['gemini'],
  headless: { flags: ['-p', '--prompt'] },
  identify: [],
  waiting: [
    { id: 'gm.allow-execution', where: 'bottom', pattern: /\bAllow execution\b|\bApply this change\?/, state: 'waiting', waitKind: 'permission' },
    ...SEED_WAITING,
  ],
  working: [{ id: 'gm.esc-to-cancel', where: 'bottom', pattern: /\(esc to cancel, \d+s\)/, state: 'working' }, ...SEED_WORKING],
  outcomes: [],
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
