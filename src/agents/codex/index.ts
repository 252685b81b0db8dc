import * as path from 'path';
import type { AgentDescriptor } from '../descriptor';
import { hookRows } from './install';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'codex',
  rank: 2,
  screen,
  configDir: (env, home) => env.CODEX_HOME || path.join(home, '.codex'),
  hooks: 'settings',
  hookRows,
  logs: {
    format: 'jsonl',
    setting: 'agentLens.sessionLogs.codexHomes',
    under: 'sessions',
    // sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl
    depth: 3,
    isSession: (file) => file.endsWith('.jsonl') && path.basename(file).startsWith('rollout-'),
  },
  doc: {
    identifiedBy: 'command line, process, `OSC 7501`, screen, `codex exec` header',
    verified: 'all seven, headless `exec`, "Hooks need review", "Trust this folder?", its hooks',
  },
};
