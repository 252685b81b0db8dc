import * as l10n from '@vscode/l10n';
import type { UsageFigures } from '../usage/figures';
import { duration } from './labels';
import { LIMITS, markdown, plain } from './untrusted';

/**
 * How a session's usage reads where the eye already is: a short context figure on the tree row, the full figures in
 * its tooltip, the window's totals in the status bar's tooltip.
 */

/** When the row shows the context fill, and when that is a warning (the settings' percentages, as fractions). */
export interface UsageThresholds {
  showFrom: number;
  warnFrom: number;
  /** USD and tokens a session may spend before its row warns; 0: no budget. */
  costBudget: number;
  tokenBudget: number;
}

export const DEFAULT_THRESHOLDS: UsageThresholds = { showFrom: 0.7, warnFrom: 0.9, costBudget: 0, tokenBudget: 0 };

export interface UsageWarning {
  /** Which mark was passed: each is told once per session. */
  kind: 'context' | 'cost' | 'tokens';
  text: string;
}

/** What is wrong with a session's spending, if anything: a full context first, then a budget passed. */
export function usageWarning(f: UsageFigures, t: UsageThresholds): UsageWarning | undefined {
  if (f.contextFill !== undefined && f.contextFill >= t.warnFrom)
    return { kind: 'context', text: l10n.t('context {0} full: the agent will soon compact or forget', percent(f.contextFill)) };
  if (t.costBudget > 0 && f.cost !== undefined && f.cost >= t.costBudget)
    return { kind: 'cost', text: l10n.t('cost {0} passed the budget of {1}', money(f.cost), money(t.costBudget)) };
  const total = allTokens(f);
  if (t.tokenBudget > 0 && total >= t.tokenBudget)
    return { kind: 'tokens', text: l10n.t('{0} tokens passed the budget of {1}', tokens(total), tokens(t.tokenBudget)) };
  return undefined;
}

/** The row's short figure: the context fill once it matters (`ctx 72%`), with a warning sign past the warning mark. */
export function usageBadge(f: UsageFigures | undefined, t: UsageThresholds): string {
  if (!f) return '';
  const warn = usageWarning(f, t);
  const fill = f.contextFill !== undefined && f.contextFill >= t.showFrom ? l10n.t('ctx {0}', percent(f.contextFill)) : '';
  if (!warn) return fill;
  if (warn.kind === 'context') return `⚠ ${fill || l10n.t('ctx {0}', percent(f.contextFill ?? 0))}`;
  return `⚠ ${warn.kind === 'cost' ? money(f.cost ?? 0) : tokens(allTokens(f))}${fill ? ` · ${fill}` : ''}`;
}

/** The tooltip's usage section (Markdown; the model name and the reply are the agent's text, escaped). */
export function usageMarkdown(f: UsageFigures, t: UsageThresholds): string {
  const lines: string[] = [];
  const warning = usageWarning(f, t);
  if (warning) lines.push(`⚠ ${markdown(warning.text)}`, '');
  if (f.model) lines.push(l10n.t('Model: {0}', markdown(f.model, LIMITS.name)));
  if (f.contextUsed !== undefined)
    lines.push(
      f.contextWindow
        ? l10n.t('Context: {0} of {1} tokens ({2})', tokens(f.contextUsed), tokens(f.contextWindow), percent(f.contextFill ?? 0))
        : l10n.t('Context: {0} tokens (window unknown)', tokens(f.contextUsed)),
    );
  lines.push(tokenLine(f));
  const c = costLine(f);
  if (c) lines.push(c);
  if (f.turns) lines.push(turnLine(f));
  if (f.lastReply) lines.push(l10n.t('Last reply: {0}', markdown(firstLine(f.lastReply), LIMITS.part)));
  return lines.join('  \n');
}

