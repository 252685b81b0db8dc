import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'letta',
  rank: 23,
  screen,
  doc: {
    identifiedBy: 'command line (`letta`; package `@letta-ai/letta-code`; headless `-p`), process',
    verified: 'unverified: the generic rules and the generic dialog shape',
  },
};
