import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'auggie',
  rank: 22,
  screen,
  doc: {
    identifiedBy: 'command line (`auggie`; package `@augmentcode/auggie`; headless `-p`, `--print`), process',
    verified: 'unverified: the generic rules and the generic dialog shape',
  },
};
