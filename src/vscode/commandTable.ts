import * as vscode from 'vscode';
import { COMMAND_IDS, type CommandName } from '../views/commandIds';

/** A command's handler: what a menu, the palette or a script passes arrives as its arguments. */
export type Handler = (...args: any[]) => unknown;
export type Handlers = Partial<Record<CommandName, Handler>>;

/**
 * Registers every command of the table (src/views/commandIds.ts, checked against package.json) in one place.
 * A command without a handler would do nothing when clicked: the log says which.
 */
export function registerHandlers(handlers: Handlers, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const missing = (Object.keys(COMMAND_IDS) as CommandName[]).filter((n) => !handlers[n]);
  if (missing.length) log.error(`commands without a handler (a bug, please report it): ${missing.join(', ')}`);
  return (Object.keys(handlers) as CommandName[]).map((n) => vscode.commands.registerCommand(COMMAND_IDS[n], handlers[n]!));
}
