import type { Logger } from '../common/log';
import { printable } from '../common/printable';
import type { Channel } from './config';
import { eventKindOf, type Message, messageOf, type NotifyEvent, summaryOf } from './message';
import type { PostOptions } from './post';
import { channelName, type Send, senderFor } from './senders';

interface Lane {
  channel: Channel;
  name: string;
  send: Send;
  lastSentAt: number;
  held: Message[];
  timer: NodeJS.Timeout | undefined;
  /** Failure kinds already logged: each is logged once, until a send works again. */
  failed: Set<string>;
}

/**
 * Every channel, each with the events it gets: an event is sent at once unless the channel sent less than its
 * minimum interval ago; then it is held, and what was held goes out as one summary when the interval is over.
 * A channel that fails is logged once per kind of failure and never delays the others.
 */
export class NotifyFanout {
  private readonly lanes: Lane[];
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    channels: readonly Channel[],
    private readonly log: Logger,
    o: { post?: PostOptions; env?: NodeJS.ProcessEnv } = {},
  ) {
    this.lanes = channels.map((channel) => {
      const name = channelName(channel);
      const output = (text: string) => log.info(`notification channel ${name} printed: ${printable(text)}`);
      return {
        channel,
        name,
        send: senderFor(channel, { post: o.post, env: o.env, output }),
        lastSentAt: -Infinity,
        held: [],
        timer: undefined,
        failed: new Set(),
      };
    });
  }

  /** Hands the event to every channel that takes it. */
  notify(e: NotifyEvent): void {
    const kind = eventKindOf(e);
    for (const lane of this.lanes) {
      if (kind !== 'test' && !lane.channel.events.includes(kind)) continue;
      const m = messageOf(e, lane.channel.details);
      const wait = lane.lastSentAt + lane.channel.minIntervalSeconds * 1000 - Date.now();
      if (kind === 'test' || wait <= 0) this.go(lane, m);
      else this.hold(lane, m, wait);
    }
  }

  /** Sends a test message on every channel; one line per channel that failed. */
  async test(): Promise<string[]> {
    const failures: string[] = [];
    await Promise.all(
      this.lanes.map((lane) =>
        lane.send(messageOf({ kind: 'test', at: Date.now() }, false)).catch((e: Error) => failures.push(`${lane.name}: ${e.message}`)),
      ),
    );
    return failures;
  }

  /** Resolves once every send started so far has finished (tests, and `serve` on its way out). */
  async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  dispose(): void {
    for (const lane of this.lanes) if (lane.timer) clearTimeout(lane.timer);
  }

  private hold(lane: Lane, m: Message, wait: number): void {
    lane.held.push(m);
    lane.timer ??= setTimeout(() => {
      lane.timer = undefined;
      const held = lane.held.splice(0);
      if (held.length) this.go(lane, summaryOf(held));
    }, wait);
  }

  private go(lane: Lane, m: Message): void {
    lane.lastSentAt = Date.now();
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
