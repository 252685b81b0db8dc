import type { AgentId } from '../common/agents';
import type { Source } from '../common/sources';
import type { AgentState, WaitInfo } from '../common/states';

export type { WaitInfo } from '../common/states';

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

/**
 * How a hook report's sender was identified (src/hub/peer.ts): `verified`, the kernel showed the connection
 * held by a process where the report said it came from; `unverified`, nothing could be checked (not Linux, no
 * /proc, the connection gone); `disproven`, the kernel showed that none of the processes it named holds it.
 * Words without one come from Agent Lens's own sources (screen, process scan, logs) or an in-process replay.
 */
export type Provenance = 'verified' | 'unverified' | 'disproven';

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
  /** The agent's own record of taking a prompt (its log's user entry, its prompt hook): a turn starts exactly at `at`. */
  prompt?: boolean;
  locator: Locator;
  /** Set on words that came over the hub (hook reports): what may be believed of them (src/store/trustRules.ts). */
  provenance?: Provenance;
}
