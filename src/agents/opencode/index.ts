import type { AgentDescriptor } from '../descriptor';
import { openCodePaths } from './paths';
import { screen } from './screen';

const { configDir, databasePath } = openCodePaths('opencode', 'OPENCODE');

export const agent: AgentDescriptor = {
  id: 'opencode',
  rank: 3,
  screen,
  configDir,
  hooks: 'plugin',
  pluginAnswers: true,
  logs: { format: 'sqlite', setting: 'agentLens.sessionLogs.opencodeDatabases', defaultPath: databasePath },
  doc: {
    identifiedBy: 'command line, process, OpenTUI query, screen',
    verified: 'all seven, headless `run`, a numbered plan that quotes a dialog (never waiting), its plugin',
  },
};
