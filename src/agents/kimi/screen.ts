import { byNameOnly } from '../byNameOnly';

/** Not verified here: identified by command line, package and process only; generic cues for its screen. */
export const screen = byNameOnly('kimi', 'Kimi CLI', ['kimi', 'kimi-cli'], ['kimi-cli']);
