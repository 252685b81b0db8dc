import { byNameOnly } from '../byNameOnly';

/** Not verified here: identified by command line, package and process only; generic cues for its screen. */
export const screen = byNameOnly('droid', 'Factory Droid', ['droid'], ['@factory/cli', 'droid'], { subcommands: ['exec'] });
