/**
 * Who said it, one list for every layer: the screen (`pty-scrape`); the command the terminal runs, as shell
 * integration reports it — its command line names the agent, its end and exit code say it exited or how a
 * headless run ended (`command`); the process table (`process`: an agent found below a terminal whose output is
 * not read, or gone from it); the agent's session log (`jsonl-watcher`); its hooks (`hook`); and the handoff
 * doorbell (`doorbell`).
 */
export const SOURCES = ['pty-scrape', 'command', 'process', 'jsonl-watcher', 'hook', 'doorbell'] as const;
export type Source = (typeof SOURCES)[number];

/** The sources the terminal detector itself speaks for. */
export type DetectorSource = Extract<Source, 'pty-scrape' | 'command' | 'process'>;

/**
 * The sources that watch the terminal itself rather than one agent session: only they see a new run start
 * in it, and they never name a session.
 */
export function isTerminalSource(s: Source): s is DetectorSource {
  return s === 'pty-scrape' || s === 'command' || s === 'process';
}

/** The sources that only know an agent runs there (what its command line or the process table says). */
export function speaksOfPresence(s: Source): boolean {
  return s === 'command' || s === 'process';
}
