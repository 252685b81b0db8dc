import { sleep } from '../common/poll';
import { Emitter, type Event } from '../common/emitter';
import * as l10n from '@vscode/l10n';
import { Reply } from '../hub/hub';
import { HubError } from '../hub/security';
import type { Hub } from '../hub/hub';
import type { Board } from './board';
import { Boards } from './boards';
import { type DispatchDeps, Dispatcher, type DispatchRequest, type DispatchResult, type HubFacts, type TargetFinder } from './dispatch';
import { type HandoffRoutes, mountHandoff, ring } from './doorbell';
import { quoted } from '../common/printable';
import { HandoffPaths, splitEventId } from './paths';
import { TeamRegistry } from './team/registry';
import type { TeamAgent } from './team/schema';
import { type Logger } from '../common/log';

/**
 * Who chose a path: the user (user settings, serve's command line), the workspace's settings, or nobody (the
 * default inside the workspace). Only the user's may lead through a link; the others come with a repository.
 */
export type PathOrigin = 'user' | 'workspace' | 'default';

export interface HandoffOptions {
  root: string;
  teamFile: string;
  /** Unset: 'user'. Otherwise no link from `workspace` down to the root is followed, and nothing is written through one. */
  rootFrom?: PathOrigin;
  /** Unset: 'user'. Otherwise team.toml is read only from real folders of `workspace` (TeamRegistry checkFrom). */
  teamFrom?: PathOrigin;
  hub: Hub;
  /** The file `AGENT_LENS_HUB` names (port and token), quoted in contracts. */
  hubFile: string;
  hubEnv: string;
  /** The `agent-lens` command briefs tell agents to run. */
  cli: string;
  finder: TargetFinder;
  workspace?: string;
  /** Whether team.toml's `launch` may run (VS Code's workspace trust); unset means trusted (see DispatchDeps). */
  trusted?: () => boolean;
  log: Logger;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Everything of the handoff that is not a view: the registry, the boards, the dispatcher and the doorbell routes,
 * wired on a hub. The extension and `agent-lens serve` run the same one; nothing here imports VS Code.
 */
export class HandoffService {
  readonly paths: HandoffPaths;
  readonly registry: TeamRegistry;
  readonly boards: Boards;
  readonly dispatcher: Dispatcher;
  private watcher: { dispose(): void } | undefined;
  private readonly subs: { dispose(): void }[] = [];
  private readonly changes = new Emitter<void>();
  /** Fires when a board, the registry or the ungrouped list changed. */
  readonly onDidChange: Event<void> = this.changes.event;
  /** The doorbell's routes: mounted on the hub, and used for events read from terminals. */
  private readonly routes: HandoffRoutes;

  constructor(private readonly o: HandoffOptions) {
    const checkFrom = (from: PathOrigin | undefined) => (from === undefined || from === 'user' ? undefined : o.workspace);
    this.paths = new HandoffPaths(o.root, { checkFrom: checkFrom(o.rootFrom) });
    this.registry = new TeamRegistry(o.teamFile, {
      log: o.log,
      checkFrom: checkFrom(o.teamFrom),
    });
    // Only agents in team.toml get folders and files; any other key the doorbell hears stays in memory, capped.
    this.boards = new Boards(this.paths, { log: o.log, registered: (k) => this.registry.get(k) !== undefined });
    this.subs.push(
      this.registry.onDidChange(() => this.changes.fire()),
      this.boards.onDidChange(() => this.changes.fire()),
    );
    const deps: DispatchDeps = {
      agent: (k) => this.registry.get(k),
      boards: this.boards,
      paths: this.paths,
      facts: () => this.facts(),
      finder: o.finder,
      sleep: o.sleep ?? sleep,
      workspace: o.workspace,
      trusted: o.trusted,
      log: o.log,
    };
    this.dispatcher = new Dispatcher(deps);
    this.routes = {
      boards: this.boards,
      dispatch: (body) => this.dispatchRoute(body),
      checkReportPath: (agent, p) => this.paths.reportPathFor(agent, p),
      log: o.log,
    };
  }

