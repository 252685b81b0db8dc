import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'crush',
  rank: 9,
  screen,
  doc: {
    identifiedBy: 'command line (`crush`; package `@charmland/crush`; headless `run`), process',
    verified: 'unverified: the generic rules and the generic dialog shape',
  },
};
