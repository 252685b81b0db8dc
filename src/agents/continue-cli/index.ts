import * as path from 'path';
import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'continue-cli',
  rank: 21,
  screen,
  // cn's `continueHome`: `$CONTINUE_GLOBAL_DIR` (relative: from its working folder, unknown here) or `~/.continue`.
  configDir: (env, home) =>
    env.CONTINUE_GLOBAL_DIR ? path.resolve(home, env.CONTINUE_GLOBAL_DIR.replace(/^~(?=$|\/)/, home)) : path.join(home, '.continue'),
  logs: {
    format: 'json-snapshot',
    setting: 'agentLens.sessionLogs.continueDirs',
    under: 'sessions',
    // sessions/<session id>.json; beside them the index `sessions.json` (a list of sessions, not one).
    isSession: (file, dir) => path.dirname(file) === dir && file.endsWith('.json') && path.basename(file) !== 'sessions.json',
  },
  doc: {
    identifiedBy:
      'command line (`cn`; package `@continuedev/cli`; headless `-p`, `--print`), process (it sets no title and uses no alternate screen, so a terminal not started from a shell with shell integration shows it only once the process scan finds it)',
    verified:
      'all seven, live in the harness against the loopback chat-completions mock (its own config.yaml provider): answer, question, Bash and Write approvals approved and denied, Esc, HTTP 500 (eleven attempts, then failed), HTTP 400, `/exit`, headless `-p`, a numbered plan that quotes a dialog; it sets no window title, its hooks are read but never fired (1.5.47), and its session file (one JSON object rewritten in place, read whole on each change)',
    notAnswered:
      'not yet: its approval box is a selector (`>` moved by ↑/↓, Enter picks) not yet verified as answered from VS Code, and with no hook firing there is no report to check the box against',
  },
};
