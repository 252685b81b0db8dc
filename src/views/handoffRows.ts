import * as l10n from '@vscode/l10n';
import type { Board, BoardState, EventStatus } from '../handoff/board';
import type { BoardEvent } from '../handoff/board';
import type { Route } from '../handoff/routes';
import type { IconSpec } from './labels';
import { duration } from './labels';
import type { TreeRow } from './treeRow';
import { markdown as md } from './untrusted';
import { COMMAND_IDS } from './commandIds';

/** What the Handoff section reads: the registry's agents with their boards, the registry's state, the routes. */
export interface HandoffView {
  agents: { key: string; name: string; mode: string; drivable: boolean; note?: string; icon?: string; board: Board }[];
  /** The registry file and its last error (the last good registry stays in use). */
  teamFile: string;
  registryError?: string;
  ungrouped: readonly BoardEvent[];
  routes: readonly (Route & { pending: boolean })[];
}

/** The groups' names (translated when called, so after the adapter has loaded the bundle). */
export const handoffGroup = (): string => l10n.t('Handoff');
export const routesGroup = (): string => l10n.t('Routes');

const LOOK: Record<BoardState, { text: () => string; icon: IconSpec }> = {
  idle: { text: () => l10n.t('idle'), icon: { id: 'circle-large-outline' } },
  ready: { text: () => l10n.t('ready (handshake done)'), icon: { id: 'pass', color: 'charts.blue' } },
  in_progress: { text: () => l10n.t('in progress'), icon: { id: 'sync~spin', color: 'charts.blue' } },
  done: { text: () => l10n.t('done'), icon: { id: 'pass-filled', color: 'charts.green' } },
  blocked: { text: () => l10n.t('blocked'), icon: { id: 'warning', color: 'charts.orange' } },
  cancelled: { text: () => l10n.t('cancelled'), icon: { id: 'circle-slash' } },
  error: { text: () => l10n.t('error'), icon: { id: 'error', color: 'charts.red' } },
};

export function boardLabel(b: Board): string {
  return LOOK[b.state].text();
}

/** What an agent rang, as a person reads it; the wire's words (`progress`, `done`…) stay in its files and the log. */
export function eventStatusText(s: EventStatus): string {
  switch (s) {
    case 'progress':
      return l10n.t('progress');
    case 'done':
      return LOOK.done.text();
    case 'blocked':
      return LOOK.blocked.text();
    case 'cancelled':
      return LOOK.cancelled.text();
  }
}

/** "done: what was done", the summary cut to `max` characters when given. */
export function lastEventText(e: Pick<BoardEvent, 'status' | 'summary'>, max?: number): string {
  return l10n.t('{0}: {1}', eventStatusText(e.status), max === undefined ? e.summary : oneLine(e.summary, max));
}

export function inFlight(v: HandoffView | undefined): Board[] {
  return (v?.agents ?? []).map((a) => a.board).filter((b) => b.state === 'in_progress');
}

/** The Handoff group: each registered agent's board, its last event and report; warnings; then the routes. */
export function handoffRows(v: HandoffView, now: number): TreeRow[] {
  const group = handoffGroup();
  const children: TreeRow[] = [];
  if (v.registryError) children.push(registryErrorRow(v.registryError, v.teamFile, group));
  for (const a of v.agents) children.push(agentRow(a, now));
  if (v.ungrouped.length) children.push(ungroupedRow(v.ungrouped, group));
  if (!v.agents.length && !v.registryError)
    children.push({
      key: 'handoff:empty',
      label: l10n.t('No agents registered'),
      description: l10n.t('Register External Agent…'),
      icon: { id: 'add' },
      tooltip: l10n.t('Agents you dispatch briefs to are listed in {0}.', md(v.teamFile)),
      contextValue: 'handoff.empty',
      group,
      command: { id: COMMAND_IDS.registerAgent, args: [] },
    });
  const busy = inFlight(v).length;
  const agents = v.agents.length === 1 ? l10n.t('1 agent') : l10n.t('{0} agents', v.agents.length);
  const rows: TreeRow[] = [
    {
      key: 'group:handoff',
      label: group,
      description: busy ? l10n.t('{0} in flight', busy) : agents,
      icon: { id: 'mail' },
      contextValue: 'group.handoff',
      children,
      collapsed: !v.agents.length && !v.registryError,
    },
  ];
  if (v.routes.length)
    rows.push({
      key: 'group:routes',
      label: routesGroup(),
      description: `${v.routes.length}`,
      icon: { id: 'arrow-swap' },
      contextValue: 'group.routes',
      children: v.routes.map(routeRow),
    });
  return rows;
}

function registryErrorRow(error: string, teamFile: string, group: string): TreeRow {
  return {
    key: 'handoff:registry-error',
    label: l10n.t('team.toml has an error'),
    description: error,
    icon: { id: 'error', color: 'charts.red' },
    tooltip: `${md(error, 2000)}\n\n${l10n.t('The last good registry stays in use. Click to open {0}.', md(teamFile))}`,
    contextValue: 'handoff.error',
    group,
    command: { id: COMMAND_IDS.openTeamFile, args: [] },
  };
}

