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
  // `› 1. Yes, proceed (y)` / `2. Yes, and don't ask again for commands that start with … (p)` / `3. No, and tell
  // Codex what to do differently (esc)`: a digit picks at once (harness/facts/answering-dialogs.md §2, §4).
  dialogKeys: { allowOnce: /^Yes, proceed\b/, deny: /^No\b/ },
  doc: {
    identifiedBy: 'command line, process, `OSC 7501`, screen, `codex exec` header',
    verified:
      'all seven, headless `exec`, "Hooks need review", "Trust this folder?", Ctrl+C while working ("Task is still running": waiting) and `/quit` while working, a numbered plan that quotes a dialog, its hooks',
  },
};