export function tokenLine(f: UsageFigures): string {
  const line = l10n.t(
    'Tokens: {0} in · {1} out · {2} cache read · {3} cache write',
    tokens(f.tokens.input),
    tokens(f.tokens.output),
    tokens(f.tokens.cacheRead),
    tokens(f.tokens.cacheWrite),
  );
  return f.partial ? `${line} ${l10n.t('(since Agent Lens began reading its log)')}` : line;
}

export function costLine(f: UsageFigures): string | undefined {
  if (f.cost === undefined) return undefined;
  if (f.costSource === 'log') return l10n.t('Cost: {0} (from its log)', money(f.cost));
  return l10n.t('Cost: {0} (estimated from list prices of {1})', money(f.cost), f.pricesChecked ?? '?');
}

export function turnLine(f: UsageFigures): string {
  const last = f.turnMs[f.turnMs.length - 1];
  const mean = f.turnMs.length ? f.turnMs.reduce((a, b) => a + b, 0) / f.turnMs.length : 0;
  return l10n.t(
    'Turns: {0}, the last took {1}, {2} on average; tokens per turn {3}',
    f.turns,
    took(last ?? 0),
    took(mean),
    sparkline(f.turnTokens),
  );
}

/** A turn's wall time: tenths of a second under ten seconds (a quick reply is not "0s"), else as the views say it. */
function took(ms: number): string {
  return ms < 10_000 ? l10n.t('{0}s', (Math.max(0, ms) / 1000).toFixed(1)) : duration(ms);
}

/** One line of plain text with every figure: the state history, the active terminal's status-bar tooltip. */
export function usageLine(f: UsageFigures): string {
  const parts = [f.model ?? l10n.t('model unknown')];
  if (f.contextUsed !== undefined)
    parts.push(
      f.contextWindow
        ? l10n.t('context {0}/{1} ({2})', tokens(f.contextUsed), tokens(f.contextWindow), percent(f.contextFill ?? 0))
        : l10n.t('context {0}', tokens(f.contextUsed)),
    );
  parts.push(tokenLine(f));
  const c = costLine(f);
  if (c) parts.push(c);
  parts.push(l10n.t('{0} turns', f.turns));
  return plain(parts.join(' · '), LIMITS.tooltip);
}

/** The status bar's tooltip line: the window's sessions added up. */
export function usageTotals(all: readonly UsageFigures[]): string | undefined {
  if (!all.length) return undefined;
  let sum = 0;
  let cost = 0;
  let estimated = false;
  let priced = 0;
  for (const f of all) {
    sum += allTokens(f);
    if (f.cost === undefined) continue;
    priced++;
    cost += f.cost;
    estimated ||= f.costSource === 'estimated';
  }
  const spent = priced ? ` · ${money(cost)}${estimated ? ` ${l10n.t('(partly estimated)')}` : ''}` : '';
  return l10n.t('{0} sessions: {1} tokens{2}', all.length, tokens(sum), spent);
}

const BARS = '▁▂▃▄▅▆▇█';

/** Tokens per turn as a line of bars, each scaled to the largest; empty when there is no turn. */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  if (!values.length) return '';
  return values.map((v) => BARS[max > 0 ? Math.min(BARS.length - 1, Math.floor((Math.max(0, v) / max) * (BARS.length - 1))) : 0]).join('');
}

/** 950 → "950", 12_345 → "12.3k", 1_234_567 → "1.23M". */
export function tokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${Number((n / 1000).toFixed(n < 10_000 ? 2 : 1))}k`;
  return `${Number((n / 1_000_000).toFixed(2))}M`;
}

/** USD as people read small sums: "$0.42", "<$0.01", "$12.30". */
export function money(usd: number): string {
  if (usd > 0 && usd < 0.01) return '<$0.01';
  return `$${usd.toFixed(2)}`;
}

export function percent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

export function allTokens(f: Pick<UsageFigures, 'tokens'>): number {
  return f.tokens.input + f.tokens.output + f.tokens.cacheRead + f.tokens.cacheWrite;
}

/** The reply's first non-empty line, one line of plain text (the views cut it). */
export function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  return plain(line.trim(), LIMITS.part);
}
