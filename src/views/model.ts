import * as l10n from '@vscode/l10n';
import { answerableInline, byUrgency, needsYou } from '../store/policy';
import type { TerminalState } from '../store/types';
import type { Wait } from '../store/waits';
import { handoffRows, type HandoffView, inFlight, lastEventText } from './handoffRows';
import { displayNames } from './names';
import { hookRows } from './hookRows';
import type { HookStatus } from '../integrations/install/status';
import {
  agentName,
  describe,
  duration,
  SECONDS_SHOWN_MS,
  sourceName,
  stateCodicon,
  stateIcon,
  stateLabel,
  tooltipMarkdown,
  waitLabel,
} from './labels';
import { printable } from '../common/printable';
import { LIMITS, markdown, noIcons, type PickSpec, plain } from './untrusted';
import { isAgent } from '../common/agents';
import { COMMAND_IDS } from './commandIds';
import type { TreeRow } from './treeRow';
import type { UsageFigures } from '../usage/figures';
import { DEFAULT_THRESHOLDS, usageBadge, usageLine, usageMarkdown, usageTotals, type UsageThresholds } from './usageText';

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
  /** Who answered which dialog, where and with which option, oldest first (the state history). */
  answered?: readonly { at: number; terminalId: string; where: string; option: string }[];
  /** Waits that can be answered from here, by wait id (src/answer/pending.ts decides which). */
  answers?: ReadonlyMap<string, AnswerOffer>;
  /** What each terminal's agent session has spent, by terminal id (src/usage), and when that is shown or warned of. */
  usage?: ReadonlyMap<string, UsageFigures>;
  thresholds?: UsageThresholds;
}

/** A wait's dialog, offered for an answer from VS Code. */
export interface AnswerOffer {
  handle: string;
  /** Allow is offered only once the row has been there a moment (a click meant for another row lands nowhere). */
  allowReady: boolean;
  /** A dialog answered by choosing one of its options (else allow once or deny). */
  question: boolean;
  /** Answered with keys read off the screen (else through the agent's own hook or plugin). */
  byKeys: boolean;
}

/** The commands rows run when clicked (their ids; `src/vscode` registers them). */
/** VS Code's own "Terminal: Create New Terminal", which the empty state's row runs. */
const OPEN_TERMINAL = 'workbench.action.terminal.new';

/** The "Needs you" group's name (translated when called, so after the adapter has loaded the bundle). */
export function needsYouGroup(): string {
  return l10n.t('Needs you');
}

/** A "Needs you" group on top while anything waits (oldest wait first), then every other terminal, most urgent first. */
export function treeRows(v: ViewInput): TreeRow[] {
  const names = displayNames(v.terminals);
  const byId = new Map(v.terminals.map((t) => [t.id, { ...t, name: names.get(t.id) ?? t.name }]));
  const waits = v.waits.filter(needsYou).filter((w) => byId.has(w.terminalId!));
  const waitingTerminals = new Set(waits.map((w) => w.terminalId!));
  const rows: TreeRow[] = [];
  if (waits.length) {
    const children = waits.map((w) => waitRow(w, byId.get(w.terminalId!)!, v.now, v.answers?.get(w.id)));
    rows.push({
      key: 'group:needs-you',
      label: `${needsYouGroup()} (${waits.length})`,
      description: '',
      icon: { id: 'bell-dot', color: 'charts.orange' },
      contextValue: 'group',
      children,
    });
  }
  for (const t of [...byId.values()].filter((t) => !waitingTerminals.has(t.id)).sort(byUrgency))
    rows.push(terminalRow(t, v.now, v.usage?.get(t.id), v.thresholds ?? DEFAULT_THRESHOLDS));
  if (!v.terminals.length) rows.push(emptyRow());
  if (v.handoff) rows.push(...handoffRows(v.handoff, v.now));
  if (v.hooks?.length) rows.push(hookRows(v.hooks));
  return rows.map(shownRow);
}

/** Labels and descriptions hold terminal names, questions and summaries: plain text, bounded, at every depth. */
export function shownRow(r: TreeRow): TreeRow {
  const out = { ...r, label: plain(r.label, LIMITS.label), description: plain(r.description, LIMITS.description) };
  if (r.children) out.children = r.children.map(shownRow);
  return out;
}

/**
 * A wait under "Needs you": who waits and for how long on the row; what it asks on the line below (a row of
 * its own, so a narrow side bar does not cut it off), then a dialog's choices. The tooltip leads with the
 * question and its age; the evidence follows for bug reports.
 */
/** How a wait's dialog is answered, as its tooltip says: which buttons, and whether by hook or by keys. */
function offerHow(offer: AnswerOffer | undefined): string {
  if (!offer) return l10n.t('Answer in the terminal: Agent Lens never guesses a dialog’s keys.');
  if (offer.question && offer.byKeys)
    return l10n.t(
      'Choose an answer with the button on this row (Agent Lens reads the dialog off the screen, moves its cursor there and presses Enter), or answer in the terminal.',
    );
  if (offer.question)
    return l10n.t('Choose an answer with the button on this row (the agent gets it from its own hook), or answer in the terminal.');
  if (offer.byKeys)
    return l10n.t(
      'Allow once or deny with the buttons on this row (Agent Lens reads the dialog off the screen and types its option’s key), or answer in the terminal.',
    );
  return l10n.t(
    'Allow once or deny with the buttons on this row (the agent gets the answer from its own hook), or answer in the terminal.',
  );
}

