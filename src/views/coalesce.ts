import type { Scheduler } from '../common/scheduler';

/** A function that runs at most once per interval; `cancel()` drops a pending run (on dispose). */
export interface Coalesced {
  (): void;
  cancel(): void;
}

/**
 * Runs `fn` at most once per `ms`. A call when nothing ran for `ms` runs at once (a single change shows without
 * delay); calls inside the interval are folded into one trailing run at its end, so the last state is always
 * shown. A burst of thousands of events then costs one rebuild per interval instead of one per event.
 */
export function coalesce(clock: Scheduler, ms: number, fn: () => void): Coalesced {
  let last = -Infinity;
  let timer: unknown;
  const run = () => {
    timer = undefined;
    last = clock.now();
    fn();
  };
  const call = (() => {
    if (timer !== undefined) return;
    const wait = last + ms - clock.now();
    if (wait <= 0) run();
    else timer = clock.setTimeout(run, wait);
  }) as Coalesced;
  call.cancel = () => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  };
  return call;
}
