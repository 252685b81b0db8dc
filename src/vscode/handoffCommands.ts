import { pollUntil } from '../common/poll';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { isInFlight } from '../handoff/board';
import type { DispatchResult } from '../handoff/dispatch';
import { isSafeSegment } from '../handoff/paths';
import { isValidKey, type TeamAgent } from '../handoff/team/schema';
import { writeAgentSection } from '../handoff/team/writeBack';
import { printable } from '../common/printable';
import {
  briefWhat,
  cancelPrompt,
  dispatchNotice,
  failedNotice,
  handshakeProgress,
  handshakeWhat,
  initNotice,
  noAgentNotice,
  readyNotice,
  registeredNotice,
  taskIdPrompt,
} from '../views/messages';
import type { TreeRow } from '../views/treeRow';
import { agentPicks, boardPicks, briefSourcePicks, modePicks, namePicks, routePicks } from '../views/picks';
import type { HandoffHost } from './handoff';
import * as ui from './ui';
import { COMMAND_IDS, type CommandName } from '../views/commandIds';
import type { HandoffService } from '../handoff/service';
import type { Handler, Handlers } from './commandTable';

/** A command's agent: a tree row, `{agent}` from scripts and tests, or asked for. */
type AgentArg = Pick<TreeRow, 'handoffAgent'> | { agent?: string } | string | undefined;

export interface DispatchArgs {
  agent?: string;
  taskId?: string;
  /** The task text, or a file holding it; asked for (selection, editor or file) when neither is given. */
  brief?: string;
  briefFile?: string;
  message?: string;
}

/** The brief a new route sends; its braces are the route's own placeholders (t() substitutes nothing without arguments). */
const defaultRouteTemplate = () =>
  vscode.l10n.t(
    '“{from_name}” ({from_agent}) has finished. Its last reply:\n\n{last_reply}\n\nIts report: {report_path}\n\nReview its work and carry on from there.',
  );

/** What every handoff command works with. */
interface Ctx {
  host: HandoffHost;
  service(): HandoffService;
  /** The agent a command acts on: given (a row, `{agent}`, a key), else picked; none registered offers to register one. */
  pickAgent(arg: AgentArg, placeHolder: string, filter?: (key: string) => boolean): Promise<string | undefined>;
}

/** Dispatch, status, cancel, register, init, report, handshake and routes: the palette's side of the handoff. */
export function handoffHandlers(host: HandoffHost, log: vscode.LogOutputChannel): Handlers {
  const service = () => {
    if (!host.service)
      throw new Error(vscode.l10n.t('the handoff service is not running yet (the hub is starting): try again in a moment'));
    return host.service;
  };
  const c: Ctx = { host, service, pickAgent: (arg, placeHolder, filter) => pickAgent(service(), arg, placeHolder, filter) };
  /** A failure is logged and shown, never thrown into VS Code's command service. */
  const guard =
    (name: CommandName, fn: Handler): Handler =>
    async (...args: unknown[]) => {
      try {
        return await fn(...args);
      } catch (e) {
        log.error(`${COMMAND_IDS[name]}: ${printable((e as Error).message)}`);
        void ui.error(failedNotice((e as Error).message));
        return undefined;
      }
    };
  const table: Handlers = {
    dispatchBrief: (a?: DispatchArgs) => dispatchBrief(c, a),
    firstHandshake: (a?: AgentArg) => firstHandshake(c, a),
    showHandoffStatus: () => showStatus(c),
    cancelTask: (a?: AgentArg & { reason?: string }) => cancelTask(c, a),
    registerAgent: (a?: Partial<TeamAgent>) => registerAgent(host, a),
    initHandoff: (a?: AgentArg) => initHandoff(c, a),
    openReport: (a?: AgentArg) => openReport(c, a),
    openTeamFile: () => openTeamFile(c),
    addRoute: (a?: RouteArgs) => addRoute(c, a),
    removeRoute: (a?: Pick<TreeRow, 'route'> | string) => removeRoute(c, a),
  };
  return Object.fromEntries(Object.entries(table).map(([name, fn]) => [name, guard(name as CommandName, fn)]));
}

