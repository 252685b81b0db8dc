import type * as vscode from 'vscode';
import { escaped, tagged } from '../common/log';
import { printable } from '../common/printable';
import { realScheduler } from '../common/scheduler';
import { parseChannelList, type PushChannel, SECRET_KEY, serializeChannelList } from '../notify/channelList';
import { NotifyFanout } from '../notify/fanout';
import { notifyWaits } from '../notify/fromStore';
import { notifyTurns } from '../notify/turns';
import type { AgentStore } from '../store/store';
import type { AgentLensConfig } from './config';

/**
 * The phone and chat channels of this window (ntfy, webhooks, a command), kept in VS Code's secret storage and
 * told by the same rules as the window: a dialog open `delaySeconds` while its terminal is not the one looked
 * at, once per wait; a long turn's end where a channel asked for it. Rebuilt whenever the stored value changes,
 * from this window or another.
 */
export class PushChannels implements vscode.Disposable {
  private channels: PushChannel[] = [];
  private running: { fanout: NotifyFanout; parts: { dispose(): void }[] } | undefined;
  private readonly subs: vscode.Disposable[] = [];
  private loaded: Promise<void>;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly store: AgentStore,
    private readonly config: () => AgentLensConfig,
    /** True while the user looks at this terminal in a focused window. */
    private readonly isFocused: (terminalId: string) => boolean,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subs.push(secrets.onDidChange((e) => e.key === SECRET_KEY && void this.reload()));
    this.loaded = this.reload();
  }

  /** The channels as stored, once read. */
  async list(): Promise<PushChannel[]> {
    await this.loaded;
    return [...this.channels];
  }

  /** Stores the channels (secrets included) and starts them. */
  async save(channels: readonly PushChannel[]): Promise<void> {
    await this.secrets.store(SECRET_KEY, serializeChannelList(channels));
    await (this.loaded = this.reload());
  }

  /** Sends a test message on the given channels; one line per channel that failed. */
  async test(channels: readonly PushChannel[]): Promise<string[]> {
    const fanout = new NotifyFanout(channels, this.channelLog());
    try {
      return await fanout.test();
    } finally {
      fanout.dispose();
    }
  }

  private channelLog() {
    return tagged(escaped(this.log), 'push notifications');
  }

  private async reload(): Promise<void> {
    let text: string | undefined;
    try {
      text = await this.secrets.get(SECRET_KEY);
      this.channels = parseChannelList(text);
    } catch (e) {
      this.channels = [];
      this.log.error(`notifications: ${printable((e as Error).message)}`);
    }
    this.restart();
  }

  private restart(): void {
    this.stop();
    if (!this.channels.length) return;
    const fanout = new NotifyFanout(this.channels, this.channelLog());
    const waits = notifyWaits(this.store, fanout, realScheduler, {
      delaySeconds: () => this.config().notificationDelaySeconds,
      isFocused: this.isFocused,
    });
    const turns = notifyTurns(this.store, fanout, realScheduler, {
      turnSeconds: () => this.config().turnSeconds,
      isAway: (id) => id === undefined || !this.isFocused(id),
    });
    this.running = { fanout, parts: [waits, turns] };
    this.log.info(`notifications: ${this.channels.length} phone or chat channel(s) on`);
  }

  private stop(): void {
    if (!this.running) return;
    for (const p of this.running.parts) p.dispose();
    this.running.fanout.dispose();
    this.running = undefined;
  }

  dispose(): void {
    this.stop();
    for (const s of this.subs) s.dispose();
  }
}
