import type { AgentKind } from '../common/agents';
import { samePath } from '../common/paths';

/**
 * Linking a session seen in a log (or any source that does not know its terminal) to the terminal it runs
 * in. Pure; the store calls it. Two agents in one folder must never be confused: when unsure, no link.
 */

/** A terminal's current agent session, as a candidate. */
export interface TerminalCandidate {
  terminalId: string;
  agent: AgentKind;
  cwd?: string;
  alive: boolean;
  /** Epoch ms of the session's first word: a log last heard of before this is not about it. */
  startedAt: number;
  /** Epoch ms when the terminal's own sources (screen, process) saw a turn start, recent first or any order. */
  turnStarts: readonly number[];
}

/** The unlinked session. */
export interface UnlinkedSession {
  agent: AgentKind;
  cwd?: string;
  /** Epoch ms of the turn starts its log recorded. */
  turnStarts: readonly number[];
  /** Epoch ms of its latest record. */
  lastSeen: number;
  /** A source (a replay given `--log`, a hook that knows its terminal) named the terminal. */
  pinnedTerminal?: string;
}

/** A turn start on screen and the log's record of the same prompt are this close on one machine's clock. */
export const CORRELATE_MS = 3000;

export type BindResult = { terminalId: string; why: string } | { terminalId?: undefined; why: string };

/**
 * 1. A pinned terminal, once it runs the same agent.
 * 2. Among live terminals running the same agent in the same folder: the only one whose screen saw a turn
 *    start at the moment the log recorded one (two at that moment: ambiguous).
 * 3. Else, the only candidate terminal, when the log was written to after that agent started and the
 *    process table says exactly one such agent runs in that folder on this machine (`agentsInFolder`); an
 *    agent in another program's terminal would make it two.
 */
export function chooseTerminal(
  s: UnlinkedSession,
  candidates: readonly TerminalCandidate[],
  agentsInFolder?: () => number | undefined,
): BindResult {
  if (s.pinnedTerminal !== undefined) {
    const pinned = candidates.find((c) => c.terminalId === s.pinnedTerminal && c.agent === s.agent);
    return pinned ? { terminalId: pinned.terminalId, why: 'named by its source' } : { why: 'named terminal runs no such agent yet' };
  }
  if (!s.cwd) return { why: 'the log names no folder' };
  // The log's folder and the terminal's are written by different programs: on Windows `C:\x` (Node's cwd) and
  // `c:\x` (VS Code's fsPath) are one folder (src/common/paths.ts).
  const same = candidates.filter((c) => c.alive && c.agent === s.agent && c.cwd !== undefined && samePath(c.cwd, s.cwd!));
  if (same.length === 0) return { why: `no terminal runs ${s.agent} in ${s.cwd}` };
  const correlated = same.filter((c) => c.turnStarts.some((t) => s.turnStarts.some((u) => Math.abs(t - u) <= CORRELATE_MS)));
  if (correlated.length === 1) return { terminalId: correlated[0].terminalId, why: 'its screen saw the same turn start' };
  if (correlated.length > 1) return { why: `ambiguous: ${correlated.length} terminals started a turn at that moment` };
  const sole = same.length === 1 && s.lastSeen >= same[0].startedAt - CORRELATE_MS;
  if (sole && agentsInFolder?.() === 1) return { terminalId: same[0].terminalId, why: `the only ${s.agent} running in ${s.cwd}` };
  return { why: same.length > 1 ? `ambiguous: ${same.length} terminals run ${s.agent} in ${s.cwd}` : 'no turn start to match yet' };
}
