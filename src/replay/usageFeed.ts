import type { LogEvent } from '../jsonl';
import { TurnEnds } from '../sources/logs/turnEnds';
import type { UsageBook } from '../usage/book';

/**
 * The usage book's turns in a replay of logs alone. A reply that ends its turn only if the agent says so (Gemini
 * CLI's, Qwen Code's: `ifTurnEnded`) is held as the live source holds it; with no hook here to release it, the
 * session's next prompt or the log's end does: the agent took a new prompt, or wrote nothing more, so that reply
 * was the turn's last.
 */
export class UsageFeed {
  private readonly ends = new TurnEnds();
  private readonly seen = new Map<string, Pick<LogEvent, 'agent' | 'sessionId'>>();

  constructor(private readonly book: UsageBook) {}

  event(e: LogEvent): void {
    this.seen.set(`${e.agent}\u0000${e.sessionId}`, { agent: e.agent, sessionId: e.sessionId });
    if (e.prompt) this.release(e);
    const now = this.ends.offer(e);
    if (now) this.book.event(now);
  }

  /** The logs are read: each session's held reply ends its turn. */
  end(): void {
    for (const s of this.seen.values()) this.release(s);
  }

  private release(s: Pick<LogEvent, 'agent' | 'sessionId'>): void {
    const held = this.ends.release(s.agent, s.sessionId);
    if (held) this.book.event(held.event);
  }
}
