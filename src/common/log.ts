import { printable } from './printable';

/**
 * Where a module writes its log lines: the same five levels as VS Code's LogOutputChannel (which is one), stderr
 * in `agent-lens serve`, nothing in most tests. One interface for every layer; `tagged` names the component.
 */
export interface Logger {
  trace(msg: string): void;
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export type LogLevel = keyof Logger;

/** Writes nothing. */
export const SILENT: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** A logger whose lines start with `component: `. */
export function tagged(log: Logger, component: string): Logger {
  return mapLines(log, (m) => `${component}: ${m}`);
}

/**
 * A logger for lines that quote what agents, terminals and files wrote (session ids, folders, names): escaped, so
 * none can forge a line of its own.
 */
export function escaped(log: Logger): Logger {
  return mapLines(log, printable);
}

/** One logger from a function of level and line (stderr, a test's array). */
export function logTo(write: (level: LogLevel, msg: string) => void): Logger {
  return {
    trace: (m) => write('trace', m),
    debug: (m) => write('debug', m),
    info: (m) => write('info', m),
    warn: (m) => write('warn', m),
    error: (m) => write('error', m),
  };
}

function mapLines(log: Logger, f: (m: string) => string): Logger {
  return logTo((level, m) => log[level](f(m)));
}
