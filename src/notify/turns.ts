import { type AgentKind, isAgentKind } from '../common/agents';
import type { Disposable } from '../common/emitter';
import type { Clock } from '../common/scheduler';
import type { Observation } from '../store/observation';
import { stoppedByUser } from '../store/policy';
import type { AgentStore } from '../store/store';
import type { SessionSummary } from '../store/types';
import type { NotifyFanout } from './fanout';
import { type PlaceOf, sendPlaced, whereOf } from './fromStore';
import type { NotifyEvent } from './message';

/** A turn that ended with an outcome worth telling ("tell me when it's done"). */
export interface TurnEnd {
  /** The store's session key. */
  key: string;
  terminalId?: string;
  agent: AgentKind;
  state: 'completed' | 'failed';
  reason?: string;
  /** Epoch ms on the watcher's clock: when the turn was first seen working, and when its outcome was shown. */
  startedAt: number;
  endedAt: number;
}

/** Sessions followed at once; beyond it the oldest turn is forgotten (a session evicted from the store mid-turn). */
const TURNS_KEPT = 1000;

/**
 * A turn in progress: working, or a dialog inside the turn (the agent waits for approval or an answer and goes
 * on afterwards). A reply that ends with a question is how a turn ended, not part of one.
 */
function inTurn(o: Observation): boolean {
  return o.state === 'working' || (o.state === 'waiting' && (o.wait?.kind ?? 'prompt') !== 'reply-question');
}

/**
 * Turn ends, from every session the store holds, in a terminal or known only by its hooks: a turn begins when
 * the shown state enters work from rest (or is first seen working) and lasts through its dialogs; it ends when the
 * shown state leaves work. Only an outcome — completed or failed — after at least `turnSeconds` of wall-clock
 * time is told, once. A turn the user stopped (Esc, a denied dialog), an exit, a plain return to idle or a reply
 * that asks a question is no news. A subagent's end changes no shown state (its hook maps to nothing), so it
 * never ends a turn.
 *
 * Timed on this clock, not on the sources' stamps: a log backlog read after a reload replays old turns within
 * milliseconds, and is not told as if they had just ended.
 */
export class TurnWatcher {
  /** Session key → when its turn began (clock ms). */
  private readonly started = new Map<string, number>();
  private readonly sub: Disposable;

  constructor(
    private readonly store: AgentStore,
    private readonly clock: Clock,
    private readonly o: { turnSeconds(): number; onTurnEnd(end: TurnEnd): void },
  ) {
    this.sub = store.onDidChangeSession((s) => this.seen(s));
    for (const s of store.sessions()) this.seen(s);
  }

  dispose(): void {
    this.sub.dispose();
    this.started.clear();
  }

  private seen(s: SessionSummary): void {
    const shown = s.shown;
    if (!shown || !isAgentKind(s.agent)) return;
    const startedAt = this.started.get(s.key);
    if (inTurn(shown)) {
      if (startedAt === undefined) this.begin(s.key);
      return;
    }
    if (startedAt === undefined) return;
    this.started.delete(s.key);
    if ((shown.state !== 'completed' && shown.state !== 'failed') || stoppedByUser(shown)) return;
    if (this.store.isSwitchedOff(s.agent)) return;
    const endedAt = this.clock.now();
    if (endedAt - startedAt < this.o.turnSeconds() * 1000) return;
    this.o.onTurnEnd({
      key: s.key,
      ...(s.terminalId !== undefined ? { terminalId: s.terminalId } : {}),
      agent: s.agent,
      state: shown.state,
      ...(shown.reason ? { reason: shown.reason } : {}),
      startedAt,
      endedAt,
    });
  }

  private begin(key: string): void {
    if (this.started.size >= TURNS_KEPT) this.started.delete(this.started.keys().next().value!);
    this.started.set(key, this.clock.now());
  }
}

/** A turn's end as a push names it: like a wait, by its terminal, else its place or folder, else its agent. */
export function turnEvent(end: TurnEnd, store: AgentStore, place?: string): NotifyEvent {
  return {
    kind: 'turn',
    // One per turn: a session's turns start at different times.
    id: `${end.key}@${end.startedAt}`,
    agent: end.agent,
    ...whereOf(store, { terminalId: end.terminalId, sessionKey: end.key, agent: end.agent }, place),
    state: end.state,
    ...(end.reason ? { reason: end.reason } : {}),
    workedMs: end.endedAt - end.startedAt,
    at: end.endedAt,
  };
}

/**
 * Long turns' ends on the push and command channels that asked for `turn-completed` or `turn-failed`. `isAway`
 * says whether the person is away from the turn's terminal (a window: not focused on it); without it — `agent-lens
 * serve` — they always are. `placeOf` names a session no terminal names (a tmux pane).
 */
export function notifyTurns(
  store: AgentStore,
  fanout: Pick<NotifyFanout, 'notify'>,
  clock: Clock,
  o: { turnSeconds(): number; isAway?(terminalId: string | undefined): boolean; placeOf?: PlaceOf },
): { dispose(): void } {
  return new TurnWatcher(store, clock, {
    turnSeconds: o.turnSeconds,
    onTurnEnd: (end) => {
      if (o.isAway && !o.isAway(end.terminalId)) return;
      sendPlaced(fanout, store, end.key, o.placeOf, (place) => turnEvent(end, store, place));
    },
  });
}
