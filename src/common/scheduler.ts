/**
 * Time, injected so the logic runs in mocha without VS Code and replays run on a recording's clock. Every
 * stamp Agent Lens keeps is epoch milliseconds from a Clock; only the detector counts seconds since its
 * execution started (its caller stamps what it says).
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

/** A clock with timers. */
export interface Scheduler extends Clock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const wallClock: Clock = { now: () => Date.now() };

export const realScheduler: Scheduler = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};
