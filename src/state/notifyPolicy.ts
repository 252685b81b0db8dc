import type { Scheduler } from './sessions';
import type { StateStore, TerminalState } from './store';

export interface NotifyOptions {
  enabled(): boolean;
  /** Seconds a dialog may stay open before we notify (seed 001: 15 s; people at the screen answer sooner). */
  delaySeconds(): number;
  /** True while this terminal is the focused, visible one: the user already sees the dialog. */
  isFocused(id: string): boolean;
  notify(s: TerminalState): void;
}

/** How often a wait whose terminal had focus is checked again. */
const RECHECK_MS = 3000;

/**
 * When to push a "needs you" notification: a terminal entered Waiting for a dialog (permission,
 * question, prompt), it is still the same wait after the delay, and its terminal is not the focused one.
 * Once per wait. A reply that merely ends with a question is listed, never pushed.
 */
export class WaitNotifier {
  private readonly timers = new Map<string, unknown>();
  private readonly notified = new Set<string>();
  private readonly sub: { dispose(): void };

  constructor(
    private readonly store: StateStore,
    private readonly scheduler: Scheduler,
    private readonly opts: NotifyOptions,
  ) {
    this.sub = store.onDidChange((c) => {
      this.cancel(c.id);
      const s = c.current;
      if (s && this.pushable(s)) this.arm(s, Math.max(0, this.opts.delaySeconds() * 1000 - (this.scheduler.now() - s.since)));
    });
  }

  private pushable(s: TerminalState): boolean {
    return s.agent !== 'shell' && s.state === 'waiting' && s.waitKind !== 'reply-question';
  }

  private key(s: TerminalState): string {
    return `${s.id}@${s.since}`;
  }

  private arm(s: TerminalState, ms: number): void {
    const key = this.key(s);
    if (this.notified.has(key)) return;
    this.timers.set(
      s.id,
      this.scheduler.setTimeout(() => {
        this.timers.delete(s.id);
        const now = this.store.get(s.id);
        if (!now || this.key(now) !== key || !this.pushable(now) || !this.opts.enabled()) return;
        if (this.opts.isFocused(s.id)) {
          this.arm(now, RECHECK_MS);
          return;
        }
        this.notified.add(key);
        this.opts.notify(now);
      }, ms),
    );
  }

  private cancel(id: string): void {
    const t = this.timers.get(id);
    if (t !== undefined) this.scheduler.clearTimeout(t);
    this.timers.delete(id);
  }

  dispose(): void {
    this.sub.dispose();
    for (const t of this.timers.values()) this.scheduler.clearTimeout(t);
    this.timers.clear();
  }
}
