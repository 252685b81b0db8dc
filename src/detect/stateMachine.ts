import type { AgentState } from '../common/states';

/**
 * How long a new state must hold on screen before it is shown, in seconds. Short for states that need
 * the user (they must show within 150 ms); longer for settling down, so a redraw between two tool
 * steps does not flash "idle" (the foundation allows up to 1 s there).
 */
export const SETTLE: Record<AgentState, number> = {
  working: 0.1,
  waiting: 0.1,
  failed: 0.12,
  exited: 0,
  stopped: 0.12,
  completed: 0.12,
  idle: 0.8,
};

export interface Pending<T> {
  value: T;
  state: AgentState;
  since: number;
}

/**
 * Debounces candidate states: a candidate is committed once it has held for its settle time. Pure:
 * callers feed candidates with timestamps and ask for the next deadline.
 */
export class Debouncer<T> {
  private pending: Pending<T> | undefined;

  constructor(private committed: AgentState) {}

  get state(): AgentState {
    return this.committed;
  }

  /** Forces a state now (identification, process exit). */
  reset(state: AgentState): void {
    this.committed = state;
    this.pending = undefined;
  }

  /** Offers the latest candidate at time t; returns a commit if one is due at or before t. */
  offer(state: AgentState, value: T, t: number, sameCandidate: (a: T, b: T) => boolean): { value: T; t: number } | undefined {
    const due = this.advance(t);
    if (due) return due;
    if (state === this.committed) {
      this.pending = undefined;
      return undefined;
    }
    if (!this.pending || this.pending.state !== state || !sameCandidate(this.pending.value, value)) {
      this.pending = { value, state, since: t };
    }
    return this.advance(t);
  }

  /** Commits the pending candidate if it has held long enough by time t. */
  advance(t: number): { value: T; t: number } | undefined {
    const p = this.pending;
    if (!p) return undefined;
    const at = p.since + SETTLE[p.state];
    if (t + 1e-9 < at) return undefined;
    this.pending = undefined;
    this.committed = p.state;
    return { value: p.value, t: at };
  }

  /** When advance() should next be called, or undefined when nothing is pending. */
  deadline(): number | undefined {
    return this.pending ? this.pending.since + SETTLE[this.pending.state] : undefined;
  }
}
