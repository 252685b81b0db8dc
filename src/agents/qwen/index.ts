import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'qwen',
  rank: 10,
  screen,
  doc: {
    identifiedBy: 'command line (`qwen`; package `@qwen-code/qwen-code`; headless `-p`, `--prompt`), process',
    verified: 'unverified: the generic rules and the generic dialog shape',
  },
};
