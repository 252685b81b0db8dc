import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext) {
  const log = vscode.window.createOutputChannel('Agent Lens', { log: true });
  context.subscriptions.push(log);
  log.info('Agent Lens activated');
  return {};
}

export function deactivate() {}
