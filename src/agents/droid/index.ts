import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'droid',
  rank: 15,
  screen,
  doc: {
    identifiedBy: 'command line (`droid`; package `@factory/cli`, `droid`; headless `exec`), process, its window title `⛬ …`',
    verified:
      'all seven, live in the harness against the loopback chat-completions mock (its bring-your-own-key custom model, airgap mode): answer, question, Execute and Create approvals approved and denied, a tool that runs without asking (`--auto low`), Esc, HTTP 500 (ten retries, then failed), HTTP 400, `/exit`, headless `droid exec`, a numbered plan that quotes a dialog; not yet its hooks (Claude Code’s shape) or its session log',
  },
};