async function pickAgent(
  s: HandoffService,
  arg: AgentArg,
  placeHolder: string,
  filter: (key: string) => boolean = () => true,
): Promise<string | undefined> {
  const given =
    typeof arg === 'string' ? arg : arg && 'handoffAgent' in arg ? arg.handoffAgent : arg && 'agent' in arg ? arg.agent : undefined;
  if (given) return given;
  const items = agentPicks(
    s
      .agents()
      .filter((a) => filter(a.key))
      .map((a) => ({ key: a.key, name: a.display_name ?? a.key, board: s.boards.get(a.key) })),
  );
  if (!items.length) {
    const register = vscode.l10n.t('Register External Agent…');
    const r = await ui.info(noAgentNotice(s.registry.file), register);
    if (r === register) void vscode.commands.executeCommand(COMMAND_IDS.registerAgent);
    return undefined;
  }
  return (await ui.pick(items, { placeHolder }))?.key;
}

/** The error can quote the workspace's team.toml (its launch) and the summary is an agent's: both plain text. */
function report(r: DispatchResult, what: string): DispatchResult {
  void ui.show(dispatchNotice(r, what));
  return r;
}

async function dispatchBrief(c: Ctx, a?: DispatchArgs): Promise<DispatchResult | undefined> {
  const agent = await c.pickAgent(a?.agent, vscode.l10n.t('Dispatch a brief to which agent?'));
  if (!agent) return undefined;
  const taskId =
    a?.taskId ??
    (await ui.input({
      prompt: taskIdPrompt(agent),
      value: c.host.nextTaskId(agent),
      validateInput: (v) => (isSafeSegment(v) ? undefined : vscode.l10n.t('letters, digits, "-", "_" and inner dots; no slashes or ".."')),
    }));
  if (!taskId) return undefined;
  const brief = a?.brief ?? (a?.briefFile ? fs.readFileSync(a.briefFile, 'utf8') : await askBrief());
  if (!brief?.trim()) return undefined;
  return report(await c.service().dispatch({ agent, taskId, brief, message: a?.message }), briefWhat(agent, taskId));
}

async function firstHandshake(c: Ctx, a?: AgentArg): Promise<DispatchResult | undefined> {
  const agent = await c.pickAgent(a, vscode.l10n.t('Handshake with which agent?'));
  if (!agent) return undefined;
  const r = report(await c.service().dispatcher.handshake(agent), handshakeWhat(agent));
  if (!r.delivered) return r;
  const ready = await ui.progress(handshakeProgress(agent), (token) => waitReady(c.host, agent, token));
  if (ready) void ui.info(readyNotice(agent, c.service().boards.get(agent).last_event?.summary ?? ''));
  return r;
}

async function showStatus(c: Ctx): Promise<void> {
  const items = boardPicks(c.service().boards.all());
  if (!items.length) return void ui.info(vscode.l10n.t('Agent Lens: no handoff boards yet. Dispatch a brief first.'));
  const pick = await ui.pick(items, { placeHolder: vscode.l10n.t('Handoff boards: pick one to open its report or brief') });
  if (pick) await vscode.commands.executeCommand(COMMAND_IDS.openReport, { agent: pick.agent });
}

async function cancelTask(c: Ctx, a?: AgentArg & { reason?: string }): Promise<unknown> {
  const s = c.service();
  const agent = await c.pickAgent(a, vscode.l10n.t('Cancel the task of which agent?'), (k) => isInFlight(s.boards.get(k)));
  if (!agent) return undefined;
  const b = s.boards.get(agent);
  if (!b.task_id) throw new Error(vscode.l10n.t('{0} has no task to cancel', agent));
  const reason =
    (a && typeof a === 'object' && 'reason' in a ? a.reason : undefined) ??
    (await ui.input({ prompt: cancelPrompt(agent, b.task_id), value: vscode.l10n.t('cancelled from VS Code') }));
  if (reason === undefined) return undefined;
  return s.cancel(agent, b.task_id, reason);
}

