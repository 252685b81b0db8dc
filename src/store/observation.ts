import type { AgentId, AgentKind, AgentState, WaitKind } from '../detect/types';

/** Who said it. `doorbell` is the handoff doorbell (seed 002). */
export const SOURCES = ['pty-scrape', 'process', 'jsonl-watcher', 'hook', 'doorbell'] as const;
export type Source = (typeof SOURCES)[number];

/** Whatever the source knows about where its agent runs; the store routes by it. */
export interface Locator {
  /** Agent Lens's id of a VS Code terminal (stable for the terminal's life). */
  terminalId?: string;
  pid?: number;
  cwd?: string;
  /** The agent's own session id (Claude `sessionId`, Codex session id, OpenCode `ses_…`). */
  sessionId?: string;
  logPath?: string;
}

/** What a source knows about a wait: its kind, and the question and choices where the source has them. */
export interface WaitInfo {
  kind: WaitKind;
  question?: string;
  options?: string[];
}

/** One source's word about one agent session, on the source's own clock. */
export interface Observation {
  source: Source;
  /** Epoch milliseconds when the source saw this state begin (never the store's clock). */
  at: number;
  agent: AgentId;
  state: AgentState;
  /** `rule-id: "matched text"`, or the log record that said so. */
  evidence: string;
  /** Why a turn failed, as a user reads it ("interrupted", "API error 529"). */
  reason?: string;
  wait?: WaitInfo;
  /** The reply that ended the turn, where the source has it (hooks' last assistant message), for routing triggers. */
  reply?: string;
  locator: Locator;
}

export function isAgentKind(a: AgentId): a is AgentKind {
  return a !== 'shell';
}
