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
  seenIn: '0.61.0 (idle, shell approval, Esc: recordings in test/fixtures/recordings/gemini)',
  commands: ['gemini'],
  packages: ['@google/gemini-cli'],
  processNames: ['gemini'],
  headless: { flags: ['-p', '--prompt'] },
  // The title Gemini CLI 0.61.0 sets itself (shared/recordings/gemini, FACTS.md §4): icon, two spaces, state, folder.
  identify: [{ id: 'gm.title', where: 'title', pattern: /^(?:◇ {2}Ready|✦ {2}Working…|✋ {2}Action Required) \(/, weight: 2 }],
  waiting: [
    { id: 'gm.allow-execution', where: 'bottom', pattern: /\bAllow execution\b|\bApply this change\?/, state: 'waiting', waitKind: 'permission' },
    ...SEED_WAITING,
  ],
  working: [
    // The elapsed time goes 0s … 59s, 1m, 1m 1s (FACTS.md §2).
    { id: 'gm.esc-to-cancel', where: 'bottom', pattern: /\(esc to cancel, \d+[hms](?: \d+[ms]){0,2}\)/, state: 'working' },
    { id: 'gm.title-working', where: 'title', pattern: /^✦ {2}Working…/, state: 'working' },
    ...SEED_WORKING,
  ],
  outcomes: [
    { id: 'gm.cancelled', where: 'screen', pattern: /^ℹ Request cancelled\./, state: 'stopped' },
    { id: 'gm.api-error', where: 'screen', pattern: /^✕ \[API Error: /, state: 'failed' },
  ],
  exit: [{ id: 'gm.goodbye', where: 'screen', pattern: /Agent powering down\. Goodbye!/ }],
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
export const pi = byNameOnly('pi', 'pi', ['pi'], ['@mariozechner/pi-coding-agent'], { flags: ['-p', '--print'] });
