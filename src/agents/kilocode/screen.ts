import { byNameOnly } from '../byNameOnly';
import type { AgentSignature } from '../screenRules';

/** Not verified here: identified by command line, package and process only; generic cues for its screen. */
export const screen: AgentSignature = {
  ...byNameOnly('kilocode', 'Kilo Code', ['kilocode', 'kilo-code'], ['@kilocode/cli'], { subcommands: ['run'] }),
  // Its npm package installs `kilo` too, the name of a small text editor (`kilo notes.txt`).
  sharedCommands: ['kilo'],
};
