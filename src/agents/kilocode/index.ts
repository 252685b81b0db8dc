import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'kilocode',
  rank: 11,
  screen,
  doc: {
    identifiedBy:
      'command line (`kilocode`, `kilo-code`, `kilo` without a file; package `@kilocode/cli`; headless `run`), process, its window title and placeholder',
    verified:
      'all seven, live in the harness against the loopback chat-completions mock (a custom OpenAI-compatible provider in its config): answer, question, bash permission allowed and rejected (with its second, reason dialog), Esc Esc, HTTP 500 (five retries, then failed), HTTP 400, `/exit`, headless `kilo run`, a numbered plan that quotes a dialog; not yet its plugin events or its session database (both OpenCode’s shape)',
  },
};
