/** The agents Agent Lens knows; `shell` means no agent is running. */
export const AGENT_IDS = ['claude-code', 'codex', 'opencode', 'amp', 'gemini', 'hermes', 'copilot', 'cursor', 'crush', 'qwen', 'kilocode', 'aider', 'pi', 'shell'] as const;
export type AgentId = (typeof AGENT_IDS)[number];
export type AgentKind = Exclude<AgentId, 'shell'>;

export const AGENT_STATES = ['working', 'idle', 'waiting', 'stopped', 'completed', 'failed', 'exited'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

/** Where a state came from. Only `pty-scrape` and `process` are produced by the terminal detector. */
export const STATE_SOURCES = ['pty-scrape', 'jsonl-watcher', 'hook', 'process'] as const;
export type StateSource = (typeof STATE_SOURCES)[number];

/**
 * Why an agent waits. `reply-question` is a reply that merely ends with a question: it is listed,
 * never pushed as a notification (seed 001).
 */
export type WaitKind = 'permission' | 'question' | 'reply-question' | 'prompt';

/** One observation of a terminal, as every view and the replay CLI print it. */
export interface Detection {
  /** Seconds on the detector's clock (replay: since the recording's start). */
  t: number;
  agent: AgentId;
  state: AgentState;
  source: StateSource;
  /** Which rule fired, on what text: `rule-id: "matched text"`. */
  evidence: string;
  waitKind?: WaitKind;
  /** A dialog's numbered choices as its screen shows them. */
  options?: string[];
  /** Why a run failed, as a user reads it ("exit code 1"). */
  reason?: string;
}

/** At rest: the agent is not working and nobody is asked anything. Agreement scoring treats these as one class. */
export const AT_REST: ReadonlySet<AgentState> = new Set<AgentState>(['idle', 'stopped', 'completed']);

export function isAgentId(s: string): s is AgentId {
  return (AGENT_IDS as readonly string[]).includes(s);
}
export function isAgentState(s: string): s is AgentState {
  return (AGENT_STATES as readonly string[]).includes(s);
}
