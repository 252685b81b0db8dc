import * as vscode from 'vscode';
import type { Detection } from './detect/types';
import { WaitNotifier } from './state/notifyPolicy';
import { realScheduler } from './state/sessions';
import { StateStore, TerminalState, StateChange } from './state/store';
import { registerCommands } from './vscode/commands';
import { readConfig } from './vscode/config';
import { agentName, stateLabel } from './vscode/presentation';
import { StatusBar } from './vscode/statusBar';
import { TerminalAdapter } from './vscode/terminals';
import { AgentTreeProvider, TreeSnapshotItem } from './vscode/tree';

/** What other extensions (and our integration tests) get from `activate()`. */
export interface AgentLensApi {
  states(): TerminalState[];
  onDidChange: vscode.Event<StateChange>;
  /** The store id of a terminal, to match `states()` to `vscode.window.terminals`. */
  terminalId(t: vscode.Terminal): string | undefined;
  /** Wall-clock milliseconds `activate()` took, and the CPU time it used (wall time includes preemption on a busy machine). */
  activationMs: number;
  activationCpuMs: number;
  /** Work done by the detector so far (milliseconds, chunks, characters), for performance reports. */
  stats(): { ms: number; chunks: number; chars: number };
  ui: {
    tree(): TreeSnapshotItem[];
    statusBar(): { summary?: string; active?: string; summaryWarning: boolean };
    /** The last notifications raised (newest last), for tests and diagnostics. */
    notifications(): { terminalId: string; message: string; at: number }[];
  };
}

export type { Detection };

export function activate(context: vscode.ExtensionContext): AgentLensApi {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const log = vscode.window.createOutputChannel('Agent Lens', { log: true });
  let config = readConfig();
  const store = new StateStore();
  const terminals = new TerminalAdapter(store, () => config, log);
  const tree = new AgentTreeProvider(store);
  const view = vscode.window.createTreeView('agentLens.terminals', { treeDataProvider: tree, showCollapseAll: false });
  const activeId = () => (vscode.window.activeTerminal ? terminals.idOf(vscode.window.activeTerminal) : undefined);
  const statusBar = new StatusBar(store, activeId);
  const raised: { terminalId: string; message: string; at: number }[] = [];
  const notifier = new WaitNotifier(store, realScheduler, {
    enabled: () => config.notificationsEnabled,
    delaySeconds: () => config.notificationDelaySeconds,
    isFocused: (id) => vscode.window.state.focused && activeId() === id,
    notify: (s) => {
      const message = `${agentName(s.agent)} in “${s.name}” is ${stateLabel(s)}.`;
      raised.push({ terminalId: s.id, message, at: Date.now() });
      if (raised.length > 20) raised.shift();
      log.info(`notified: ${message}`);
      void vscode.window.showWarningMessage(message, 'Show Terminal').then((choice) => {
        if (choice) void vscode.commands.executeCommand('agentLens.showTerminal', s.id);
      });
    },
  });
  const badge = () => {
    const waiting = store.all().filter((s) => s.state === 'waiting' && s.agent !== 'shell').length;
    view.badge = waiting ? { value: waiting, tooltip: `${waiting} agent${waiting === 1 ? '' : 's'} need${waiting === 1 ? 's' : ''} you` } : undefined;
  };
  const changes = new vscode.EventEmitter<StateChange>();
  context.subscriptions.push(
    log,
    terminals,
    tree,
    view,
    statusBar,
    notifier,
    changes,
    { dispose: () => store.dispose() },
    store.onDidChange((c) => {
      badge();
      changes.fire(c);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('agentLens')) return;
      config = readConfig();
      terminals.reconfigure();
      statusBar.update();
    }),
    ...registerCommands(store, terminals, log),
  );
  const activationMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  const activationCpuMs = (cpu.user + cpu.system) / 1000;
  log.info(`Agent Lens activated in ${activationMs.toFixed(1)} ms (${activationCpuMs.toFixed(1)} ms CPU)`);
  return {
    states: () => store.all(),
    onDidChange: changes.event,
    terminalId: (t) => terminals.idOf(t),
    activationMs,
    activationCpuMs,
    stats: () => ({ ...terminals.stats }),
    ui: { tree: () => tree.snapshot(), statusBar: () => statusBar.snapshot(), notifications: () => raised.map((r) => ({ ...r })) },
  };
}

export function deactivate(): void {}
