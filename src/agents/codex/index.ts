import * as path from 'path';
import type { AgentDescriptor } from '../descriptor';
import { hookRows } from './install';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'codex',
  screen,
  configDir: (env, home) => env.CODEX_HOME || path.join(home, '.codex'),
  hooks: 'settings',
  hookRows,
  logs: 'jsonl',
  doc: {
    identifiedBy: 'command line, process, `OSC 7501`, screen, `codex exec` header',
    verified: 'all seven, headless `exec`, "Hooks need review", "Trust this folder?", its hooks',
  },
};
