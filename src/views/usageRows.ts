import * as l10n from '@vscode/l10n';
import { isAgent } from '../common/agents';
import type { TerminalState } from '../store/types';
import type { UsageFigures } from '../usage/figures';
import { COMMAND_IDS } from './commandIds';
import { agentName, stateIcon } from './labels';
import { shownRow, type ViewInput } from './model';
import { displayNames } from './names';
import type { TreeRow } from './treeRow';
import { LIMITS, markdown } from './untrusted';
import {
  costLine,
  DEFAULT_THRESHOLDS,
  firstLine,
  percent,
  sparkline,
  tokenLine,
  tokens,
  turnLine,
  usageBadge,
  usageMarkdown,
  usageWarning,
  type UsageThresholds,
} from './usageText';

/**
 * The "Session Details" view: one row per agent terminal whose session log told its figures, the figures as its
 * children (model, context, tokens, cost, turns with a sparkline of tokens per turn, the last reply).
 */
export function detailRows(v: ViewInput): TreeRow[] {
  const t = v.thresholds ?? DEFAULT_THRESHOLDS;
  const names = displayNames(v.terminals);
  const rows: TreeRow[] = [];
  for (const s of v.terminals) {
    const f = v.usage?.get(s.id);
    if (!f || !isAgent(s)) continue;
    rows.push(sessionRow({ ...s, name: names.get(s.id) ?? s.name }, f, t));
  }
  if (!rows.length) rows.push(noneRow());
  return rows.map(shownRow);
}

function sessionRow(s: TerminalState, f: UsageFigures, t: UsageThresholds): TreeRow {
  const badge = usageBadge(f, t);
  const fill = f.contextFill !== undefined ? l10n.t('ctx {0}', percent(f.contextFill)) : '';
  const parts = [f.model ?? agentName(s.agent), badge.startsWith('⚠') ? badge : fill, costShort(f)].filter((x) => x);
  const command = { id: COMMAND_IDS.showTerminal, args: [s.id] };
  const child = (key: string, label: string, icon: string, tooltip?: string): TreeRow => ({
    key: `usage:${s.id}:${key}`,
    label,
    description: '',
    icon: { id: icon },
    ...(tooltip ? { tooltip } : {}),
    contextValue: 'usage.figure',
    terminalId: s.id,
    command,
  });
  const children: TreeRow[] = [];
  const warning = usageWarning(f, t);
  if (warning) children.push({ ...child('warning', warning.text, 'warning'), icon: { id: 'warning', color: 'charts.orange' } });
  if (f.contextUsed !== undefined)
    children.push(
      child(
        'context',
        f.contextWindow
          ? l10n.t('Context {0} of {1} ({2})', tokens(f.contextUsed), tokens(f.contextWindow), percent(f.contextFill ?? 0))
          : l10n.t('Context {0} (window unknown)', tokens(f.contextUsed)),
        'symbol-ruler',
      ),
    );
  children.push(child('tokens', tokenLine(f), 'symbol-numeric'));
  const cost = costLine(f);
  if (cost) children.push(child('cost', cost, 'credit-card'));
  if (f.lastReply) children.push(child('reply', firstLine(f.lastReply), 'comment', markdown(f.lastReply, LIMITS.tooltip)));
  // The sparkline of tokens per turn ends the turns' line: a row of its own would fall below a short view.
  if (f.turns) children.push(child('turns', turnLine(f), 'pulse', l10n.t('Tokens per turn, oldest first: {0}', sparkline(f.turnTokens))));
  return {
    key: `usage:${s.id}`,
    label: s.name,
    description: parts.join(' · '),
    icon: stateIcon(s),
    tooltip: usageMarkdown(f, t),
    contextValue: 'usage.session',
    terminalId: s.id,
    command,
    children,
  };
}

function costShort(f: UsageFigures): string {
  if (f.cost === undefined) return '';
  return f.costSource === 'estimated' ? `~$${f.cost.toFixed(2)}` : `$${f.cost.toFixed(2)}`;
}

function noneRow(): TreeRow {
  return {
    key: 'usage:none',
    label: l10n.t('No session figures yet'),
    description: l10n.t('they come from the agents’ session logs'),
    icon: { id: 'info' },
    tooltip: l10n.t(
      'Tokens, context fill and cost are read from each agent’s own session log as it writes it. An agent whose log does not carry them shows none (see the README).',
    ),
    contextValue: 'usage.none',
  };
}