function ungroupedRow(ungrouped: HandoffView['ungrouped'], group: string): TreeRow {
  const last = ungrouped[ungrouped.length - 1];
  const n = ungrouped.length;
  // The braces are literal text here (no arguments are passed, so nothing is substituted).
  const tooltip = l10n.t(
    'Doorbell events whose id lacks the "{agent}::" prefix update no board. The agent should send "{agent}::{task_id}", as its brief says.',
  );
  return {
    key: 'handoff:ungrouped',
    label: n === 1 ? l10n.t('1 event without an agent') : l10n.t('{0} events without an agent', n),
    description: `“${last.id}” ${lastEventText(last)}`,
    icon: { id: 'warning', color: 'charts.yellow' },
    tooltip,
    contextValue: 'handoff.ungrouped',
    group,
  };
}

function agentRow(a: HandoffView['agents'][number], now: number): TreeRow {
  const b = a.board;
  const shown = !a.drivable
    ? { text: () => l10n.t('not drivable from VS Code (mode {0})', a.mode), icon: { id: 'circle-slash' } as IconSpec }
    : b.state === 'idle' && a.icon && /^[a-z0-9-]+$/.test(a.icon)
      ? { ...LOOK.idle, icon: { id: a.icon } }
      : LOOK[b.state];
  const look = { text: shown.text(), icon: shown.icon };
  const group = handoffGroup();
  const task = b.task_id ? ` · ${b.task_id}` : '';
  const last = b.last_event ? ` · ${lastEventText(b.last_event, 60)}` : '';
  const children: TreeRow[] = [];
  if (b.error_reason)
    children.push({
      key: `handoff:${a.key}:error`,
      label: l10n.t('Error'),
      description: b.error_reason,
      icon: { id: 'error', color: 'charts.red' },
      tooltip: md(b.error_reason),
      contextValue: 'handoff.detail',
      group,
    });
  if (b.last_event)
    children.push({
      key: `handoff:${a.key}:event`,
      label: l10n.t('Last event: {0}', eventStatusText(b.last_event.status)),
      description: l10n.t('{0} ago · {1}', duration(now - b.last_event.at), b.last_event.summary),
      icon: { id: 'bell' },
      tooltip: `${md(b.last_event.id)} (${b.last_event.via === 'doorbell' ? l10n.t('the doorbell') : l10n.t('a handoff block printed in a terminal')})\n\n${md(b.last_event.summary)}`,
      contextValue: 'handoff.detail',
      group,
    });
  if (b.report_path)
    children.push({
      key: `handoff:${a.key}:report`,
      label: l10n.t('Open Report'),
      description: b.report_path,
      icon: { id: 'file' },
      contextValue: 'handoff.report',
      group,
      handoffAgent: a.key,
      command: { id: COMMAND_IDS.openReport, args: [{ agent: a.key }] },
    });
  return {
    key: `handoff:${a.key}`,
    label: a.name,
    description: `${look.text}${task}${last}`,
    icon: look.icon,
    tooltip: agentTooltip(a, `${look.text}${task}`),
    contextValue: `handoff.agent.${b.state}${b.report_path ? '.report' : ''}`,
    group,
    handoffAgent: a.key,
    ...(children.length ? { children } : {}),
  };
}

/** Name, key, mode, note and paths come from team.toml and the boards (anyone's): each part escaped for Markdown. */
function agentTooltip(a: HandoffView['agents'][number], state: string): string {
  const b = a.board;
  const delivery =
    b.delivery === 'delivered'
      ? l10n.t('delivered to {0}', md(b.delivered_to ?? ''))
      : b.delivery === 'pending'
        ? l10n.t('delivering…')
        : b.delivery === 'failed'
          ? l10n.t('delivery failed')
          : l10n.t('nothing dispatched');
  const brief = b.brief_path ? `\n\n${l10n.t('Brief: {0}', md(b.brief_path))}` : '';
  const note = a.note ? `\n\n${l10n.t('Note: {0}', md(a.note))}` : '';
  return `${l10n.t('{0} ({1}, mode {2}): {3}', md(a.name), md(a.key), md(a.mode), md(state))}\n\n${delivery}${brief}${note}`;
}

function routeRow(r: Route & { pending: boolean }): TreeRow {
  return {
    key: `route:${r.id}`,
    label: `${r.from} → ${r.to}`,
    description: r.pending ? l10n.t('waiting for the target’s task to end') : l10n.t('when it stops or completes'),
    icon: { id: 'arrow-right' },
    tooltip: `${l10n.t('When “{0}” comes to rest (Stopped or Completed), {1} gets this brief:', md(r.from), md(r.to))}\n\n${md(r.template, 2000)}`,
    contextValue: 'route',
    group: routesGroup(),
    route: r.id,
  };
}

function oneLine(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
