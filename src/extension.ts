import * as l10n from '@vscode/l10n';
import * as path from 'path';
import * as vscode from 'vscode';
import { agentLensHome, markerDir } from './integrations/commands';
import { AgentCensus } from './sources/process/agentCensus';
import { realScheduler } from './common/scheduler';
import { WaitNotifier } from './store/notifier';
import { AgentStore } from './store/store';
import type { StateChange } from './store/types';
import { printable } from './common/printable';
import { coalesce } from './views/coalesce';
import { waitLogLines, waitNotice } from './views/messages';
import { badge, type ViewInput } from './views/model';
import { displayName } from './views/names';
import { registerCommands } from './vscode/commands';
import { readConfig, switchedOff } from './vscode/config';
import { startLogSources } from './vscode/logs';
import { HandoffHost } from './vscode/handoff';
import { registerHandoffCommands } from './vscode/handoffCommands';
import { HookCommands } from './vscode/hookCommands';
import { type RunningHub, startHub, workspaceKey } from './vscode/hub';
import { registerWaitCommands } from './vscode/waitCommands';
import { StatusBar } from './vscode/statusBar';
import { TerminalMemory } from './sources/terminal/terminalMemory';
import { TerminalAdapter } from './vscode/terminals';
import { AgentTreeProvider, registerRowClick } from './vscode/tree';
import { type AgentLensApi, type AgentLensTestSurface, publicTerminal, publicWait } from './vscode/api';
import * as ui from './vscode/ui';
import { COMMAND_IDS } from './views/commandIds';

