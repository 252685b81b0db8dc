import * as path from 'path';
import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'opencode',
  screen,
  configDir: (env, home) => env.OPENCODE_CONFIG_DIR || path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'opencode'),
  hooks: 'plugin',
  logs: 'sqlite',
  doc: {
    identifiedBy: 'command line, process, OpenTUI query, screen',
    verified: 'all seven, headless `run`, its plugin',
  },
};
