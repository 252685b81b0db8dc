import * as fs from 'fs';
import * as path from 'path';
import { HandoffService, type PathOrigin } from '../handoff/service';
import { HUB_ENV } from '../handoff/hubClient';
import { paneHolding, TmuxFinder } from '../handoff/tmux';
import { listenForHooks } from '../sources/hooks/hookHub';
import { mountHold } from '../answer/holdRoute';
import { PendingAnswers } from '../answer/pending';
import { AgentStore } from '../store/store';
import { type Logger, logTo } from '../common/log';
import { realScheduler } from '../common/scheduler';
import type { NotifySettings } from '../notify/config';
import { NotifyFanout } from '../notify/fanout';
import { notifyWaits, type PlaceOf } from '../notify/fromStore';
import { notifyTurns } from '../notify/turns';

/** `agent-lens serve` has no window to answer a dialog from. */
const NOT_HERE = { ok: false as const, why: 'agent-lens serve answers no dialog' };

export interface ServeOptions {
  /** The handoff root; with `workspace` it defaults to `<workspace>/.agent-lens/handoff`. */
  root?: string;
  team?: string;
  /**
   * A workspace folder, as VS Code has one: the root and registry default to its `.agent-lens/`, and a default
   * is the workspace's choice, not the user's, so no link in it from the folder down is followed.
   */
  workspace?: string;
  port?: number;
  infoFile: string;
  /** Where log lines go (stderr): never the token. */
  log(line: string): void;
  /** The push and command channels for the waits and long turns the hooks report (`--notify FILE`). */
  notify?: NotifySettings;
}

export interface Served {
  port: number;
  service: HandoffService;
  store: AgentStore;
  close(): Promise<void>;
}

/** Where serve keeps boards and reads the registry, and whose choice each is (see ServeOptions.workspace). */
function locations(o: ServeOptions): { root: string; teamFile: string; workspace: string; rootFrom: PathOrigin; teamFrom: PathOrigin } {
  const ws = o.workspace === undefined ? undefined : path.resolve(o.workspace);
  const root = path.resolve(o.root ?? path.join(ws ?? '.', '.agent-lens', 'handoff'));
  const teamDefault = ws ? path.join(ws, '.agent-lens', 'team.toml') : path.join(root, 'team.toml');
  return {
    root,
    teamFile: path.resolve(o.team ?? teamDefault),
    workspace: ws ?? root,
    rootFrom: o.root === undefined ? 'default' : 'user',
    teamFrom: o.team === undefined && ws ? 'default' : 'user',
  };
}

/**
 * `agent-lens serve`: the extension's hub without VS Code — the doorbell, the hook endpoint, boards under
 * `root`, the registry from `team` — for agents in tmux or over SSH, and for black-box tests.
 */
export async function serve(o: ServeOptions): Promise<Served> {
  const loc = locations(o);
  const root = loc.root;
  // A root named on the command line is the user's: made here, and it may be a link they chose. A default inside
  // the workspace is made only when something is written, folder by folder, refusing links (HandoffPaths.ensure).
  if (loc.rootFrom === 'user') {
    fs.mkdirSync(root, { recursive: true });
    if (!fs.statSync(root).isDirectory()) throw new Error(`--root ${root} is not a folder`);
  }
  const infoFile = path.resolve(o.infoFile);
  // stderr gets what a person running serve acts on: info and above; warnings and errors say so.
  const log = logTo((level, msg) => {
    if (level === 'info') o.log(msg);
    else if (level === 'warn' || level === 'error') o.log(`${level === 'warn' ? 'warning' : 'error'}: ${msg}`);
  });
  const store = new AgentStore({ log });
  const h = await listenForHooks(store, { discoveryFile: infoFile, port: o.port, log });
  // Held dialogs are recorded as any report; with no window to answer from, each is left to its terminal at once.
  const pending = new PendingAnswers();
  mountHold(h.hub, { hooks: h.hooks, waits: store, pending, enabled: () => false, provenance: () => NOT_HERE, log });
  const service = new HandoffService({
    ...loc,
    hub: h.hub,
    hubFile: infoFile,
    hubEnv: HUB_ENV,
    cli: path.resolve(process.argv[1] ?? 'agent-lens'),
    finder: new TmuxFinder(),
    log,
  });
  service.start();
  const notifications = o.notify && startNotifications(store, o.notify, log);
  // Only now: a client that reads the file finds the doorbell mounted and every board reset.
  h.publish();
  const port = h.port;
  log.info(
    `agent-lens serve: listening on 127.0.0.1:${port}; handoff root ${root}; registry ${service.registry.file}; clients: export ${HUB_ENV}=${infoFile}`,
  );
  return {
    port,
    service,
    store,
    close: async () => {
      await notifications?.close();
      service.dispose();
      await h.close();
      store.dispose();
    },
  };
}

/**
 * The tmux pane an agent runs in, from the agent process its hook reports named (the reporter's parent): serve
 * has no terminals, and "work:0.1" says where to go. Without a pid or a pane, the push names the folder.
 */
const paneOfAgent: PlaceOf = async ({ pid }) => (pid === undefined ? undefined : paneHolding(pid));

/**
 * The notification rule on the push and command channels, for every wait and long turn the hooks report: no
 * window, so nothing is ever focused and the person is always away; each is named by its tmux pane when one holds
 * the agent, and by its folder.
 */
function startNotifications(store: AgentStore, n: NotifySettings, log: Logger): { close(): Promise<void> } {
  const fanout = new NotifyFanout(n.channels, log);
  const waits = notifyWaits(store, fanout, realScheduler, { delaySeconds: () => n.delaySeconds, anywhere: true, placeOf: paneOfAgent });
  const turns = notifyTurns(store, fanout, realScheduler, { turnSeconds: () => n.turnSeconds, placeOf: paneOfAgent });
  log.info(`notifications: ${n.channels.length} channel(s), a dialog open ${n.delaySeconds} s, a turn of ${n.turnSeconds} s or more`);
  return {
    close: async () => {
      waits.dispose();
      turns.dispose();
      fanout.dispose();
      await fanout.settled();
    },
  };
}
