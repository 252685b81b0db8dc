/**
 * Who said it, one list for every layer: the screen (`pty-scrape`), the process table (`process`), the agent's
 * session log (`jsonl-watcher`), its hooks (`hook`), and the handoff doorbell (`doorbell`).
 */
export const SOURCES = ['pty-scrape', 'process', 'jsonl-watcher', 'hook', 'doorbell'] as const;
export type Source = (typeof SOURCES)[number];

/** The sources the terminal detector itself speaks for. */
export type DetectorSource = Extract<Source, 'pty-scrape' | 'process'>;
