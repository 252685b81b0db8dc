import type { AgentKind } from '../../common/agents';
import type { LogEvent } from '../../jsonl';

/** Sessions whose last reply is held at once; beyond it the oldest is forgotten (its turn reads at rest). */
const SESSIONS_HELD = 256;

/**
 * Records that end their turn only if the agent says the turn ended (`LogEvent.ifTurnEnded`): Gemini's and Qwen
 * Code's last reply, which looks like any reply before a tool call or one cut short by Esc, and Qwen Code's failed
 * attempt, which it may retry. The newest one per session is held; any other record of the session (a tool's
 * result, a new prompt, a cancel, the next attempt) drops it; the agent's turn-end hook releases it as the log's
 * own word on how the turn ended. Used by the live log source and by replays alike.
 */
export class TurnEnds {
  private readonly held = new Map<string, { event: LogEvent; file?: string }>();

  /** Takes a decoded event (from `file`); returns it when it is to be told now, undefined when it is held instead. */
  offer(e: LogEvent, file?: string): LogEvent | undefined {
    const key = keyOf(e.agent, e.sessionId);
    this.held.delete(key);
    if (!e.ifTurnEnded) return e;
    this.held.set(key, { event: e, file });
    if (this.held.size > SESSIONS_HELD) this.held.delete(this.held.keys().next().value!);
    return undefined;
  }

  /**
   * The agent reported that its session's turn ended: the held record, as the turn's end, once. Undefined when
   * the log holds none (the turn ended with its own outcome — a cancel, an error — or wrote no reply).
   */
  release(agent: AgentKind, sessionId: string): { event: LogEvent; file?: string } | undefined {
    const key = keyOf(agent, sessionId);
    const h = this.held.get(key);
    if (!h) return undefined;
    this.held.delete(key);
    const completed = { ...h.event };
    delete completed.ifTurnEnded;
    return { event: completed, file: h.file };
  }
}

function keyOf(agent: AgentKind, sessionId: string): string {
  return `${agent}\u0000${sessionId}`;
}
