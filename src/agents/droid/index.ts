import * as path from 'path';
import type { AgentDescriptor } from '../descriptor';
import { hookRows } from './install';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'droid',
  rank: 15,
  screen,
  // `$FACTORY_HOME_OVERRIDE` stands for the home folder: droid keeps everything in its `.factory` (FACTS.md §2).
  configDir: (env, home) => path.join(env.FACTORY_HOME_OVERRIDE || home, '.factory'),
  hooks: 'settings',
  hookRows,
  logs: {
    format: 'jsonl',
    setting: 'agentLens.sessionLogs.droidDirs',
    under: 'sessions',
    // sessions/<cwd with '/' as '-'>/<session id>.jsonl (beside it `<id>.settings.json`, not a log).
    depth: 1,
    isSession: (file, dir) => file.endsWith('.jsonl') && path.dirname(path.dirname(file)) === dir,
    // The first line, `session_start`, is rewritten in place when the session gets its title.
    rewritesHead: true,
  },
  doc: {
    identifiedBy: 'command line (`droid`; package `@factory/cli`, `droid`; headless `exec`), process, its window title `⛬ …`',
    verified:
      'all seven, live in the harness against the loopback chat-completions mock (its bring-your-own-key custom model, airgap mode): answer, question, Execute and Create approvals approved and denied, a tool that runs without asking (`--auto low`), Esc, HTTP 500 (ten retries, then failed), HTTP 400, `/exit`, headless `droid exec`, a numbered plan that quotes a dialog; its hooks (Claude Code’s shape, in `hooks.json`) and its session log',
    notAnswered:
      'its dialog marks the chosen option by brightness alone, with no number and no cursor mark, so nothing on screen says which key picks what; it has no permission hook to hold (its Notification, awaited before the dialog is drawn, would hide it)',
  },
};
