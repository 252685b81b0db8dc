import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'kimi',
  rank: 20,
  screen,
  doc: {
    identifiedBy: 'command line (`kimi`, `kimi-cli`; package `kimi-cli`), process',
    verified: 'unverified: the generic rules and the generic dialog shape',
  },
};
