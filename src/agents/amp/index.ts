import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'amp',
  screen,
  doc: {
    identifiedBy: 'command line, process',
    verified: 'unverified: no recording here',
  },
};
