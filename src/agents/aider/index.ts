import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'aider',
  rank: 12,
  screen,
  doc: {
    identifiedBy: 'command line (`aider`; package `aider-chat`; headless `-m`, `--message`, `--message-file`), process',
    verified: 'unverified: the generic rules and the generic dialog shape',
  },
};
