import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'copilot',
  rank: 7,
  screen,
  doc: {
    identifiedBy: 'command line (`copilot`; package `@github/copilot`; headless `-p`, `--prompt`), process, its header and window title',
    verified:
      'all seven, live in the harness against the loopback chat-completions mock (its own BYOK provider settings, offline mode): answer, question, shell and file approvals approved and denied, its folder-trust dialog, Esc Esc, HTTP 500 (five retries, then failed), HTTP 400, `/exit`, headless `-p`, a numbered plan that quotes a dialog; not yet its hooks (their payloads name no event) or its session log',
  },
};
