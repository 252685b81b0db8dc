import * as l10n from '@vscode/l10n';
import * as path from 'path';
import * as vscode from 'vscode';
import { printable } from './common/printable';
import { UsageHost } from './vscode/usage';
import { mountUsage } from './usage/route';
import { detailRows } from './views/usageRows';
import { COMMAND_IDS } from './views/commandIds';
import { realScheduler } from './common/scheduler';
import { agentLensHome, markerDir } from './integrations/commands';
import { AgentCensus } from './sources/process/agentCensus';
import { TerminalMemory } from './sources/terminal/terminalMemory';
import { AgentStore } from './store/store';
import type { StateChange } from './store/types';
import { coalesce } from './views/coalesce';
import { badge, type ViewInput } from './views/model';
import type { TreeRow } from './views/treeRow';
import { type AgentLensApi, type AgentLensTestSurface, publicTerminal, publicWait } from './vscode/api';
import { terminalHandlers } from './vscode/commands';
import { registerHandlers } from './vscode/commandTable';
import { type AgentLensConfig, readConfig, switchedOff } from './vscode/config';
import { HandoffHost } from './vscode/handoff';
import { handoffHandlers } from './vscode/handoffCommands';
import { HookCommands } from './vscode/hookCommands';
import { type RunningHub, startHub, workspaceKey } from './vscode/hub';
import { startLogSources } from './vscode/logs';
import { StatusBar } from './vscode/statusBar';
import { TerminalAdapter } from './vscode/terminals';
import { AgentTreeProvider, rowClick } from './vscode/tree';
import { waitHandlers } from './vscode/waitCommands';
import { type DialogAnswers, type Raised, waitNotifications } from './vscode/waitNotices';
import { PushChannels } from './vscode/notifyChannels';
import { NotifyCommands } from './vscode/notifyCommands';
import { registerClicks } from './vscode/uriHandler';
import { escaped } from './common/log';
import { PendingAnswers } from './answer/pending';
import { Answering } from './vscode/answerCommands';

/** What activation builds, handed from one wiring step to the next. */
interface Parts {
  log: vscode.LogOutputChannel;
  config(): AgentLensConfig;
  store: AgentStore;
  terminals: TerminalAdapter;
  input(): ViewInput;
  tree: AgentTreeProvider;
  view: vscode.TreeView<TreeRow>;
  statusBar: StatusBar;
  render: ReturnType<typeof coalesce>;
  raised: Raised[];
  hooks: HookCommands;
  notify: NotifyCommands;
  handoff: HandoffHost;
  changes: vscode.EventEmitter<StateChange>;
  /** Dialogs held open by agents' hooks for an answer from here, and the commands that answer them. */
  pending: PendingAnswers;
  answering: Answering;
  logs: ReturnType<typeof startLogSources>;
  usage: UsageHost;
  details: AgentTreeProvider;
  detailsView: vscode.TreeView<TreeRow>;
}

export function activate(context: vscode.ExtensionContext): AgentLensApi {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  // The pure modules (src/views) translate through @vscode/l10n: hand it this window's bundle (none in English).
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  const log = vscode.window.createOutputChannel('Agent Lens', { log: true });
  const p = build(context, log);
  watch(context, p);
  let hub: RunningHub | undefined;
  startHub(context, p.store, p.terminals, log, {
    pending: p.pending,
    enabled: () => p.config().answerFromVSCode,
    turnEnded: p.logs.turnEnded,
  }).then(
    (h) => {
      hub = h;
      context.subscriptions.push(h);
      mountUsage(h.hub, () => p.usage.all());
      p.handoff.attach(h);
    },
    (e: Error) => log.error(`the hub did not start, so agents' hooks cannot report (the screen still works): ${printable(e.message)}`),
  );
  const activationMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  const activationCpuMs = (cpu.user + cpu.system) / 1000;
  log.info(`Agent Lens activated in ${activationMs.toFixed(1)} ms (${activationCpuMs.toFixed(1)} ms CPU)`);
  return api(context, p, () => hub, { activationMs, activationCpuMs });
}

