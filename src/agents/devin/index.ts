import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'devin',
  rank: 17,
  screen,
  doc: {
    identifiedBy: 'command line (`devin`, `devin-cli`), process',
    verified: 'unverified: the generic rules and the generic dialog shape',
  },
};
