import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'pi',
  rank: 13,
  screen,
  doc: {
    identifiedBy: 'command line (`pi`, headless `-p`), process, its window title `π - <folder>`, its header',
    verified:
      'all seven, live in the harness against the loopback chat-completions mock (pi takes any OpenAI-compatible endpoint): answer, question, a tool that runs without asking (pi has no approvals), the dialog of its own example extension `permission-gate` approved and denied, Esc, HTTP 500 (three retries, then failed), HTTP 400, Ctrl+D, headless `-p`',
  },
};
