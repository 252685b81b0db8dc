import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'kiro',
  rank: 16,
  screen,
  doc: {
    identifiedBy: 'command line (`kiro-cli`; headless `--no-interactive`), process',
    verified: 'unverified: the generic rules and the generic dialog shape',
  },
};
