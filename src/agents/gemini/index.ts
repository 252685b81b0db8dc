import * as path from 'path';
import type { AgentDescriptor } from '../descriptor';
import { hookRows } from './install';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'gemini',
  rank: 5,
  screen,
  configDir: (env, home) => path.join(home, '.gemini'),
  hooks: 'settings',
  hookRows,
  // `● 1. Allow once` / `2. Allow for this session` / (`3. Modify with external editor`) / `… No, suggest changes
  // (esc)`: a digit picks at once (harness/facts/answering-dialogs.md §4).
  dialogKeys: { allowOnce: /^Allow once\b/, deny: /^No\b/ },
  doc: {
    identifiedBy: 'command line (`gemini`, headless `-p`), process, its window title',
    verified:
      'all seven, live in the harness against a loopback Gemini API mock: answer, question, shell and write approvals, Esc, HTTP 500 (retries: stays working), HTTP 400, `/quit`, headless `-p`, a numbered plan that quotes a dialog, the first-start "connect IDE" and keybinding dialogs in VS Code; its hooks',
  },
};
