import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'amp',
  rank: 4,
  screen,
  doc: {
    identifiedBy: 'command line (`amp`, `amp-local`; package `@sourcegraph/amp`, `@ampcode/cli`; headless `-x`, `--execute`), process',
    verified: 'unverified: no recording here',
  },
};