  /** Loads the registry, resets every board (a restart: nothing in flight can report to this run), mounts the routes, watches team.toml. */
  start(): void {
    const err = this.registry.load();
    if (err) this.o.log.warn(`team.toml: ${err.message}`);
    const root = this.paths.rootCheck();
    if (root.refused)
      this.o.log.warn(`handoff root ${this.paths.root}: ${root.refused}. Boards are kept in memory; nothing is written under it.`);
    if (root.resolvesTo)
      this.o.log.info(
        `handoff root ${this.paths.root} leads through a symbolic link to ${root.resolvesTo}: handoff files are written there`,
      );
    this.boards.resetAll(this.registry.agents().map((a) => a.key));
    mountHandoff(this.o.hub, this.routes);
    this.watcher = this.registry.watch();
  }

  /** "Initialize Handoff Folder": read.md, memory.md, briefs/, reports/ and status.json for a registered agent. */
  initFolder(key: string): string {
    const agent = this.registry.get(key);
    if (!agent) throw new Error(l10n.t('"{0}" is not in {1}: register it first', key, this.registry.file));
    const facts = this.facts();
    if (!facts) throw new Error(l10n.t('the doorbell is not listening yet: try again in a moment'));
    this.dispatcher.initFolder(agent, facts);
    return this.paths.agentDir(key);
  }

  private facts(): HubFacts | undefined {
    return this.o.hub.port ? { port: this.o.hub.port, hubEnv: this.o.hubEnv, hubFile: this.o.hubFile, cli: this.o.cli } : undefined;
  }

  agents(): TeamAgent[] {
    return this.registry.agents();
  }

  dispatch(req: DispatchRequest): Promise<DispatchResult> {
    return this.dispatcher.dispatch(req);
  }

  /** Ends a task as cancelled (the dispatcher's closing verb, never in a brief): frees the in-flight gate. */
  cancel(agent: string, taskId: string, reason: string): Board | undefined {
    return this.ringLocal({ id: `${agent}::${taskId}`, status: 'cancelled', summary: reason || 'cancelled', report_path: null }, 'doorbell')
      .board;
  }

  /** A doorbell event from inside (a ```handoff block in a terminal): the same validation and folding as a POST. */
  ringLocal(body: unknown, via: 'doorbell' | 'terminal'): { ok: boolean; error?: string; board?: Board; warning?: string } {
    // A block printed in a terminal carries no token: anything shown there could print one, so it may only move
    // the board of an agent the user registered, never make a new agent folder.
    if (via === 'terminal') {
      const split = splitEventId(String((body as { id?: unknown } | null)?.id ?? ''));
      if (split && !this.registry.get(split.agent))
        return {
          ok: false,
          error: `${quoted(split.agent)} is not a registered agent: a handoff block printed in a terminal can only ring for agents in ${this.registry.file}`,
        };
    }
    try {
      const r = ring(this.routes, body, via).body as { warning?: string };
      const split = splitEventId(String((body as { id?: unknown }).id ?? ''));
      return { ok: true, warning: r.warning, board: split ? this.boards.get(split.agent) : undefined };
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
  }

  /** `POST /handoff/dispatch`: {agent, task_id, brief, message?} → the dispatch result (409 when the in-flight gate refuses). */
  private async dispatchRoute(body: unknown): Promise<Reply> {
    const b = (body ?? {}) as Record<string, unknown>;
    const missing = ['agent', 'task_id', 'brief'].filter((k) => typeof b[k] !== 'string' || !(b[k] as string).trim());
    if (missing.length)
      throw new HubError(
        422,
        `missing field${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: send {"agent","task_id","brief"} and optionally "message"`,
      );
    if (b.message !== undefined && typeof b.message !== 'string') throw new HubError(422, 'message must be a string');
    // The typed line is Agent Lens's own pointer to the brief: every process in every terminal holds the token,
    // so a caller-chosen line would let any of them type a command into another agent's terminal.
    const agent = this.registry.get(b.agent as string);
    if (b.message !== undefined && agent && agent.allow_custom_message !== true) {
      throw new HubError(
        422,
        l10n.t(
          '"message" is not accepted for {0}: Agent Lens types its own line (Read <brief> and execute it.) and the brief carries the task. Leave "message" out, or set allow_custom_message = true in [{0}] of {1} to let callers choose the typed line',
          agent.key,
          this.registry.file,
        ),
      );
    }
    const res = await this.dispatch({
      agent: b.agent as string,
      taskId: b.task_id as string,
      brief: b.brief as string,
      message: b.message as string | undefined,
    });
    return new Reply(res.refused ? 409 : res.error && !res.submitted ? 400 : 200, res);
  }

  dispose(): void {
    this.watcher?.dispose();
    for (const s of this.subs) s.dispose();
    this.changes.dispose();
  }
}
