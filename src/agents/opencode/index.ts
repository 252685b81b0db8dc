import * as path from 'path';
import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

/** Its database, as OpenCode opens it: `OPENCODE_DB` (absolute, `:memory:`, or a name in its data folder), else opencode.db there. */
function databasePath(env: NodeJS.ProcessEnv, home: string): string {
  const data = path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'opencode');
  const custom = env.OPENCODE_DB;
  if (custom) return custom === ':memory:' || path.isAbsolute(custom) ? custom : path.join(data, custom);
  return path.join(data, 'opencode.db');
}

export const agent: AgentDescriptor = {
  id: 'opencode',
  rank: 3,
  screen,
  configDir: (env, home) => env.OPENCODE_CONFIG_DIR || path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'opencode'),
  hooks: 'plugin',
  pluginAnswers: true,
  logs: { format: 'sqlite', setting: 'agentLens.sessionLogs.opencodeDatabases', defaultPath: databasePath },
  doc: {
    identifiedBy: 'command line, process, OpenTUI query, screen',
    verified: 'all seven, headless `run`, a numbered plan that quotes a dialog (never waiting), its plugin',
  },
};
