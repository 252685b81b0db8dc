import type { Board, BoardState } from '../handoff/board';
import type { BoardEvent } from '../handoff/board';
import type { Route } from '../handoff/routes';
import type { IconSpec } from './labels';
import { duration } from './labels';
import type { TreeRow } from './model';

/** What the Handoff section reads: the registry's agents with their boards, the registry's state, the routes. */
export interface HandoffView {
  agents: { key: string; name: string; mode: string; drivable: boolean; note?: string; icon?: string; board: Board }[];
  /** The registry file and its last error (the last good registry stays in use). */
  teamFile: string;
  registryError?: string;
  ungrouped: readonly BoardEvent[];
  routes: readonly (Route & { pending: boolean })[];
}

export const HANDOFF_GROUP = 'Handoff';
export const ROUTES_GROUP = 'Routes';
export const HANDOFF_COMMANDS = { openReport: 'agentLens.openReport', openTeam: 'agentLens.openTeamFile', register: 'agentLens.registerAgent', removeRoute: 'agentLens.removeRoute', showStatus: 'agentLens.showHandoffStatus' } as const;

const LOOK: Record<BoardState, { text: string; icon: IconSpec }> = {
  idle: { text: 'idle', icon: { id: 'circle-large-outline' } },
  ready: { text: 'ready (handshake done)', icon: { id: 'pass', color: 'charts.blue' } },
  in_progress: { text: 'in progress', icon: { id: 'sync~spin', color: 'charts.blue' } },
  done: { text: 'done', icon: { id: 'pass-filled', color: 'charts.green' } },
  blocked: { text: 'blocked', icon: { id: 'warning', color: 'charts.orange' } },
  cancelled: { text: 'cancelled', icon: { id: 'circle-slash' } },
  error: { text: 'error', icon: { id: 'error', color: 'charts.red' } },
};

export function boardLabel(b: Board): string {
  return LOOK[b.state].text;
}

export function inFlight(v: HandoffView | undefined): Board[] {
  return (v?.agents ?? []).map((a) => a.board).filter((b) => b.state === 'in_progress');
}

/** The Handoff group: each registered agent's board, its last event and report; warnings; then the routes. */
export function handoffRows(v: HandoffView, now: number): TreeRow[] {
  const children: TreeRow[] = [];
  if (v.registryError) children.push({ key: 'handoff:registry-error', label: 'team.toml has an error', description: v.registryError, icon: { id: 'error', color: 'charts.red' }, tooltip: `${v.registryError}\n\nThe last good registry stays in use. Click to open ${v.teamFile}.`, contextValue: 'handoff.error', group: HANDOFF_GROUP, command: { id: HANDOFF_COMMANDS.openTeam, args: [] } });
  for (const a of v.agents) children.push(agentRow(a, now));
  if (v.ungrouped.length) {
    const last = v.ungrouped[v.ungrouped.length - 1];
    children.push({ key: 'handoff:ungrouped', label: `${v.ungrouped.length} event${v.ungrouped.length === 1 ? '' : 's'} without an agent`, description: `“${last.id}” ${last.status}: ${last.summary}`, icon: { id: 'warning', color: 'charts.yellow' }, tooltip: 'Doorbell events whose id lacks the "{agent}::" prefix update no board. The agent should send "{agent}::{task_id}", as its brief says.', contextValue: 'handoff.ungrouped', group: HANDOFF_GROUP });
  }
  if (!v.agents.length && !v.registryError) children.push({ key: 'handoff:empty', label: 'No agents registered', description: 'Register External Agent…', icon: { id: 'add' }, tooltip: `Agents you dispatch briefs to are listed in ${v.teamFile}.`, contextValue: 'handoff.empty', group: HANDOFF_GROUP, command: { id: HANDOFF_COMMANDS.register, args: [] } });
  const busy = inFlight(v).length;
  const rows: TreeRow[] = [{ key: 'group:handoff', label: HANDOFF_GROUP, description: busy ? `${busy} in flight` : `${v.agents.length} agent${v.agents.length === 1 ? '' : 's'}`, icon: { id: 'mail' }, contextValue: 'group.handoff', children, collapsed: !v.agents.length && !v.registryError }];
  if (v.routes.length) rows.push({ key: 'group:routes', label: ROUTES_GROUP, description: `${v.routes.length}`, icon: { id: 'arrow-swap' }, contextValue: 'group.routes', children: v.routes.map(routeRow) });
  return rows;
}

function agentRow(a: HandoffView['agents'][number], now: number): TreeRow {
  const b = a.board;
  const look = !a.drivable ? { text: `not drivable from VS Code (mode ${a.mode})`, icon: { id: 'circle-slash' } as IconSpec } : b.state === 'idle' && a.icon && /^[a-z0-9-]+$/.test(a.icon) ? { ...LOOK.idle, icon: { id: a.icon } } : LOOK[b.state];
  const task = b.task_id ? ` · ${b.task_id}` : '';
  const last = b.last_event ? ` · ${b.last_event.status}: ${oneLine(b.last_event.summary, 60)}` : '';
  const children: TreeRow[] = [];
  if (b.error_reason) children.push({ key: `handoff:${a.key}:error`, label: 'Error', description: b.error_reason, icon: { id: 'error', color: 'charts.red' }, tooltip: b.error_reason, contextValue: 'handoff.detail', group: HANDOFF_GROUP });
  if (b.last_event) children.push({ key: `handoff:${a.key}:event`, label: `Last event: ${b.last_event.status}`, description: `${duration(now - b.last_event.at)} ago · ${b.last_event.summary}`, icon: { id: 'bell' }, tooltip: `${b.last_event.id} (${b.last_event.via})\n\n${b.last_event.summary}`, contextValue: 'handoff.detail', group: HANDOFF_GROUP });
  if (b.report_path) children.push({ key: `handoff:${a.key}:report`, label: 'Open Report', description: b.report_path, icon: { id: 'file' }, contextValue: 'handoff.report', group: HANDOFF_GROUP, handoffAgent: a.key, command: { id: HANDOFF_COMMANDS.openReport, args: [{ agent: a.key }] } });
  const delivery = b.delivery === 'delivered' ? `delivered to ${b.delivered_to}` : b.delivery === 'pending' ? 'delivering…' : b.delivery === 'failed' ? 'delivery failed' : 'nothing dispatched';
  return {
    key: `handoff:${a.key}`,
    label: a.name,
    description: `${look.text}${task}${last}`,
    icon: look.icon,
    tooltip: `${a.name} (${a.key}, mode ${a.mode}): ${look.text}${task}\n\n${delivery}${b.brief_path ? `\n\nBrief: ${b.brief_path}` : ''}${a.note ? `\n\nNote: ${a.note}` : ''}`,
    contextValue: `handoff.agent.${b.state}${b.report_path ? '.report' : ''}`,
    group: HANDOFF_GROUP,
    handoffAgent: a.key,
    ...(children.length ? { children } : {}),
  };
}

function routeRow(r: Route & { pending: boolean }): TreeRow {
  return {
    key: `route:${r.id}`,
    label: `${r.from} → ${r.to}`,
    description: r.pending ? 'waiting for the target’s task to end' : 'when it stops or completes',
    icon: { id: 'arrow-right' },
    tooltip: `When “${r.from}” comes to rest (Stopped or Completed), ${r.to} gets this brief:\n\n${r.template}`,
    contextValue: 'route',
    group: ROUTES_GROUP,
    route: r.id,
  };
}

function oneLine(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