async function initHandoff(c: Ctx, a?: AgentArg): Promise<string | undefined> {
  const agent = await c.pickAgent(a, vscode.l10n.t('Initialize the handoff folder of which agent?'));
  if (!agent) return undefined;
  const dir = c.service().initFolder(agent);
  c.host.refresh();
  void ui.info(initNotice(dir));
  return dir;
}

async function openReport(c: Ctx, a?: AgentArg): Promise<string | undefined> {
  const s = c.service();
  const agent = await c.pickAgent(
    a,
    vscode.l10n.t('Open the report of which agent?'),
    (k) => s.boards.get(k).report_path !== null || s.boards.get(k).brief_path !== null,
  );
  if (!agent) return undefined;
  const b = s.boards.get(agent);
  // Checked again now: the agent could have swapped the report for a link out of reports/ since it rang.
  const file = b.report_path && fs.existsSync(b.report_path) ? s.paths.reportPathFor(agent, b.report_path) : b.brief_path;
  if (!file || !fs.existsSync(file)) {
    const task = `${agent}${b.task_id ? `::${b.task_id}` : ''}`;
    throw new Error(
      b.report_path
        ? vscode.l10n.t('{0} has no report yet (expected at {1})', task, b.report_path)
        : vscode.l10n.t('{0} has no report yet', task),
    );
  }
  await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
  return file;
}

async function openTeamFile(c: Ctx): Promise<void> {
  const file = c.service().registry.file;
  if (!fs.existsSync(file)) throw new Error(vscode.l10n.t('{0} does not exist yet: run "Register External Agent…" to create it', file));
  await vscode.window.showTextDocument(vscode.Uri.file(file));
}

type RouteArgs = { from?: string; to?: string; template?: string };

async function addRoute(c: Ctx, a?: RouteArgs): Promise<unknown> {
  const router = c.host.routes;
  if (!router) throw new Error(vscode.l10n.t('the handoff service is not running yet'));
  const from =
    a?.from ??
    (
      await ui.pick(namePicks(vscode.window.terminals.map((t) => t.name)), {
        placeHolder: vscode.l10n.t('When the agent in which terminal stops or completes…'),
      })
    )?.name;
  if (!from) return undefined;
  const to = await c.pickAgent(a?.to, vscode.l10n.t('…send a brief to which agent?'));
  if (!to) return undefined;
  // The braces are the route's placeholders, kept as they are (no arguments, so t() substitutes nothing).
  const template =
    a?.template ??
    (await ui.input({
      prompt: vscode.l10n.t('The brief ({from_name}, {from_agent}, {last_reply}, {report_path} are filled in)'),
      value: defaultRouteTemplate().replace(/\n/g, ' '),
    }));
  if (!template) return undefined;
  return router.add(from, to, template);
}

async function removeRoute(c: Ctx, a?: Pick<TreeRow, 'route'> | string): Promise<boolean> {
  const router = c.host.routes;
  if (!router) return false;
  const id =
    typeof a === 'string'
      ? a
      : (a?.route ?? (await ui.pick(routePicks(router.routes()), { placeHolder: vscode.l10n.t('Remove which route?') }))?.id);
  return id ? router.remove(id) : false;
}

