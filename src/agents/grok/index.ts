import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'grok',
  rank: 19,
  screen,
  doc: {
    identifiedBy: 'command line (`grok`, `grok-build`; package `@vibe-kit/grok-cli`), process',
    verified: 'unverified: the generic rules and the generic dialog shape',
  },
};
