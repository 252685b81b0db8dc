import * as vscode from 'vscode';
import { printable } from '../common/printable';
import type { AgentStore } from '../store/store';
import { COMMAND_IDS } from '../views/commandIds';

const SHOW_TERMINAL = '/show-terminal';

/**
 * The URI a desktop notification opens when clicked: the operating system hands it to VS Code, which comes
 * forward and passes it to this extension. It carries only the terminal's id, which Agent Lens made.
 */
export function clickUri(extensionId: string, terminalId: string): string {
  return `${vscode.env.uriScheme}://${extensionId}${SHOW_TERMINAL}?id=${encodeURIComponent(terminalId)}`;
}

/**
 * Shows the terminal a clicked notification names. Any program or web page may open such a URI, so it does
 * nothing but show a terminal that exists: no argument reaches a command but that id.
 */
export function handleClick(uri: vscode.Uri | string, store: Pick<AgentStore, 'terminal'>, log: vscode.LogOutputChannel): void {
  const u = typeof uri === 'string' ? vscode.Uri.parse(uri) : uri;
  const id = new URLSearchParams(u.query).get('id');
  if (u.path !== SHOW_TERMINAL || !id || !store.terminal(id)) {
    log.info(`a notification link named no open terminal: ${printable(u.toString(true))}`);
    return;
  }
  log.info(`a notification was clicked: showing terminal ${printable(id)}`);
  void vscode.commands.executeCommand(COMMAND_IDS.showTerminal, id);
}

export function registerClicks(store: Pick<AgentStore, 'terminal'>, log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.window.registerUriHandler({ handleUri: (uri) => handleClick(uri, store, log) });
}
