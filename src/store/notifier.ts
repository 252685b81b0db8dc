import type { Scheduler } from '../common/scheduler';
import { notifyDue, worthNotifying } from './policy';
import type { AgentStore } from './store';
import type { Wait } from './waits';

export interface NotifyOptions {
  enabled(): boolean;
  /** Seconds a dialog may stay open before we notify (15 s by default; people at the screen answer sooner). */
  delaySeconds(): number;
  /** True while this terminal is the focused, visible one: the user already sees the dialog. */
  isFocused(terminalId: string): boolean;
  notify(w: Wait): void;
  /**
   * Also waits no terminal is known for. Off in VS Code, where such a wait is an agent outside any terminal;
   * on under `agent-lens serve`, whose agents run in tmux panes or over SSH and are known only by their hooks.
   */
  anywhere?: boolean;
  /** Also replies that end with a question: only for channels that asked for them (the rule never pushes them). */
  replies?(): boolean;
}

/** How often an unanswered wait that was not yet worth a notification is checked again. */
export const RECHECK_MS = 3000;
const RECHECK_MIN_MS = 50;

/**
 * Pushes a notification once per wait, by wait id, when `worthNotifying` says so: counted from when the
 * dialog appeared (whichever source saw it first), re-checked until it is notified or closed, whatever the focus.
 */
export class WaitNotifier {
  private readonly timers = new Map<string, unknown>();
  private readonly notified = new Set<string>();
  private readonly sub: { dispose(): void };

  constructor(
    private readonly store: AgentStore,
    private readonly scheduler: Scheduler,
    private readonly opts: NotifyOptions,
  ) {
    this.sub = store.onDidChangeWait((w) => this.consider(w));
    for (const w of store.waits()) this.consider(w);
  }

  private delayMs(): number {
    return this.opts.delaySeconds() * 1000;
  }

  private consider(w: Wait): void {
    this.cancel(w.id);
    if (this.notified.has(w.id) || w.closedAt !== undefined || (w.kind === 'reply-question' && !this.opts.replies?.())) return;
    if (w.terminalId === undefined && !this.opts.anywhere) return;
    this.arm(w.id, Math.max(0, notifyDue(w, this.delayMs()) - this.scheduler.now()));
  }

  private arm(id: string, ms: number): void {
    this.timers.set(
      id,
      this.scheduler.setTimeout(() => {
        this.timers.delete(id);
        const w = this.store.wait(id);
        if (!w || !this.opts.enabled() || this.notified.has(id)) return;
        const focused = w.terminalId !== undefined && this.opts.isFocused(w.terminalId);
        if (
          worthNotifying(w, this.scheduler.now(), this.delayMs(), focused, { anywhere: this.opts.anywhere, replies: this.opts.replies?.() })
        ) {
          this.notified.add(id);
          this.opts.notify(w);
          // Every unanswered wait is looked at again until it is notified or closed: its terminal had focus, the
          // timer fired a little early, or a second source moved its opening time.
        } else if (w.closedAt === undefined) {
          const untilDue = notifyDue(w, this.delayMs()) - this.scheduler.now();
          // Never sooner than RECHECK_MIN_MS: a timer that fires early again must still move time on.
          this.arm(id, untilDue > 0 ? Math.max(RECHECK_MIN_MS, Math.min(untilDue, RECHECK_MS)) : RECHECK_MS);
        }
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
