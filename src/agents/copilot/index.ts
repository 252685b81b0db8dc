import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'copilot',
  rank: 7,
  screen,
  doc: {
    identifiedBy: 'command line (`copilot`; package `@github/copilot`; headless `-p`, `--prompt`), process',
    verified: 'unverified: the generic rules and the generic dialog shape',
  },
};
