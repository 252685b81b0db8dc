import * as path from 'path';
import type { AgentDescriptor } from '../descriptor';
import { hookRows } from './install';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'gemini',
  rank: 5,
  screen,
  // Gemini CLI's own home is `$GEMINI_CLI_HOME` when set (its `homedir()`), with `.gemini` below it either way.
  configDir: (env, home) => path.join(env.GEMINI_CLI_HOME || home, '.gemini'),
  hooks: 'settings',
  hookRows,
  logs: {
    format: 'jsonl',
    setting: 'agentLens.sessionLogs.geminiDirs',
    under: 'tmp',
    // tmp/<project>/chats/session-<time>-<id8>.jsonl; a subagent's log lives one folder deeper, under its parent's id.
    depth: 2,
    isSession: (file, dir) =>
      path.basename(file).startsWith('session-') &&
      file.endsWith('.jsonl') &&
      path.basename(path.dirname(file)) === 'chats' &&
      path.dirname(path.dirname(path.dirname(file))) === dir,
  },
  // `● 1. Allow once` / `2. Allow for this session` / (`3. Modify with external editor`) / `… No, suggest changes
  // (esc)`: a digit picks at once (harness/facts/answering-dialogs.md §4).
  dialogKeys: { allowOnce: /^Allow once\b/, deny: /^No\b/ },
  doc: {
    identifiedBy: 'command line (`gemini`, headless `-p`), process, its window title',
    verified:
      'all seven, live in the harness against a loopback Gemini API mock: answer, question, shell and write approvals, Esc, HTTP 500 (retries: stays working), HTTP 400, `/quit`, headless `-p`, a numbered plan that quotes a dialog, the first-start "connect IDE" and keybinding dialogs in VS Code; its hooks',
  },
};
