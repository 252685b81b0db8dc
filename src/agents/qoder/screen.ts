import { byNameOnly } from '../byNameOnly';

/** Not verified here: identified by command line, package and process only; generic cues for its screen. */
export const screen = byNameOnly('qoder', 'Qoder CLI', ['qodercli', 'qoder', 'qoderclicn', 'qodercn'], ['@qoder-ai/qodercli'], {
  flags: ['-p', '--print'],
});