/** The store, the adapters and the views, wired to each other. */
function build(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Parts {
  const settings = { current: readConfig() };
  const config = () => settings.current;
  const census = new AgentCensus();
  // The store's lines can name hook-supplied session ids and terminal names: escaped, so none can forge a line.
  const store = new AgentStore({ log: escaped(log), agentsInFolder: (agent, cwd) => census.count(agent, cwd) });
  store.setSwitchedOff(switchedOff(config()));
  const terminals = new TerminalAdapter(store, config, log);
  const activeId = () => (vscode.window.activeTerminal ? terminals.idOf(vscode.window.activeTerminal) : undefined);
  const late: { hooks?: HookCommands; handoff?: HandoffHost; answering?: Answering; usage?: UsageHost } = {};
  // Before the views: their first render reads what is offered for an answer.
  const pending = new PendingAnswers();
  const input = (): ViewInput => ({
    terminals: store.terminals(),
    usage: late.usage?.byTerminal(store.terminals()),
    thresholds: config().usage,
    waits: store.waits(),
    now: Date.now(),
    answers: late.answering?.offers(store.waits(), Date.now()),
    answered: pending.answered,
    activeTerminalId: activeId(),
    hooks: late.hooks?.statuses(),
    handoff: late.handoff?.view(),
  });
  const { tree, view, statusBar, render, details, detailsView } = views(input);
  const answering = (late.answering = new Answering(pending, store, terminals, log, () => config().answerFromVSCode));
  const { notifier, raised, notify, push } = notifications(context, store, config, activeId, log, answering);
  const usage = (late.usage = new UsageHost(
    store,
    config,
    log,
    () => render(),
    (e) => push.usage(e),
  ));
  const hooks = (late.hooks = new HookCommands(context, log, () => render()));
  const handoff = (late.handoff = new HandoffHost(context, store, terminals, log, () => render()));
  context.subscriptions.push(
    terminals.onDidOutput((e) => handoff.onOutput(e.terminalId, e.chunk)),
    terminals.onDidClose((id) => handoff.terminalClosed(id)),
  );
  const memory = terminalMemory(store, terminals, log);
  context.subscriptions.push(terminals.onDidFindAgent((e) => memory.agentFound(e.terminalId, e)));
  const changes = new vscode.EventEmitter<StateChange>();
  const logs = startLogSources(store, config, log, usage.book);
  // Saved before the store is emptied on the way out.
  context.subscriptions.push(log, memory, terminals, tree, view, statusBar, notifier, changes, logs, usage, details, detailsView);
  context.subscriptions.push({ dispose: () => store.dispose() }, { dispose: () => render.cancel() }, handoff);
  // Every held hook is answered "nothing" on the way out: its dialog stays in the terminal.
  context.subscriptions.push(
    pending,
    pending.onDidChange(() => render()),
  );
  // Settings changed, or trust granted: every part reads them again, and switched-off agents vanish (or return) at once.
  followSettings(context, handoff, () => {
    settings.current = readConfig();
    store.setSwitchedOff(switchedOff(config()));
    terminals.reconfigure();
    logs.reconfigure();
    usage.reconfigure();
    render();
  });
  return {
    log,
    config,
    store,
    terminals,
    input,
    tree,
    view,
    statusBar,
    render,
    raised,
    hooks,
    notify,
    handoff,
    changes,
    pending,
    answering,
    logs,
    usage,
    details,
    detailsView,
  };
}

/** Every channel that tells of a wait or a turn's end: the window, the desktop, and the phone and chat channels. */
function notifications(
  context: vscode.ExtensionContext,
  store: AgentStore,
  config: () => AgentLensConfig,
  activeId: () => string | undefined,
  log: vscode.LogOutputChannel,
  answers: DialogAnswers,
): { notifier: vscode.Disposable; raised: Raised[]; notify: NotifyCommands; push: PushChannels } {
  const isFocused = (id: string) => vscode.window.state.focused && activeId() === id;
  const { notifier, raised } = waitNotifications(store, config, isFocused, log, context.extension.id, answers);
  context.subscriptions.push(registerClicks(store, log));
  const push = new PushChannels(context.secrets, store, config, isFocused, log);
  context.subscriptions.push(push);
  return { notifier, raised, notify: new NotifyCommands(push, config, log), push };
}

/** The side bar's tree, its badge and the status bar, redrawn together. */
function views(input: () => ViewInput): Pick<Parts, 'tree' | 'view' | 'statusBar' | 'render' | 'details' | 'detailsView'> {
  const tree = new AgentTreeProvider(input);
  const view = vscode.window.createTreeView('agentLens.terminals', { treeDataProvider: tree, showCollapseAll: false });
  const details = new AgentTreeProvider(input, detailRows, COMMAND_IDS.openDetailsRow);
  const detailsView = vscode.window.createTreeView('agentLens.sessionDetails', { treeDataProvider: details, showCollapseAll: true });
  const statusBar = new StatusBar(input);
  // Every store and board event asks for a render; a flood of them rebuilds the views once per 100 ms at most.
  const render = coalesce(realScheduler, 100, () => {
    tree.refresh();
    details.refresh();
    statusBar.update();
    view.badge = badge(input());
  });
  return { tree, view, statusBar, render, details, detailsView };
}

/** What each terminal had, kept beside the hub's discovery file, where the hooks' wait markers are too. */
function terminalMemory(store: AgentStore, terminals: TerminalAdapter, log: vscode.LogOutputChannel): TerminalMemory {
  const hubs = path.join(agentLensHome(), 'hubs');
  const file = path.join(hubs, `${workspaceKey()}.terminals.json`);
  const memory = new TerminalMemory(file, store, terminals, () => markerDir(path.join(hubs, 'hub.json')), log);
  return memory;
}

function followSettings(context: vscode.ExtensionContext, handoff: HandoffHost, apply: () => void): void {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('agentLens')) return;
      if (e.affectsConfiguration('agentLens.handoff')) handoff.restart();
      apply();
    }),
    // Trust granted: the workspace's own values of trust-only settings count from now on (readConfig asks isTrusted,
    // which a configuration event fired for the same change may not see yet).
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      handoff.restart();
      apply();
    }),
  );
}