/** The brief: the selection, else the active editor, else a file. */
async function askBrief(): Promise<string | undefined> {
  const ed = vscode.window.activeTextEditor;
  const choices = briefSourcePicks(
    ed !== undefined && !ed.selection.isEmpty,
    ed ? vscode.workspace.asRelativePath(ed.document.uri) : undefined,
  );
  const pick = choices.length === 1 ? choices[0] : await ui.pick(choices, { placeHolder: vscode.l10n.t('Where is the brief?') });
  if (!pick) return undefined;
  if (ed && pick.source === 'selection') return ed.document.getText(ed.selection);
  if (ed && pick.source === 'editor') return ed.document.getText();
  const uri = (
    await vscode.window.showOpenDialog({
      canSelectMany: false,
      title: vscode.l10n.t('Pick the brief file: the task to dispatch'),
      openLabel: vscode.l10n.t('Use as brief'),
      filters: { [vscode.l10n.t('Markdown')]: ['md', 'markdown', 'txt'] },
    })
  )?.[0];
  return uri ? Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8') : undefined;
}

async function waitReady(host: HandoffHost, agent: string, token: vscode.CancellationToken): Promise<boolean> {
  const ready = await pollUntil(
    () => {
      const state = host.service?.boards.get(agent)?.state;
      return state === 'ready' ? true : state === 'error' ? false : undefined;
    },
    { everyMs: 250, forMs: 180_000, stop: () => token.isCancellationRequested },
  );
  return ready === true;
}

/** "Register External Agent…": a guided form that writes only this agent's section of team.toml. */
async function registerAgent(host: HandoffHost, given?: Partial<TeamAgent>): Promise<TeamAgent | undefined> {
  const s = host.service;
  if (!s) throw new Error(vscode.l10n.t('the handoff service is not running yet'));
  const key =
    given?.key ??
    (await ui.input({
      prompt: vscode.l10n.t('Agent key (unique; it cannot be changed later)'),
      placeHolder: 'claude',
      validateInput: (v) =>
        !isValidKey(v)
          ? vscode.l10n.t('letters, digits, "-" and "_" (up to 64), starting with a letter or digit')
          : s.registry.get(v)
            ? vscode.l10n.t('{0} is already registered', v)
            : undefined,
    }));
  if (!key) return undefined;
  if (!isValidKey(key))
    throw new Error(vscode.l10n.t('agent key {0} is not allowed: use letters, digits, "-" and "_"', JSON.stringify(key)));
  if (!given?.key && s.registry.get(key)) throw new Error(vscode.l10n.t('{0} is already registered', key));
  const mode = given?.mode ?? (await ui.pick(modePicks(), { placeHolder: vscode.l10n.t('How does it run?') }))?.mode;
  if (!mode) return undefined;
  const ask = async (field: keyof TeamAgent, prompt: string, placeHolder?: string) =>
    given && field in given ? (given[field] as string | undefined) : (await ui.input({ prompt, placeHolder }))?.trim() || undefined;
  const agent: TeamAgent = {
    key,
    mode,
    display_name: await ask('display_name', vscode.l10n.t('Display name (optional)'), key),
    launch: await ask('launch', vscode.l10n.t('Command that starts it in a terminal (optional)'), 'claude'),
    process: await ask('process', vscode.l10n.t('Its process name, to find its terminal (optional)'), 'claude'),
    window_hint: await ask('window_hint', vscode.l10n.t('A stable part of its terminal name (optional)')),
    description: await ask('description', vscode.l10n.t('What it is for (goes into its read.md; optional)')),
    ...(given?.args ? { args: given.args } : {}),
    ...(given?.note ? { note: given.note } : {}),
    ...(given?.tmux ? { tmux: given.tmux } : {}),
    ...(given?.allow_custom_message !== undefined ? { allow_custom_message: given.allow_custom_message } : {}),
    dispatch_steps: given?.dispatch_steps ?? [],
  };
  for (const k of Object.keys(agent) as (keyof TeamAgent)[]) if (agent[k] === undefined) delete agent[k];
  writeAgentSection(s.registry.file, agent);
  const err = s.registry.load();
  if (err) throw err;
  host.refresh();
  void ui.info(registeredNotice(key, s.registry.file));
  return agent;
}
