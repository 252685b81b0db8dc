import * as fs from 'fs';
import * as vscode from 'vscode';
import { isInFlight } from '../handoff/board';
import type { DispatchResult } from '../handoff/dispatch';
import { isSafeSegment } from '../handoff/paths';
import { isValidKey, MODES, type Mode, type TeamAgent } from '../handoff/team/schema';
import { writeAgentSection } from '../handoff/team/writeBack';
import type { TreeRow } from '../views/model';
import { boardLabel } from '../views/handoffRows';
import type { HandoffHost } from './handoff';

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

const DEFAULT_ROUTE_TEMPLATE = '“{from_name}” ({from_agent}) has finished. Its last reply:\n\n{last_reply}\n\nIts report: {report_path}\n\nReview its work and carry on from there.';

/** Dispatch, status, cancel, register, init, report, handshake and routes: the palette's side of seed 002. */
export function registerHandoffCommands(host: HandoffHost, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const service = () => {
    if (!host.service) throw new Error('the handoff service is not running yet (the hub is starting): try again in a moment');
    return host.service;
  };
  const reg = (id: string, fn: (...args: any[]) => unknown) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await fn(...args);
      } catch (e) {
        log.error(`${id}: ${(e as Error).message}`);
        void vscode.window.showErrorMessage(`Agent Lens: ${(e as Error).message}`);
        return undefined;
      }
    });

  const pickAgent = async (arg: AgentArg, placeHolder: string, filter: (key: string) => boolean = () => true): Promise<string | undefined> => {
    const given = typeof arg === 'string' ? arg : arg && 'handoffAgent' in arg ? arg.handoffAgent : arg && 'agent' in arg ? arg.agent : undefined;
    if (given) return given;
    const s = service();
    const items = s.agents().filter((a) => filter(a.key)).map((a) => ({ label: a.display_name ?? a.key, description: `${a.key} · ${boardLabel(s.boards.get(a.key))}${s.boards.get(a.key).task_id ? ` · ${s.boards.get(a.key).task_id}` : ''}`, key: a.key }));
    if (!items.length) {
      const r = await vscode.window.showInformationMessage(`No agent to choose: register one in ${s.registry.file}.`, 'Register External Agent…');
      if (r) void vscode.commands.executeCommand('agentLens.registerAgent');
      return undefined;
    }
    return (await vscode.window.showQuickPick(items, { placeHolder }))?.key;
  };

  const report = (r: DispatchResult, what: string) => {
    if (r.refused) void vscode.window.showWarningMessage(`Agent Lens: ${r.refused}`);
    else if (r.error) void vscode.window.showErrorMessage(`Agent Lens: ${what} ${r.submitted ? 'is on the board but was not delivered' : 'failed'}: ${r.error}`);
    else void vscode.window.showInformationMessage(`Agent Lens: ${what} delivered to “${r.board?.delivered_to}”.${r.note ? ` Note: ${r.note}` : ''}`);
    return r;
  };

  return [
    reg('agentLens.dispatchBrief', async (a?: DispatchArgs) => {
      const agent = await pickAgent(a?.agent, 'Dispatch a brief to which agent?');
      if (!agent) return undefined;
      const taskId = a?.taskId ?? (await vscode.window.showInputBox({ prompt: `Task id for ${agent}`, value: host.nextTaskId(agent), validateInput: (v) => (isSafeSegment(v) ? undefined : 'letters, digits, "-", "_" and inner dots; no slashes or ".."') }));
      if (!taskId) return undefined;
      const brief = a?.brief ?? (a?.briefFile ? fs.readFileSync(a.briefFile, 'utf8') : await askBrief());
      if (!brief?.trim()) return undefined;
      return report(await service().dispatch({ agent, taskId, brief, message: a?.message }), `Brief ${agent}::${taskId}`);
    }),
    reg('agentLens.firstHandshake', async (a?: AgentArg) => {
      const agent = await pickAgent(a, 'Handshake with which agent?');
      if (!agent) return undefined;
      const r = report(await service().dispatcher.handshake(agent), `The handshake with ${agent}`);
      if (!r.delivered) return r;
      const ready = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Waiting for ${agent} to ring the doorbell…`, cancellable: true }, (_p, token) => waitReady(host, agent, token));
      if (ready) void vscode.window.showInformationMessage(`Agent Lens: ${agent} is ready: ${service().boards.get(agent).last_event?.summary ?? ''}`);
      return r;
    }),
    reg('agentLens.showHandoffStatus', async () => {
      const s = service();
      const items = s.boards.all().map((b) => ({ label: `${b.agent}: ${boardLabel(b)}`, description: b.task_id ?? '', detail: b.error_reason ?? (b.last_event ? `${b.last_event.status}: ${b.last_event.summary}` : undefined), agent: b.agent }));
      if (!items.length) return void vscode.window.showInformationMessage('Agent Lens: no handoff boards yet. Dispatch a brief first.');
      const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Handoff boards: pick one to open its report or brief' });
      if (pick) await vscode.commands.executeCommand('agentLens.openReport', { agent: pick.agent });
      return undefined;
    }),
    reg('agentLens.cancelTask', async (a?: AgentArg & { reason?: string }) => {
      const s = service();
      const agent = await pickAgent(a, 'Cancel the task of which agent?', (k) => isInFlight(s.boards.get(k)));
      if (!agent) return undefined;
      const b = s.boards.get(agent);
      if (!b.task_id) throw new Error(`${agent} has no task to cancel`);
      const reason = (a && typeof a === 'object' && 'reason' in a ? a.reason : undefined) ?? (await vscode.window.showInputBox({ prompt: `Why cancel ${agent}::${b.task_id}?`, value: 'cancelled from VS Code' }));
      if (reason === undefined) return undefined;
      return s.cancel(agent, b.task_id, reason);
    }),
    reg('agentLens.registerAgent', async (a?: Partial<TeamAgent>) => registerAgent(host, a)),
    reg('agentLens.initHandoff', async (a?: AgentArg) => {
      const agent = await pickAgent(a, 'Initialize the handoff folder of which agent?');
      if (!agent) return undefined;
      const dir = service().initFolder(agent);
      host.refresh();
      void vscode.window.showInformationMessage(`Agent Lens: ${dir} is ready (read.md, memory.md, briefs/, reports/).`);
      return dir;
    }),
    reg('agentLens.openReport', async (a?: AgentArg) => {
      const s = service();
      const agent = await pickAgent(a, 'Open the report of which agent?', (k) => s.boards.get(k).report_path !== null || s.boards.get(k).brief_path !== null);
      if (!agent) return undefined;
      const b = s.boards.get(agent);
      // Checked again now: the agent could have swapped the report for a link out of reports/ since it rang.
      const file = b.report_path && fs.existsSync(b.report_path) ? s.paths.reportPathFor(agent, b.report_path) : b.brief_path;
      if (!file || !fs.existsSync(file)) throw new Error(`${agent}${b.task_id ? `::${b.task_id}` : ''} has no report yet${b.report_path ? ` (expected at ${b.report_path})` : ''}`);
      await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
      return file;
    }),
    reg('agentLens.openTeamFile', async () => {
      const file = service().registry.file;
      if (!fs.existsSync(file)) throw new Error(`${file} does not exist yet: run "Register External Agent…" to create it`);
      await vscode.window.showTextDocument(vscode.Uri.file(file));
    }),
    reg('agentLens.addRoute', async (a?: { from?: string; to?: string; template?: string }) => {
      const router = host.routes;
      if (!router) throw new Error('the handoff service is not running yet');
      const from = a?.from ?? (await vscode.window.showQuickPick(vscode.window.terminals.map((t) => t.name), { placeHolder: 'When the agent in which terminal stops or completes…' }));
      if (!from) return undefined;
      const to = await pickAgent(a?.to, `…send a brief to which agent?`);
      if (!to) return undefined;
      const template = a?.template ?? (await vscode.window.showInputBox({ prompt: 'The brief ({from_name}, {from_agent}, {last_reply}, {report_path} are filled in)', value: DEFAULT_ROUTE_TEMPLATE.replace(/\n/g, ' ') }));
      if (!template) return undefined;
      return router.add(from, to, template);
    }),
    reg('agentLens.removeRoute', async (a?: Pick<TreeRow, 'route'> | string) => {
      const router = host.routes;
      if (!router) return false;
      const id = typeof a === 'string' ? a : a?.route ?? (await vscode.window.showQuickPick(router.routes().map((r) => ({ label: `${r.from} → ${r.to}`, id: r.id })), { placeHolder: 'Remove which route?' }))?.id;
      return id ? router.remove(id) : false;
    }),
  ];
}

/** The brief: the selection, else the active editor, else a file. */
async function askBrief(): Promise<string | undefined> {
  const ed = vscode.window.activeTextEditor;
  const choices: { label: string; get: () => Promise<string | undefined> }[] = [];
  if (ed && !ed.selection.isEmpty) choices.push({ label: '$(selection) The selection', get: async () => ed.document.getText(ed.selection) });
  if (ed) choices.push({ label: `$(file) The active editor (${vscode.workspace.asRelativePath(ed.document.uri)})`, get: async () => ed.document.getText() });
  choices.push({ label: '$(folder-opened) A file…', get: async () => {
    const uri = (await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: 'Use as brief', filters: { Markdown: ['md', 'markdown', 'txt'] } }))?.[0];
    return uri ? Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8') : undefined;
  } });
  const pick = choices.length === 1 ? choices[0] : await vscode.window.showQuickPick(choices, { placeHolder: 'Where is the brief?' });
  return pick?.get();
}

async function waitReady(host: HandoffHost, agent: string, token: vscode.CancellationToken): Promise<boolean> {
  const end = Date.now() + 180_000;
  while (!token.isCancellationRequested && Date.now() < end) {
    const b = host.service?.boards.get(agent);
    if (b?.state === 'ready') return true;
    if (b?.state === 'error') return false;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/** "Register External Agent…": a guided form that writes only this agent's section of team.toml. */
async function registerAgent(host: HandoffHost, given?: Partial<TeamAgent>): Promise<TeamAgent | undefined> {
  const s = host.service;
  if (!s) throw new Error('the handoff service is not running yet');
  const key = given?.key ?? (await vscode.window.showInputBox({ prompt: 'Agent key (unique; it cannot be changed later)', placeHolder: 'claude', validateInput: (v) => (!isValidKey(v) ? 'letters, digits, "-" and "_" (up to 64), starting with a letter or digit' : s.registry.get(v) ? `${v} is already registered` : undefined) }));
  if (!key) return undefined;
  if (!isValidKey(key)) throw new Error(`agent key ${JSON.stringify(key)} is not allowed: use letters, digits, "-" and "_"`);
  if (!given?.key && s.registry.get(key)) throw new Error(`${key} is already registered`);
  const mode = given?.mode ?? ((await vscode.window.showQuickPick(MODES.map((m) => ({ label: m, description: m === 'embedded' || m === 'background' ? 'a terminal agent (drivable from VS Code)' : 'not drivable from VS Code' })), { placeHolder: 'How does it run?' }))?.label as Mode | undefined);
  if (!mode) return undefined;
  const ask = async (field: keyof TeamAgent, prompt: string, placeHolder?: string) => (given && field in given ? (given[field] as string | undefined) : (await vscode.window.showInputBox({ prompt, placeHolder }))?.trim() || undefined);
  const agent: TeamAgent = {
    key,
    mode,
    display_name: await ask('display_name', 'Display name (optional)', key),
    launch: await ask('launch', 'Command that starts it in a terminal (optional)', 'claude'),
    process: await ask('process', 'Its process name, to find its terminal (optional)', 'claude'),
    window_hint: await ask('window_hint', 'A stable part of its terminal name (optional)'),
    description: await ask('description', 'What it is for (goes into its read.md; optional)'),
    ...(given?.args ? { args: given.args } : {}),
    ...(given?.note ? { note: given.note } : {}),
    ...(given?.tmux ? { tmux: given.tmux } : {}),
    dispatch_steps: given?.dispatch_steps ?? [],
  };
  for (const k of Object.keys(agent) as (keyof TeamAgent)[]) if (agent[k] === undefined) delete agent[k];
  writeAgentSection(s.registry.file, agent);
  const err = s.registry.load();
  if (err) throw err;
  host.refresh();
  void vscode.window.showInformationMessage(`Agent Lens: ${key} is registered in ${s.registry.file}.`);
  return agent;
}