/** The store's changes reach the views, the API's event and the routing triggers; every command is registered. */
function watch(context: vscode.ExtensionContext, p: Parts): void {
  const openRow = rowClick(p.view, p.tree);
  const openDetailsRow = rowClick(p.detailsView, p.details);
  context.subscriptions.push(
    openRow,
    openDetailsRow,
    p.store.onDidChange((c) => {
      p.render();
      p.changes.fire(c);
      p.handoff.routes?.follow(c);
    }),
    p.store.onDidChangeWait(() => p.render()),
    vscode.window.onDidChangeActiveTerminal(() => p.statusBar.update()),
    ...registerHandlers(
      {
        ...terminalHandlers(p.input, p.terminals, p.log),
        ...waitHandlers(p.store, p.terminals, p.log),
        ...p.answering.handlers(),
        ...handoffHandlers(p.handoff, p.log),
        ...p.hooks.handlers(),
        ...p.notify.handlers(),
        openRow,
        openDetailsRow,
      },
      p.log,
    ),
  );
}

/** The stable API (version 1) and, beside it, the test surface. */
function api(
  context: vscode.ExtensionContext,
  p: Parts,
  hub: () => RunningHub | undefined,
  activation: { activationMs: number; activationCpuMs: number },
): AgentLensApi {
  const { store, terminals, handoff } = p;
  const testing: AgentLensTestSurface = {
    states: () => store.terminals(),
    waits: () => store.waits(),
    onDidChange: p.changes.event,
    terminalId: (t) => terminals.idOf(t),
    ...activation,
    stats: () => ({ ...terminals.stats }),
    screenText: (id) => terminals.session(id)?.screenText() ?? '',
    hub: () => {
      const h = hub();
      return h ? { port: h.hub.port, discoveryFile: h.discoveryFile, reporter: h.reporter, reports: { ...h.hooks.counts } } : undefined;
    },
    handoff: () => {
      const s = handoff.service;
      if (!s) return undefined;
      return {
        root: s.paths.root,
        teamFile: s.registry.file,
        cli: handoff.cliPath,
        boards: s.boards.all(),
        routes: handoff.routes?.routes() ?? [],
        fired: [...(handoff.routes?.fired ?? [])],
        notices: [...handoff.notices],
      };
    },
    ui: {
      tree: () => p.tree.snapshot(),
      details: () => p.details.snapshot(),
      statusBar: () => p.statusBar.snapshot(),
      notifications: () => p.raised.map((r) => ({ ...r })),
    },
  };
  const changedTerminal = new vscode.EventEmitter<string>();
  context.subscriptions.push(
    changedTerminal,
    store.onDidChange((c) => changedTerminal.fire(c.id)),
  );
  return {
    apiVersion: 1,
    terminals: () => {
      const usage = p.usage.byTerminal(store.terminals());
      return store.terminals().map((t) => publicTerminal(t, usage.get(t.id)));
    },
    waits: () => store.waits().map(publicWait),
    onDidChangeTerminal: changedTerminal.event,
    terminalId: (t) => terminals.idOf(t),
    testing,
  };
}

export function deactivate(): void {}
