import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { Board } from '../handoff/board';
import { HandoffBlockScanner } from '../handoff/fenced';
import { HUB_ENV } from '../handoff/hubClient';
import { nextTaskId } from '../handoff/paths';
import { type Route, Router } from '../handoff/routes';
import { HandoffService } from '../handoff/service';
import { agentLensHome } from '../integrations/commands';
import { installCli } from '../integrations/reporter/reporterFiles';
import type { AgentStore } from '../store/store';
import { type HandoffView } from '../views/handoffRows';
import { handoffView, newlySettled } from '../views/handoffView';
import { boardNotice } from '../views/messages';
import type { RunningHub } from './hub';
import { nodeForHooks } from './hub';
import { TerminalFinder } from './terminalFinder';
import type { TerminalAdapter } from './terminals';
import { printable } from '../common/printable';
import * as ui from './ui';
import { COMMAND_IDS } from '../views/commandIds';
import { type AgentLensConfig, type PathSetting, readConfig } from './config';
import { escaped } from '../common/log';

const ROUTES_KEY = 'agentLens.routes';

/**
 * Where the registry and the boards live: the settings, else `.agent-lens/` in the workspace (or the home folder
 * without one), and who chose each (the service lets only the user's own choice lead through a link).
 */
export function handoffLocations(config: AgentLensConfig): {
  root: string;
  teamFile: string;
  workspace?: string;
  rootFrom: 'user' | 'workspace' | 'default';
  teamFrom: 'user' | 'workspace' | 'default';
} {
  const ws = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
  const base = ws ?? os.homedir();
  const locate = (p: PathSetting, def: string) => {
    const s = p.value.replace(/^~(?=\/|$)/, os.homedir());
    if (!s) return { at: path.join(base, '.agent-lens', def), from: 'default' as const };
    // A relative path is resolved in whichever workspace is open: the user named it, the repository decides what is there.
    const fromUser = p.from === 'user' && path.isAbsolute(s);
    return { at: path.resolve(base, s), from: fromUser ? ('user' as const) : ('workspace' as const) };
  };
  const root = locate(config.handoffRoot, 'handoff');
  const team = locate(config.handoffTeamFile, 'team.toml');
  return { root: root.at, teamFile: team.at, workspace: ws, rootFrom: root.from, teamFrom: team.from };
}

export interface HandoffNotice {
  agent: string;
  taskId: string | null;
  state: string;
  message: string;
  at: number;
}

/**
 * The handoff side of the window: the service on this window's hub, the routing triggers, the ```handoff
 * blocks read from terminals, and the done/blocked notifications. Everything it decides lives in src/handoff.
 */
