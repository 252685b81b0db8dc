import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'continue-cli',
  rank: 21,
  screen,
  doc: {
    identifiedBy: 'command line (`cn`; package `@continuedev/cli`; headless `-p`, `--print`), process',
    verified: 'unverified: the generic rules and the generic dialog shape',
  },
};
