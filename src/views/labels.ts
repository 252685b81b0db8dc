import * as l10n from '@vscode/l10n';
import { agentOf } from '../agents/registry';
import { SHELL_FAILURES } from '../detect/commandLine';
import type { TerminalState } from '../store/types';
import type { Wait } from '../store/waits';
import { printable } from '../common/printable';
import { markdown } from './untrusted';
import { type AgentId, isAgent, isAgentKind, NO_AGENT } from '../common/agents';
import type { AgentState } from '../common/states';
import type { Source } from '../common/sources';

/** How each state looks (working green, waiting orange, stopped/failed red, completed green, exited grey). */
export const LOOK: Record<AgentState, { icon: string; color?: string; label: () => string }> = {
  working: { icon: 'sync~spin', color: 'charts.green', label: () => l10n.t('working') },
  waiting: { icon: 'bell-dot', color: 'charts.orange', label: () => l10n.t('waiting') },
  stopped: { icon: 'debug-stop', color: 'charts.red', label: () => l10n.t('stopped') },
  failed: { icon: 'error', color: 'charts.red', label: () => l10n.t('failed') },
  completed: { icon: 'pass-filled', color: 'charts.green', label: () => l10n.t('completed') },
  exited: { icon: 'circle-slash', color: 'disabledForeground', label: () => l10n.t('exited') },
  idle: { icon: 'circle-large-outline', label: () => l10n.t('idle') },
};

/** A theme icon as data: the adapter turns it into a vscode.ThemeIcon. */
export interface IconSpec {
  id: string;
  color?: string;
}

export function agentName(agent: AgentId): string {
  if (!isAgentKind(agent)) return l10n.t('shell');
  return agentOf(agent).screen.displayName;
}

/** "waiting for approval", "failed · interrupted", "completed". */
export function stateLabel(s: Pick<TerminalState, 'state' | 'waitKind' | 'reason'>): string {
  if (s.state === 'waiting' && s.waitKind === 'reply-question') return l10n.t('asked a question');
  if (s.state === 'waiting' && s.waitKind === 'question') return l10n.t('waiting for an answer');
  if (s.state === 'waiting' && s.waitKind === 'permission') return l10n.t('waiting for approval');
  if (s.reason && (s.state === 'failed' || s.state === 'working')) return `${LOOK[s.state].label()} · ${s.reason}`;
  return LOOK[s.state].label();
}

export function waitLabel(w: Pick<Wait, 'kind'>): string {
  return stateLabel({ state: 'waiting', waitKind: w.kind });
}

export function stateIcon(s: Pick<TerminalState, 'agent' | 'state'>): IconSpec {
  if (!isAgent(s)) return s.state === 'exited' ? { id: 'circle-slash', color: 'disabledForeground' } : { id: 'terminal' };
  const look = LOOK[s.state];
  return look.color ? { id: look.icon, color: look.color } : { id: look.icon };
}

/** Codicon id for status bar text (no colours there). */
export function stateCodicon(s: Pick<TerminalState, 'state'>): string {
  return LOOK[s.state].icon;
}

/** Below this age a duration is shown to the second: a wait's 15 s and a turn's first minutes are read closely. */
export const SECONDS_SHOWN_MS = 10 * 60_000;

/** "12s", "2m 30s" (to the second while it matters), "42m", "2h 5m". */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return l10n.t('{0}s', s);
  const m = Math.floor(s / 60);
  if (s * 1000 < SECONDS_SHOWN_MS) return l10n.t('{0}m {1}s', m, s % 60);
  if (m < 60) return l10n.t('{0}m', m);
  const h = Math.floor(m / 60);
  return l10n.t('{0}h {1}m', h, m % 60);
}

/**
 * "Claude Code · waiting for approval · 12s", "shell", or "shell · command not found: claude". `extra` goes before
 * the time, where a narrow side bar still shows it ("Claude Code · completed · ⚠ ctx 93% · 11s").
 */
export function describe(s: TerminalState, now: number, extra = ''): string {
  if (!isAgent(s)) {
    if (s.state === 'exited') return LOOK.exited.label();
    // A mistyped or missing agent command leaves a shell: say why no agent is listed.
    const failed = shellFailure(s.evidence);
    return failed ? `${agentName(NO_AGENT)} · ${failed}` : agentName(NO_AGENT);
  }
  return `${agentName(s.agent)} · ${stateLabel(s)}${extra ? ` · ${extra}` : ''} · ${duration(now - s.since)}`;
}

/**
 * The shell's own verdict on the command a terminal ran (SHELL_FAILURES: the evidence reads `command not found: claude`),
 * in the window's language with the command line as it was; undefined for any other evidence.
 */
function shellFailure(evidence: string): string | undefined {
  for (const [code, said] of Object.entries(SHELL_FAILURES)) {
    if (!evidence.startsWith(`${said}:`)) continue;
    const command = evidence.slice(said.length + 1).trim();
    return (code === '127' ? l10n.t('command not found: {0}', command) : l10n.t('command not executable: {0}', command)).trim();
  }
  return undefined;
}

/** Where a word came from, as a user reads it (the raw source names stay in the log and the history). */
export function sourceName(source: Source): string {
  switch (source) {
    case 'pty-scrape':
      return l10n.t('the screen');
    case 'jsonl-watcher':
      return l10n.t('the session log');
    case 'hook':
      return l10n.t('the agent’s hooks');
    case 'command':
      return l10n.t('the command line');
    case 'process':
      return l10n.t('the process list');
    case 'doorbell':
      return l10n.t('the doorbell');
  }
}

/** "12:04:31" in local time. */
export function clock(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/**
 * The tooltip as Markdown: the shown state with its source and evidence, then each source's latest word,
 * newest first, so a user can see who said what.
 */
export function tooltipMarkdown(s: TerminalState, now: number): string {
  const lines = [
    l10n.t('**{0}** — {1}, {2} for {3}', markdown(s.name), markdown(agentName(s.agent)), markdown(stateLabel(s)), duration(now - s.since)),
    '',
    l10n.t('Shown from {0}: {1}', sourceName(s.source), markdown(s.evidence)),
  ];
  if (isAgent(s) && s.words.length) {
    // For bug reports: every source's own word, with the raw source name the log uses.
    lines.push('', l10n.t('Latest word of each source:'), '');
    for (const w of s.words)
      lines.push(
        `- ${clock(w.at)} \`${code(w.source)}\`: ${markdown(stateLabel({ state: w.state, waitKind: w.wait?.kind, reason: w.reason }))} — ${markdown(w.evidence)}`,
      );
  }
  return lines.join('\n');
}

/** A source name inside a code span: no backtick (which would end the span), nothing hidden. */
function code(s: string): string {
  return printable(s).replace(/`/g, "'");
}