export class HandoffHost implements vscode.Disposable {
  service: HandoffService | undefined;
  private hub: RunningHub | undefined;
  private cli = '';
  private readonly scanners = new Map<string, HandoffBlockScanner>();
  private readonly lastState = new Map<string, string>();
  readonly notices: HandoffNotice[] = [];
  private routerImpl: Router | undefined;
  private savedRoutes: Route[];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly store: AgentStore,
    private readonly terminals: TerminalAdapter,
    private readonly log: vscode.LogOutputChannel,
    private readonly changed: () => void,
  ) {
    this.savedRoutes = context.workspaceState.get<Route[]>(ROUTES_KEY, []);
  }

  /** The hub is up: start the service on it (and again whenever the handoff settings change). */
  attach(hub: RunningHub): void {
    this.hub = hub;
    try {
      this.cli = installCli(agentLensHome(), this.context.asAbsolutePath(path.join('dist', 'cli.js')), nodeForHooks());
    } catch (e) {
      this.log.warn(`could not install the agent-lens command for briefs: ${printable((e as Error).message)}`);
      this.cli = this.context.asAbsolutePath(path.join('dist', 'cli.js'));
    }
    this.restart();
  }

  restart(): void {
    if (!this.hub) return;
    this.service?.dispose();
    this.routerImpl?.dispose();
    const loc = handoffLocations(readConfig());
    const service = new HandoffService({
      ...loc,
      hub: this.hub.hub,
      hubFile: this.hub.discoveryFile,
      hubEnv: HUB_ENV,
      cli: this.cli,
      finder: new TerminalFinder(this.terminals, this.store),
      // Asked at each dispatch, so granting trust takes effect without a restart.
      trusted: () => vscode.workspace.isTrusted,
      // Service and router lines quote ids, names and reasons from requests: escaped once more here, so none forges a line.
      log: escaped(this.log),
    });
    // Disposing the service drops this listener with it.
    service.onDidChange(() => this.boardsChanged());
    this.service = service;
    service.start();
    this.routerImpl = new Router({
      dispatch: (req) => service.dispatch(req),
      boards: service.boards,
      taskId: (agent) => this.nextTaskId(agent),
      reportPathOf: (name) => service.boards.all().find((b) => b.delivered_to === name && b.report_path)?.report_path ?? undefined,
      log: escaped(this.log),
      save: (routes) => {
        this.savedRoutes = routes;
        void this.context.workspaceState.update(ROUTES_KEY, routes);
        this.changed();
      },
    });
    this.routerImpl.load(this.savedRoutes);
    this.log.info(`handoff: registry ${printable(loc.teamFile)}, boards under ${printable(loc.root)}`);
    for (const b of service.boards.all()) this.lastState.set(b.agent, b.state);
    this.changed();
  }

  /** The `agent-lens` command briefs name. */
  get cliPath(): string {
    return this.cli;
  }

  get routes(): Router | undefined {
    return this.routerImpl;
  }

  /** The next free `MMDD-NN` for an agent, counting the briefs already in its folder. */
  nextTaskId(agent: string): string {
    let taken: string[] = [];
    try {
      taken = fs.readdirSync(this.service!.paths.briefsDir(agent)).map((f) => f.replace(/-brief\.md$/, ''));
    } catch {
      /* no briefs yet */
    }
    return nextTaskId(new Date(), taken);
  }

  /** Terminal output (agents' terminals that are read): a ```handoff block rings the doorbell for its agent. */
  onOutput(terminalId: string, chunk: string): void {
    if (!this.service || (!chunk.includes('`') && !this.scanners.has(terminalId))) return;
    let s = this.scanners.get(terminalId);
    if (!s) this.scanners.set(terminalId, (s = new HandoffBlockScanner()));
    for (const block of s.feed(chunk)) {
      const r = this.service.ringLocal(block, 'terminal');
      if (!r.ok)
        this.log.warn(
          `a handoff block in “${printable(this.store.terminal(terminalId)?.name ?? terminalId)}” was not accepted: ${printable(r.error ?? '')}`,
        );
    }
  }

  /** Something the views show changed outside the service's own events (a registry written from the UI). */
  refresh(): void {
    this.changed();
  }

  terminalClosed(terminalId: string): void {
    this.scanners.delete(terminalId);
  }

  view(): HandoffView | undefined {
    return this.service && handoffView(this.service, this.routerImpl);
  }

  private boardsChanged(): void {
    for (const b of newlySettled(this.lastState, this.service?.boards.all() ?? [])) this.notify(b);
    this.changed();
  }

  private notify(b: Board): void {
    const notice = boardNotice(b);
    this.notices.push({ agent: b.agent, taskId: b.task_id, state: b.state, message: notice.text, at: Date.now() });
    if (this.notices.length > 20) this.notices.shift();
    // The summary is the agent's; the doorbell already logged it (escaped) when it rang.
    this.log.info(`notified: ${printable(`${b.agent}::${String(b.task_id)}`)} is ${b.state}`);
    const openReport = vscode.l10n.t('Open Report');
    const actions = b.report_path ? [openReport] : [];
    void ui.show(notice, ...actions).then((choice) => {
      if (choice === openReport) void vscode.commands.executeCommand(COMMAND_IDS.openReport, { agent: b.agent });
    });
  }

  dispose(): void {
    this.routerImpl?.dispose();
    this.service?.dispose();
  }
}
