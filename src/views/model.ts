import * as l10n from '@vscode/l10n';
import type { AgentKind } from '../detect/types';
import { answerableInline, byUrgency, isAgent, needsYou } from '../store/policy';
import type { TerminalState } from '../store/types';
import type { Wait } from '../store/waits';
import { handoffRows, type HandoffView, inFlight } from './handoffRows';
import { type HookStatus, hookRows } from './hookRows';
import { agentName, describe, duration, type IconSpec, stateCodicon, stateIcon, stateLabel, tooltipMarkdown, waitLabel } from './labels';

/**
 * The pure view model: what the tree, the badge, the status bar and the quick pick show, as plain data.
 * `src/vscode` renders it; mocha tests it; the e2e suite reads it through the extension's API.
 */

/** What the views read from the store. */
export interface ViewInput {
  terminals: readonly TerminalState[];
  waits: readonly Wait[];
  now: number;
  activeTerminalId?: string;
  /** Each agent's hook install state, when known (the "Agent hooks" group). */
  hooks?: readonly HookStatus[];
  /** The registry, the boards and the routes (the "Handoff" and "Routes" groups, the in-flight count). */
  handoff?: HandoffView;
}

/** The commands rows run when clicked (their ids; `src/vscode` registers them). */
export const COMMANDS = { showTerminal: 'agentLens.showTerminal', answer: 'agentLens.answerWait' } as const;

export interface TreeRow {
  /** Stable across refreshes: `group:needs-you`, `wait:<id>`, `terminal:<id>`. */
  key: string;
  label: string;
  description: string;
  icon: IconSpec;
  tooltip?: string;
  /** For menus: `group`, `wait.<kind>`, `shell`, `agent.<state>`. */
  contextValue: string;
  terminalId?: string;
  waitId?: string;
  /** The group a row sits in (label), for tests and screen readers. */
  group?: string;
  children?: TreeRow[];
  /** Shown collapsed (its children on demand). */
  collapsed?: boolean;
  /** What a click runs. */
  command?: { id: string; args: unknown[] };
  /** An "Agent hooks" row: which installer its menu runs. */
  hook?: { agent: AgentKind; scope: 'user' | 'system' };
  /** A Handoff row: the agent its menu acts on. */
  handoffAgent?: string;
  /** A Routes row: the route its menu removes. */
  route?: string;
}

/** The "Needs you" group's name (translated when called, so after the adapter has loaded the bundle). */
export function needsYouGroup(): string {
  return l10n.t('Needs you');
}

/** A "Needs you" group on top while anything waits (oldest wait first), then every other terminal, most urgent first. */
export function treeRows(v: ViewInput): TreeRow[] {
  const byId = new Map(v.terminals.map((t) => [t.id, t]));
  const waits = v.waits.filter(needsYou).filter((w) => byId.has(w.terminalId!));
  const waitingTerminals = new Set(waits.map((w) => w.terminalId!));
  const rows: TreeRow[] = [];
  if (waits.length) {
    const children = waits.map((w) => waitRow(w, byId.get(w.terminalId!)!, v.now));
    rows.push({ key: 'group:needs-you', label: `${needsYouGroup()} (${waits.length})`, description: '', icon: { id: 'bell-dot', color: 'charts.orange' }, contextValue: 'group', children });
  }
  for (const t of [...v.terminals].filter((t) => !waitingTerminals.has(t.id)).sort(byUrgency)) rows.push(terminalRow(t, v.now));
  if (v.handoff) rows.push(...handoffRows(v.handoff, v.now));
  if (v.hooks?.length) rows.push(hookRows(v.hooks));
  return rows;
}

function waitRow(w: Wait, t: TerminalState, now: number): TreeRow {
  const question = w.question ? ` · ${oneLine(w.question, 80)}` : '';
  const inline = answerableInline(w);
  const how = inline ? l10n.t('Click to answer from here; the answer is typed into the terminal.') : l10n.t('Answer in the terminal: Agent Lens never guesses a dialog’s keys.');
  const options = w.options?.length ? `\n\n${l10n.t('Options: {0}', w.options.join(' · '))}` : '';
  return {
    key: `wait:${w.id}`,
    label: t.name,
    description: `${agentName(w.agent)} · ${waitLabel(w)} · ${duration(now - w.openedAt)}${question}`,
    icon: { id: 'bell-dot', color: 'charts.orange' },
    tooltip: `${tooltipMarkdown(t, now)}${w.question ? `\n\n${l10n.t('Question: {0}', w.question)}` : ''}${options}\n\n${l10n.t('Seen by: {0}', w.seenBy.join(', '))}\n\n${how}`,
    contextValue: `wait.${w.kind}`,
    terminalId: t.id,
    waitId: w.id,
    group: needsYouGroup(),
    command: inline ? { id: COMMANDS.answer, args: [w.id] } : { id: COMMANDS.showTerminal, args: [t.id] },
    ...(w.options?.length ? { children: w.options.map((o, i) => optionRow(w, t, o, i)) } : {}),
  };
}