export function activate(context: vscode.ExtensionContext): AgentLensApi {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  // The pure modules (src/views) translate through @vscode/l10n: hand it this window's bundle (none in English).
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  const log = vscode.window.createOutputChannel('Agent Lens', { log: true });
  let config = readConfig();
  const census = new AgentCensus();
  // The store's lines can name hook-supplied session ids and terminal names: escaped, so none can forge a line.
  const store = new AgentStore({ log: (m) => log.info(printable(m)), agentsInFolder: (agent, cwd) => census.count(agent, cwd) });
  store.setSwitchedOff(switchedOff(config));
  const terminals = new TerminalAdapter(store, () => config, log);
  const activeId = () => (vscode.window.activeTerminal ? terminals.idOf(vscode.window.activeTerminal) : undefined);
  let hookCommands: HookCommands | undefined;
  let handoff: HandoffHost | undefined;
  const input = (): ViewInput => ({ terminals: store.terminals(), waits: store.waits(), now: Date.now(), activeTerminalId: activeId(), hooks: hookCommands?.statuses(), handoff: handoff?.view() });
  const tree = new AgentTreeProvider(input);
  const view = vscode.window.createTreeView('agentLens.terminals', { treeDataProvider: tree, showCollapseAll: false });
  const statusBar = new StatusBar(input);
  const raised: { terminalId: string; waitId: string; message: string; at: number }[] = [];
  const notifier = new WaitNotifier(store, realScheduler, {
    enabled: () => config.notificationsEnabled,
    delaySeconds: () => config.notificationDelaySeconds,
    isFocused: (id) => vscode.window.state.focused && activeId() === id,
    notify: (w) => {
      const t0 = store.terminal(w.terminalId!);
      const name = t0 ? displayName(t0, store.terminals()) : w.terminalId ?? '';
      const message = waitNotice(w, name);
      raised.push({ terminalId: w.terminalId!, waitId: w.id, message, at: Date.now() });
      if (raised.length > 20) raised.shift();
      // A permission dialog's question is the command being approved, which can hold a secret: trace level only.
      const lines = waitLogLines(w, name);
      log.info(lines.info);
      if (lines.trace) log.trace(lines.trace);
      const showTerminal = vscode.l10n.t('Show Terminal');
      void ui.warn(message, showTerminal).then((choice) => {
        if (choice === showTerminal) void vscode.commands.executeCommand(COMMAND_IDS.showTerminal, w.terminalId);
      });
    },
  });
  // Every store and board event asks for a render; a flood of them rebuilds the views once per 100 ms at most.
  const render = coalesce(realScheduler, 100, () => {
    tree.refresh();
    statusBar.update();
    view.badge = badge(input());
  });
  hookCommands = new HookCommands(context, log, () => render());
  handoff = new HandoffHost(context, store, terminals, log, () => render());
  terminals.onOutput = (id, chunk) => handoff!.onOutput(id, chunk);
  terminals.onClosed = (id) => handoff!.terminalClosed(id);
  // The hooks' wait markers sit beside every window's discovery file (<home>/hubs/waiting/<agent pid>).
  const hubs = path.join(agentLensHome(), 'hubs');
  const memory = new TerminalMemory(path.join(hubs, `${workspaceKey()}.terminals.json`), store, terminals, () => markerDir(path.join(hubs, 'hub.json')), (m) => log.info(m));
  terminals.onAgentFound = (id, found) => memory.agentFound(id, found);
  const changes = new vscode.EventEmitter<StateChange>();
  const logs = startLogSources(store, () => config, log);
  // Settings changed, or trust granted: every part reads them again, and switched-off agents vanish (or return) at once.
  const applyConfig = (): void => {
    config = readConfig();
    store.setSwitchedOff(switchedOff(config));
    terminals.reconfigure();
    logs.reconfigure();
    render();
  };
  context.subscriptions.push(
    log,
    // Saved before the store is emptied on the way out.
    memory,
    terminals,
    tree,
    view,
    statusBar,
    notifier,
    changes,
    logs,
    { dispose: () => store.dispose() },
    { dispose: () => render.cancel() },
    store.onDidChange((c) => {
      render();
      changes.fire(c);
      handoff!.routes?.onChange(c);
    }),
    store.onDidChangeWait(() => render()),
    vscode.window.onDidChangeActiveTerminal(() => statusBar.update()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('agentLens')) return;
      if (e.affectsConfiguration('agentLens.handoff')) handoff!.restart();
      applyConfig();
    }),
    // Trust granted: the workspace's own values of trust-only settings count from now on (readConfig asks isTrusted,
    // which a configuration event fired for the same change may not see yet).
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      handoff!.restart();
      applyConfig();
    }),
    ...registerCommands(input, terminals, log),
    registerRowClick(view),
    hookCommands,
    ...registerWaitCommands(store, terminals, log),
    handoff,
    ...registerHandoffCommands(handoff, log),
  );
  let hub: RunningHub | undefined;
  startHub(context, store, terminals, log).then(
    (h) => {
      hub = h;
      context.subscriptions.push(h);
      handoff!.attach(h);
    },
    (e: Error) => log.error(`the hub did not start, so agents' hooks cannot report (the screen still works): ${printable(e.message)}`),
  );
  const activationMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  const activationCpuMs = (cpu.user + cpu.system) / 1000;
  log.info(`Agent Lens activated in ${activationMs.toFixed(1)} ms (${activationCpuMs.toFixed(1)} ms CPU)`);
  const testing: AgentLensTestSurface = {
    states: () => store.terminals(),
    waits: () => store.waits(),
    onDidChange: changes.event,
    terminalId: (t) => terminals.idOf(t),
    activationMs,
    activationCpuMs,
    stats: () => ({ ...terminals.stats }),
    screenText: (id) => terminals.session(id)?.screenText() ?? '',
    hub: () => (hub ? { port: hub.hub.port, discoveryFile: hub.discoveryFile, reporter: hub.reporter, reports: { ...hub.hooks.counts } } : undefined),
    handoff: () => {
      const s = handoff?.service;
      if (!s) return undefined;
      return { root: s.paths.root, teamFile: s.registry.file, cli: handoff!.cliPath, boards: s.boards.all(), routes: handoff!.routes?.routes() ?? [], fired: [...(handoff!.routes?.fired ?? [])], notices: [...handoff!.notices] };
    },
    ui: { tree: () => tree.snapshot(), statusBar: () => statusBar.snapshot(), notifications: () => raised.map((r) => ({ ...r })) },
  };
  const changedTerminal = new vscode.EventEmitter<string>();
  context.subscriptions.push(changedTerminal, store.onDidChange((c) => changedTerminal.fire(c.id)));
  return {
    apiVersion: 1,
    terminals: () => store.terminals().map(publicTerminal),
    waits: () => store.waits().map(publicWait),
    onDidChangeTerminal: changedTerminal.event,
    terminalId: (t) => terminals.idOf(t),
    testing,
  };
}

export function deactivate(): void {}
