import type { TerminalDetector } from '../../detect/detector';
import type { Scheduler } from '../../common/scheduler';

/**
 * Lets a detector's states settle while its output pauses: a state is confirmed only after it has held, and no
 * chunk may come to say so, so the detector is advanced when its next deadline is due.
 */
export class DeadlineTimer {
  private timer: unknown;

  constructor(private readonly scheduler: Scheduler) {}

  /** (Re)arms the timer for the detector's next deadline; its clock started at `startMs` (epoch ms). */
  arm(det: TerminalDetector, startMs: number, current: () => boolean): void {
    this.stop();
    const due = det.deadline();
    if (due === undefined) return;
    const ms = Math.max(0, startMs + due * 1000 - this.scheduler.now());
    this.timer = this.scheduler.setTimeout(
      () => {
        this.timer = undefined;
        if (!current()) return;
        det.advance((this.scheduler.now() - startMs) / 1000);
        this.arm(det, startMs, current);
      },
      Math.ceil(ms) + 1,
    );
  }

  stop(): void {
    if (this.timer !== undefined) this.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
