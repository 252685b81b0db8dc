import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'cursor',
  rank: 8,
  screen,
  doc: {
    identifiedBy: 'command line (`cursor-agent`, `cursor agent`; headless `-p`, `--print`), process',
    verified: 'unverified: its approval menu and working cues as other projects published them, the generic rules',
  },
};
