import * as path from 'path';
import type { TerminalState } from '../store/types';
import { agentName } from './labels';
import { isAgent } from '../common/agents';

/**
 * The one name a terminal goes by everywhere (rows, quick picks, notifications, the answer box, history): the
 * title its tab shows (VS Code's name, after renames and program titles). Where several terminals would read
 * alike ("bash", "bash"), an agent's row adds the agent and its folder ("bash — Claude Code · demo-app"), and
 * whatever still reads alike gets its number in the window ("bash (2)").
 */
export function displayNames(terminals: readonly TerminalState[]): Map<string, string> {
  const base = new Map(terminals.map((t) => [t.id, t.name.trim() || agentName(t.agent)]));
  const first = new Map<string, string>();
  for (const t of terminals) first.set(t.id, alike(base, base.get(t.id)!) > 1 ? qualified(t, base.get(t.id)!) : base.get(t.id)!);
  const out = new Map<string, string>();
  const seen = new Map<string, number>();
  for (const t of terminals) {
    const name = first.get(t.id)!;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    out.set(t.id, alike(first, name) > 1 && n > 1 ? `${name} (${n})` : name);
  }
  return out;
}

/** The name of one terminal among `all` (the notifier and the commands name a single terminal). */
export function displayName(t: TerminalState, all: readonly TerminalState[]): string {
  return displayNames(all).get(t.id) ?? t.name;
}

function alike(names: Map<string, string>, name: string): number {
  let n = 0;
  for (const v of names.values()) if (v === name) n++;
  return n;
}

function qualified(t: TerminalState, name: string): string {
  if (!isAgent(t)) return name;
  const folder = t.cwd ? path.basename(t.cwd) : undefined;
  return folder ? `${name} — ${agentName(t.agent)} · ${folder}` : `${name} — ${agentName(t.agent)}`;
}