function waitRow(w: Wait, t: TerminalState, now: number, offer: AnswerOffer | undefined): TreeRow {
  const inline = answerableInline(w);
  const how = inline ? l10n.t('Click to answer from here; the answer is typed into the terminal.') : offerHow(offer);
  const options = w.options?.length ? `\n\n${l10n.t('Options: {0}', w.options.map((o) => markdown(o, LIMITS.name)).join(' · '))}` : '';
  const asks = w.question
    ? l10n.t('**{0}** for {1}: {2}', markdown(waitLabel(w)), duration(now - w.openedAt), markdown(w.question))
    : l10n.t('**{0}** for {1}', markdown(waitLabel(w)), duration(now - w.openedAt));
  const command = inline ? { id: COMMAND_IDS.answerWait, args: [w.id] } : { id: COMMAND_IDS.showTerminal, args: [t.id] };
  const children = [...(w.question ? [questionRow(w, t, command)] : []), ...(w.options ?? []).map((o, i) => optionRow(w, t, o, i))];
  return {
    key: `wait:${w.id}`,
    label: t.name,
    description: `${agentName(w.agent)} · ${waitLabel(w)} · ${duration(now - w.openedAt)}`,
    icon: { id: 'bell-dot', color: 'charts.orange' },
    tooltip: `${asks}${options}\n\n${how}\n\n${tooltipMarkdown(t, now)}\n\n${l10n.t('Seen by: {0}', w.seenBy.join(', '))}`,
    contextValue: offer ? `wait.${offer.question ? 'question' : 'permission'}.answer${offer.allowReady ? '.allow' : ''}` : `wait.${w.kind}`,
    ...(offer ? { answerHandle: offer.handle } : {}),
    terminalId: t.id,
    waitId: w.id,
    group: needsYouGroup(),
    command,
    ...(children.length ? { children } : {}),
  };
}

/** What the wait asks, on its own line under the wait. */
function questionRow(w: Wait, t: TerminalState, command: TreeRow['command']): TreeRow {
  return {
    key: `question:${w.id}`,
    label: oneLine(w.question ?? '', LIMITS.label),
    description: '',
    icon: { id: 'comment' },
    tooltip: markdown(w.question ?? ''),
    contextValue: 'wait.question',
    terminalId: t.id,
    group: needsYouGroup(),
    command,
  };
}

/** A dialog's choice, listed so the user can decide before switching to the terminal. */
function optionRow(w: Wait, t: TerminalState, option: string, i: number): TreeRow {
  return {
    key: `option:${w.id}:${i}`,
    label: `${i + 1}. ${option}`,
    description: '',
    icon: { id: 'circle-small' },
    contextValue: 'wait.option',
    terminalId: t.id,
    group: needsYouGroup(),
    command: { id: COMMAND_IDS.showTerminal, args: [t.id] },
  };
}

/** Before the first terminal: how to start (a click opens a terminal). */
function emptyRow(): TreeRow {
  return {
    key: 'empty',
    label: l10n.t('No terminal yet'),
    description: l10n.t('open a terminal and run claude, codex, opencode, gemini or pi'),
    icon: { id: 'terminal' },
    tooltip: l10n.t('Agent Lens lists every terminal of this window and the agent running in it. Click to open a terminal.'),
    contextValue: 'empty',
    command: { id: OPEN_TERMINAL, args: [] },
  };
}

function terminalRow(t: TerminalState, now: number, usage: UsageFigures | undefined, thresholds: UsageThresholds): TreeRow {
  const badge = usageBadge(usage, thresholds);
  return {
    key: `terminal:${t.id}`,
    label: t.name,
    description: describe(t, now, badge),
    icon: stateIcon(t),
    tooltip: usage ? `${tooltipMarkdown(t, now)}\n\n${usageMarkdown(usage, thresholds)}` : tooltipMarkdown(t, now),
    contextValue: isAgent(t) ? `agent.${t.state}` : 'shell',
    terminalId: t.id,
    command: { id: COMMAND_IDS.showTerminal, args: [t.id] },
  };
}