/** A dialog's choice, listed so the user can decide before switching to the terminal. */
function optionRow(w: Wait, t: TerminalState, option: string, i: number): TreeRow {
  return { key: `option:${w.id}:${i}`, label: `${i + 1}. ${option}`, description: '', icon: { id: 'circle-small' }, contextValue: 'wait.option', terminalId: t.id, group: needsYouGroup(), command: { id: COMMANDS.showTerminal, args: [t.id] } };
}

function terminalRow(t: TerminalState, now: number): TreeRow {
  return {
    key: `terminal:${t.id}`,
    label: t.name,
    description: describe(t, now),
    icon: stateIcon(t),
    tooltip: tooltipMarkdown(t, now),
    contextValue: isAgent(t) ? `agent.${t.state}` : 'shell',
    terminalId: t.id,
    command: { id: COMMANDS.showTerminal, args: [t.id] },
  };
}

function oneLine(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export interface Badge {
  value: number;
  tooltip: string;
}

export function badge(v: ViewInput): Badge | undefined {
  const n = v.waits.filter(needsYou).length;
  return n ? { value: n, tooltip: n === 1 ? l10n.t('1 agent needs you') : l10n.t('{0} agents need you', n) } : undefined;
}

export interface StatusItem {
  text: string;
  tooltip: string;
  ariaLabel: string;
  warning: boolean;
}

/** The summary (working and waiting counts), the active terminal's agent and state, and tasks in flight; undefined = hidden. */
export function statusBar(v: ViewInput): { summary?: StatusItem; active?: StatusItem; handoff?: StatusItem } {
  const agents = v.terminals.filter(isAgent);
  const out: { summary?: StatusItem; active?: StatusItem; handoff?: StatusItem } = {};
  const flying = inFlight(v.handoff);
  if (flying.length) {
    const label = flying.length === 1 ? l10n.t('Agent Lens: 1 task in flight') : l10n.t('Agent Lens: {0} tasks in flight', flying.length);
    const tasks = flying.map((b) => `${b.agent}::${b.task_id}${b.last_event ? ` (${b.last_event.status}: ${b.last_event.summary.slice(0, 60)})` : ''}`).join(', ');
    out.handoff = { text: `$(mail) ${flying.length}`, tooltip: l10n.t('{0}: {1}. Click for the handoff status.', label, tasks), ariaLabel: label, warning: false };
  }
  if (agents.length) {
    const working = agents.filter((s) => s.state === 'working').length;
    const waiting = v.waits.filter(needsYou).length;
    const label = agents.length === 1 ? l10n.t('Agent Lens: {0} working, {1} waiting, 1 agent terminal', working, waiting) : l10n.t('Agent Lens: {0} working, {1} waiting, {2} agent terminals', working, waiting, agents.length);
    out.summary = { text: `$(sync${working ? '~spin' : ''}) ${working}  $(bell${waiting ? '-dot' : ''}) ${waiting}`, tooltip: l10n.t('{0}. Click to pick a terminal, most urgent first.', label), ariaLabel: label, warning: waiting > 0 };
  }
  const s = v.terminals.find((t) => t.id === v.activeTerminalId);
  if (s && isAgent(s)) {
    const label = l10n.t('Active terminal {0}: {1} is {2}', s.name, agentName(s.agent), stateLabel(s));
    out.active = { text: `$(${stateCodicon(s)}) ${agentName(s.agent)}: ${stateLabel(s)}`, tooltip: `${label}\n${l10n.t('Source: {0}', s.source)}\n${l10n.t('Evidence: {0}', s.evidence)}`, ariaLabel: label, warning: s.waitId !== undefined && s.waitKind !== 'reply-question' };
  }
  return out;
}

export interface PickItem {
  label: string;
  description: string;
  detail?: string;
  terminalId: string;
}

/** Terminals for the quick pick, most urgent first. */
export function pickItems(v: ViewInput, filter: (t: TerminalState) => boolean = () => true): PickItem[] {
  return [...v.terminals]
    .filter(filter)
    .sort(byUrgency)
    .map((s) => ({ label: `$(${isAgent(s) ? stateCodicon(s) : 'terminal'}) ${s.name}`, description: describe(s, v.now), detail: isAgent(s) ? `${s.source}: ${s.evidence}` : undefined, terminalId: s.id }));
}

/** "Show State History": per terminal, the shown state, each source's latest word, and the transitions. */
export function historyLines(v: ViewInput): string[] {
  const out: string[] = [];
  for (const s of v.terminals) {
    out.push(`[${s.name}] now ${describe(s, v.now)} (shown from ${s.source})`);
    for (const w of s.words) out.push(`[${s.name}]   latest ${w.source}: ${new Date(w.at).toISOString()} ${w.state}${w.reason ? ` · ${w.reason}` : ''} — ${w.evidence}`);
    for (const h of s.history) out.push(`[${s.name}]   ${new Date(h.at).toISOString()} ${agentName(h.agent)} → ${h.state}${h.reason ? ` · ${h.reason}` : ''} (${h.source}) ${h.evidence}`);
  }
  return out;
}
