import * as path from 'path';
import type { AgentDescriptor } from '../descriptor';
import { hookRows } from './install';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'claude-code',
  rank: 1,
  screen,
  configDir: (env, home) => env.CLAUDE_CONFIG_DIR || path.join(home, '.claude'),
  hooks: 'settings',
  hookRows,
  logs: {
    format: 'jsonl',
    setting: 'agentLens.sessionLogs.claudeConfigDirs',
    under: 'projects',
    // projects/<cwd>/<session>.jsonl; subagent transcripts live one level deeper and are not the session's own.
    depth: 1,
    isSession: (file, dir) => file.endsWith('.jsonl') && path.dirname(path.dirname(file)) === dir,
  },
  doc: {
    identifiedBy: 'command line (`claude`, `npx @anthropic-ai/claude-code`, …), process, title and screen',
    verified:
      'all seven, headless `-p`, folder trust, `/compact`, HTTP 401 (ten retries, then its banner) and 404 (model), a numbered plan that quotes a dialog (never waiting), its hooks',
  },
};