function oneLine(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Whether a row shows an age that changes every second (a wait, or an agent's state younger than ten minutes). */
export function ticksEverySecond(v: ViewInput): boolean {
  return v.waits.some(needsYou) || v.terminals.some((t) => isAgent(t) && v.now - t.since < SECONDS_SHOWN_MS);
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
    const tasks = flying
      .map((b) =>
        plain(
          `${b.agent}::${b.task_id}${b.last_event ? ` (${lastEventText({ ...b.last_event, summary: plain(b.last_event.summary, 60) })})` : ''}`,
          LIMITS.part,
        ),
      )
      .join(', ');
    out.handoff = {
      text: `$(mail) ${flying.length}`,
      tooltip: plain(l10n.t('{0}: {1}. Click for the handoff status.', label, tasks), LIMITS.tooltip),
      ariaLabel: label,
      warning: false,
    };
  }
  if (agents.length) {
    const working = agents.filter((s) => s.state === 'working').length;
    const waiting = v.waits.filter(needsYou).length;
    const label =
      agents.length === 1
        ? l10n.t('Agent Lens: {0} working, {1} waiting, 1 agent terminal', working, waiting)
        : l10n.t('Agent Lens: {0} working, {1} waiting, {2} agent terminals', working, waiting, agents.length);
    out.summary = {
      text: `$(sync${working ? '~spin' : ''}) ${working}  $(bell${waiting ? '-dot' : ''}) ${waiting}`,
      tooltip: withLine(l10n.t('{0}. Click to pick a terminal, most urgent first.', label), usageTotals([...(v.usage?.values() ?? [])])),
      ariaLabel: label,
      warning: waiting > 0,
    };
  }
  const s = v.terminals.find((t) => t.id === v.activeTerminalId);
  if (s && isAgent(s)) out.active = activeItem(s, v.usage?.get(s.id));
  return out;
}

function withLine(text: string, line: string | undefined): string {
  return line ? `${text}\n${line}` : text;
}

/** The active terminal's item: its state's reason, its name and the evidence are anyone's, so plain (and no icons in the text). */
function activeItem(s: TerminalState, usage: UsageFigures | undefined): StatusItem {
  const state = plain(stateLabel(s), LIMITS.name);
  const label = plain(l10n.t('Active terminal {0}: {1} is {2}', plain(s.name, LIMITS.name), agentName(s.agent), state), LIMITS.tooltip);
  const tooltip = [label, l10n.t('Source: {0}', s.source), l10n.t('Evidence: {0}', s.evidence), ...(usage ? [usageLine(usage)] : [])]
    .map((line) => plain(line, LIMITS.tooltip))
    .join('\n');
  return {
    text: `$(${stateCodicon(s)}) ${agentName(s.agent)}: ${noIcons(state)}`,
    tooltip,
    ariaLabel: label,
    warning: s.waitId !== undefined && s.waitKind !== 'reply-question',
  };
}

export interface PickItem extends PickSpec {
  description: string;
  terminalId: string;
}

/**
 * Terminals for the quick pick, most urgent first: the state's icon is ours, the name is not. The second line
 * is what a waiting agent asks and for how long, else where its state comes from.
 */
export function pickItems(v: ViewInput, filter: (t: TerminalState) => boolean = () => true): PickItem[] {
  const asks = new Map(v.waits.filter(needsYou).map((w) => [w.terminalId!, w]));
  const detail = (s: TerminalState): string | undefined => {
    if (!isAgent(s)) return undefined;
    const w = asks.get(s.id);
    if (w)
      return w.question
        ? l10n.t('{0} for {1}: {2}', waitLabel(w), duration(v.now - w.openedAt), oneLine(w.question, LIMITS.description))
        : l10n.t('{0} for {1}', waitLabel(w), duration(v.now - w.openedAt));
    return l10n.t('from {0}', sourceName(s.source));
  };
  const names = displayNames(v.terminals);
  return [...v.terminals]
    .filter(filter)
    .sort(byUrgency)
    .map((s) => {
      const d = detail(s);
      return {
        icon: isAgent(s) ? stateCodicon(s) : 'terminal',
        label: names.get(s.id) ?? s.name,
        description: describe(s, v.now),
        ...(d ? { detail: d } : {}),
        terminalId: s.id,
      };
    });
}

/** "Show State History": per terminal, the shown state, each source's latest word, and the transitions; log lines, so escaped. */
export function historyLines(v: ViewInput): string[] {
  const out: string[] = [];
  const names = displayNames(v.terminals);
  for (const t of v.terminals) {
    const s = { ...t, name: names.get(t.id) ?? t.name };
    out.push(`[${s.name}] now ${describe(s, v.now)} (shown from ${s.source})`);
    const usage = v.usage?.get(t.id);
    if (usage) out.push(`[${s.name}]   usage: ${usageLine(usage)}`);
    for (const w of s.words)
      out.push(
        `[${s.name}]   latest ${w.source}: ${new Date(w.at).toISOString()} ${w.state}${w.reason ? ` · ${w.reason}` : ''} — ${w.evidence}`,
      );
    for (const h of s.history)
      out.push(
        `[${s.name}]   ${new Date(h.at).toISOString()} ${agentName(h.agent)} → ${h.state}${h.reason ? ` · ${h.reason}` : ''} (${h.source}) ${h.evidence}`,
      );
    for (const a of v.answered ?? [])
      if (a.terminalId === t.id) out.push(`[${s.name}]   ${new Date(a.at).toISOString()} a dialog answered in ${a.where}: ${a.option}`);
  }
  return out.map(printable);
}
