import * as path from 'path';
import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'hermes',
  rank: 6,
  screen,
  configDir: (env, home) => env.HERMES_HOME || path.join(home, '.hermes'),
  hooks: 'plugin',
  doc: {
    identifiedBy: 'command line (`hermes`, `hermes-agent`; package `hermes-agent`), process',
    verified: 'unverified (its plugin is tested against a stand-in host)',
  },
};
