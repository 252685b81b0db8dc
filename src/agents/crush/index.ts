import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'crush',
  rank: 9,
  screen,
  doc: {
    identifiedBy: 'command line (`crush`; package `@charmland/crush`; headless `run`), process',
    verified:
      'unverified: its npm package (`@charmland/crush`) only downloads the Go binary from GitHub at install, which cannot be reached where Agent Lens is tested; the generic rules and the generic dialog shape',
  },
};
