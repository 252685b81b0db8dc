import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'cline',
  rank: 14,
  screen,
  doc: {
    identifiedBy: 'command line (`cline`; package `cline`), process',
    verified: 'unverified: the generic rules and the generic dialog shape',
  },
};
