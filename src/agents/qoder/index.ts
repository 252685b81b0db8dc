import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'qoder',
  rank: 18,
  screen,
  doc: {
    identifiedBy:
      'command line (`qodercli`, `qoder`, `qoderclicn`, `qodercn`; package `@qoder-ai/qodercli`; headless `-p`, `--print`), process',
    verified: 'unverified: the generic rules and the generic dialog shape',
  },
};
