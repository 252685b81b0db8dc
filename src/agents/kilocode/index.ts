import type { AgentDescriptor } from '../descriptor';
import { openCodePaths } from '../opencode/paths';
import { screen } from './screen';

/** OpenCode's folders under Kilo's names (binary, FACTS.md §8 and §10): `KILO_CONFIG_DIR`, `~/.config/kilo`, `KILO_DB`, kilo.db. */
const { configDir, databasePath } = openCodePaths('kilo', 'KILO');

export const agent: AgentDescriptor = {
  id: 'kilocode',
  rank: 11,
  screen,
  configDir,
  // OpenCode's plugin, loaded unchanged from Kilo's plugin folder; it reports as Kilo there (FACTS.md §14).
  hooks: 'plugin',
  // Held and answered through Kilo's own reply API (test/live/answerOpencode.live.test.ts).
  pluginAnswers: true,
  logs: { format: 'sqlite', setting: 'agentLens.sessionLogs.kiloDatabases', defaultPath: databasePath },
  doc: {
    identifiedBy:
      'command line (`kilocode`, `kilo-code`, `kilo` without a file; package `@kilocode/cli`; headless `run`), process, its window title and placeholder',
    verified:
      'all seven, live in the harness against the loopback chat-completions mock (a custom OpenAI-compatible provider in its config): answer, question, bash permission allowed and rejected (with its second, reason dialog), Esc Esc, HTTP 500 (five retries, then failed), HTTP 400, `/exit`, headless `kilo run`, a numbered plan that quotes a dialog; its plugin events (OpenCode’s plugin, installed by Agent Lens, reporting as Kilo), its permission and question dialogs answered from VS Code through that plugin, and its session database (OpenCode’s schema)',
  },
};
