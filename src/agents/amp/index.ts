import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'amp',
  rank: 4,
  screen,
  doc: {
    identifiedBy: 'command line, process',
    verified: 'unverified: no recording here',
  },
};
