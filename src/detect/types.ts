import type { AgentId } from '../common/agents';
import type { DetectorSource } from '../common/sources';
import type { AgentState, WaitKind } from '../common/states';

/** One observation of a terminal, as every view and the replay CLI print it. */
export interface Detection {
  /** Seconds on the detector's clock (replay: since the recording's start). */
  t: number;
  agent: AgentId;
  state: AgentState;
  source: DetectorSource;
  /** Which rule fired, on what text: `rule-id: "matched text"`. */
  evidence: string;
  waitKind?: WaitKind;
  /** A dialog's numbered choices as its screen shows them. */
  options?: string[];
  /** Why a run failed, as a user reads it ("exit code 1"). */
  reason?: string;
}
