import * as path from 'path';
import type { AgentDescriptor } from '../descriptor';
import { hookRows } from './install';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'copilot',
  rank: 7,
  screen,
  // `$COPILOT_HOME` is the configuration folder itself (its `--config-dir`, then `COPILOT_HOME`, then `~/.copilot`).
  configDir: (env, home) =>
    env.COPILOT_HOME ? path.resolve(home, env.COPILOT_HOME.replace(/^~(?=$|\/)/, home)) : path.join(home, '.copilot'),
  // Its hooks are read from every JSON file in `hooks/`: Agent Lens's are a file of their own there.
  hooks: 'settings',
  hookRows,
  logs: {
    format: 'jsonl',
    setting: 'agentLens.sessionLogs.copilotDirs',
    under: 'session-state',
    // session-state/<session id>/events.jsonl (beside it workspace.yaml, checkpoints/, files/: not logs).
    depth: 1,
    isSession: (file, dir) => path.basename(file) === 'events.jsonl' && path.dirname(path.dirname(file)) === dir,
  },
  doc: {
    identifiedBy: 'command line (`copilot`; package `@github/copilot`; headless `-p`, `--prompt`), process, its header and window title',
    verified:
      'all seven, live in the harness against the loopback chat-completions mock (its own BYOK provider settings, offline mode): answer, question, shell and file approvals approved and denied, its folder-trust dialog, Esc Esc, HTTP 500 (five retries, then failed), HTTP 400, `/exit`, headless `-p`, a numbered plan that quotes a dialog; its hooks and its session log',
    notAnswered:
      'not yet: its numbered dialog is read in the generic shape, and “Yes” picked with the arrow keys and Enter closes it, but Enter on “No, and tell Copilot what to do differently” left the dialog open (live, 1.0.102): only Esc denies; its PermissionRequest hook fires for tools that show no dialog too, so it is not used to hold one',
  },
};
