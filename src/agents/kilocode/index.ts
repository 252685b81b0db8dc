import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'kilocode',
  rank: 11,
  screen,
  doc: {
    identifiedBy: 'command line (`kilocode`, `kilo-code`, `kilo` without a file; package `@kilocode/cli`; headless `run`), process',
    verified: 'unverified: the generic rules and the generic dialog shape',
  },
};
