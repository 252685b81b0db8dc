import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'droid',
  rank: 15,
  screen,
  doc: {
    identifiedBy: 'command line (`droid`; package `@factory/cli`, `droid`; headless `exec`), process',
    verified: 'unverified: the generic rules and the generic dialog shape',
  },
};
