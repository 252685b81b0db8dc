import type { Logger } from '../common/log';
import { printable } from '../common/printable';
import { type Clock, wallClock } from '../common/scheduler';
import type { Channel, NotifyEventKind } from './config';
import { eventKindOf, type Message, messageOf, type NotifyEvent, summaryOf } from './message';
import type { PostOptions } from './post';
import { inQuietHours } from './quietHours';
import { channelName, type Send, senderFor } from './senders';

interface Lane {
  channel: Channel;
  name: string;
  send: Send;
  lastSentAt: number;
  /** Held by the minimum interval, each with whether it is still worth sending when the summary goes. */
  held: { m: Message; stillWanted?(): boolean }[];
  timer: NodeJS.Timeout | undefined;
  /** Failure kinds already logged: each is logged once, until a send works again. */
  failed: Set<string>;
}

/**
 * Every channel, each with the events it gets: an event is sent at once unless the channel sent less than its
 * minimum interval ago; then it is held, and what was held goes out as one summary when the interval is over.
 * A channel that fails is logged once per kind of failure and never delays the others. In a channel's quiet hours
 * its events are dropped, not held: a night's waits are long answered by the morning.
 */
export class NotifyFanout {
  private readonly lanes: Lane[];
  private readonly inFlight = new Set<Promise<void>>();
  /** Disposed: a late event (a pane lookup that ends after serve closed) sends nothing. */
  private disposed = false;
  private readonly clock: Clock;

  constructor(
    channels: readonly Channel[],
    private readonly log: Logger,
    o: { post?: PostOptions; env?: NodeJS.ProcessEnv; clock?: Clock; onClick?(uri: string): void; platform?: NodeJS.Platform } = {},
  ) {
    this.clock = o.clock ?? wallClock;
    this.lanes = channels.map((channel) => {
      const name = channelName(channel);
      const output = (text: string) => log.info(`notification channel ${name} printed: ${printable(text)}`);
      return {
        channel,
        name,
        send: senderFor(channel, { post: o.post, env: o.env, output, onClick: o.onClick, platform: o.platform }),
        lastSentAt: -Infinity,
        held: [],
        timer: undefined,
        failed: new Set(),
      };
    });
  }

  /** Whether any channel asked for this kind of event. */
  wants(kind: NotifyEventKind): boolean {
    return this.lanes.some((l) => l.channel.events.includes(kind));
  }

  /**
   * Hands the event to every channel that takes it. `stillWanted` is asked again if a channel holds the event
   * for its summary: a dialog answered meanwhile is left out of it.
   */
  notify(e: NotifyEvent, stillWanted?: () => boolean): void {
    if (this.disposed) return;
    const kind = eventKindOf(e);
    const quiet: string[] = [];
    for (const lane of this.lanes) {
      if (kind !== 'test' && !lane.channel.events.includes(kind)) continue;
      // A test is asked for by the person at the keyboard, whatever the hour.
      if (kind !== 'test' && this.quiet(lane)) {
        quiet.push(lane.name);
        continue;
      }
      const m = messageOf(e, lane.channel.details);
      const wait = lane.lastSentAt + lane.channel.minIntervalSeconds * 1000 - this.clock.now();
      if (kind === 'test' || wait <= 0) this.go(lane, m);
      else this.hold(lane, m, wait, stillWanted);
    }
    // Debug only: quiet hours are the user's choice, not a fault.
    if (quiet.length) this.log.debug(`notification: ${kind} not sent in the quiet hours of ${quiet.join(', ')}`);
  }

  /** Sends a test message on every channel; one line per channel that failed. */
  async test(): Promise<string[]> {
    const failures: string[] = [];
    await Promise.all(
      this.lanes.map((lane) =>
        lane
          .send(messageOf({ kind: 'test', at: this.clock.now() }, false))
          .catch((e: Error) => failures.push(`${lane.name}: ${e.message}`)),
      ),
    );
    return failures;
  }

  /** Resolves once every send started so far has finished (tests, and `serve` on its way out). */
  async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  dispose(): void {
    this.disposed = true;
    for (const lane of this.lanes) {
      if (lane.timer) clearTimeout(lane.timer);
      lane.send.dispose?.();
    }
  }

  private hold(lane: Lane, m: Message, wait: number, stillWanted?: () => boolean): void {
    lane.held.push({ m, stillWanted });
    lane.timer ??= setTimeout(() => {
      lane.timer = undefined;
      const held = lane.held
        .splice(0)
        .filter((h) => h.stillWanted?.() ?? true)
        .map((h) => h.m);
      if (!held.length) return;
      // Held from before the quiet hours began: dropped like anything else that falls in them.
      if (this.quiet(lane)) this.log.debug(`notification: a summary of ${held.length} not sent in the quiet hours of ${lane.name}`);
      else this.go(lane, summaryOf(held));
    }, wait);
  }

  private quiet(lane: Lane): boolean {
    const q = lane.channel.quietHours;
    return q !== undefined && inQuietHours(q, new Date(this.clock.now()));
  }

  private go(lane: Lane, m: Message): void {
    lane.lastSentAt = this.clock.now();
    const p = lane.send(m).then(
      () => {
        if (lane.failed.size) this.log.info(`notification channel ${lane.name} works again`);
        lane.failed.clear();
      },
      (e: Error & { kind?: string }) => {
        const kind = e.kind ?? 'error';
        if (lane.failed.has(kind)) return;
        lane.failed.add(kind);
        this.log.warn(`notification channel ${lane.name} failed: ${printable(e.message)}. Further failures like it are not logged.`);
      },
    );
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }
}
