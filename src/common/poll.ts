/** Waiting for something that announces itself nowhere: the one sleep and the one polling loop. */

/**
 * Resolves after `ms`. `background`: the timer alone keeps no process alive — for a watcher's retry pause, which
 * must not hold a CLI open that is done.
 */
export function sleep(ms: number, o: { background?: boolean } = {}): Promise<void> {
  return new Promise<void>((r) => {
    const t = setTimeout(r, ms);
    if (o.background) t.unref();
  });
}

export interface PollOptions {
  /** Pause between two probes. */
  everyMs: number;
  /** Give up once this long has passed since the first probe. */
  forMs: number;
  /** Asked before every probe after the first: true ends the wait at once (a cancelled command). */
  stop?: () => boolean;
}

/**
 * Probes until it gives a value (anything but undefined) or the time is up, then returns the last probe's
 * answer. The first probe runs at once and a probe always runs once more after the deadline's last pause, so
 * a wait of 0 ms still asks once. A probe that throws ends the wait with its error.
 */
export async function pollUntil<T>(probe: () => T | undefined | Promise<T | undefined>, o: PollOptions): Promise<T | undefined> {
  const end = Date.now() + o.forMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined || Date.now() >= end || o.stop?.()) return v;
    await sleep(Math.min(o.everyMs, Math.max(0, end - Date.now())));
  }
}
