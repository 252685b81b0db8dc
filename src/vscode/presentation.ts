import * as vscode from 'vscode';
import { SIGNATURES } from '../detect/signatures';
import type { AgentId, AgentState } from '../detect/types';
import type { TerminalState } from '../state/store';

/** How each state looks (seed 000's colours: working green, waiting orange, stopped/failed red, completed green, exited grey). */
const LOOK: Record<AgentState, { icon: string; color?: string; label: string }> = {
  working: { icon: 'sync~spin', color: 'charts.green', label: 'working' },
  waiting: { icon: 'bell-dot', color: 'charts.orange', label: 'waiting' },
  stopped: { icon: 'debug-stop', color: 'charts.red', label: 'stopped' },
  failed: { icon: 'error', color: 'charts.red', label: 'failed' },
  completed: { icon: 'pass-filled', color: 'charts.green', label: 'completed' },
  exited: { icon: 'circle-slash', color: 'disabledForeground', label: 'exited' },
  idle: { icon: 'circle-large-outline', label: 'idle' },
};

export function agentName(agent: AgentId): string {
  if (agent === 'shell') return 'shell';
  return SIGNATURES.find((s) => s.agent === agent)?.displayName ?? agent;
}

export function stateLabel(s: Pick<TerminalState, 'state' | 'waitKind'>): string {
  if (s.state === 'waiting' && s.waitKind === 'reply-question') return 'asked a question';
  if (s.state === 'waiting' && s.waitKind === 'question') return 'waiting for an answer';
  if (s.state === 'waiting' && s.waitKind === 'permission') return 'waiting for approval';
  return LOOK[s.state].label;
}

export function stateIcon(s: Pick<TerminalState, 'agent' | 'state'>): vscode.ThemeIcon {
  if (s.agent === 'shell') return new vscode.ThemeIcon(s.state === 'exited' ? 'circle-slash' : 'terminal', s.state === 'exited' ? new vscode.ThemeColor('disabledForeground') : undefined);
  const look = LOOK[s.state];
  return new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined);
}

/** Codicon id for status bar text (no colours there). */
export function stateCodicon(s: Pick<TerminalState, 'state'>): string {
  return LOOK[s.state].icon;
}

/** "12s", "3m", "2h 5m". */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  return `${h}h ${m % 60}m`;
}

export function describe(s: TerminalState, now: number): string {
  if (s.agent === 'shell') return s.state === 'exited' ? 'exited' : 'shell';
  return `${agentName(s.agent)} · ${stateLabel(s)} · ${duration(now - s.since)}`;
}

export function tooltip(s: TerminalState, now: number): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escapeMd(s.name)}** — ${escapeMd(agentName(s.agent))}, ${escapeMd(stateLabel(s))} for ${duration(now - s.since)}\n\n`);
  md.appendMarkdown(`Source: \`${s.source}\`\n\n`);
  md.appendText(`Evidence: ${s.evidence}`);
  return md;
}

function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
