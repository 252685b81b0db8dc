import * as vscode from 'vscode';
import { escaped, tagged } from '../common/log';
import { printable } from '../common/printable';
import { realScheduler } from '../common/scheduler';
import { parseChannelList, type PushChannel, SECRET_KEY, serializeChannelList } from '../notify/channelList';
import type { NotifyEventKind } from '../notify/config';
import { NotifyFanout } from '../notify/fanout';
import { notifyWaits } from '../notify/fromStore';
import type { NotifyEvent } from '../notify/message';
import { notifyTurns } from '../notify/turns';
import type { AgentStore } from '../store/store';
import type { AgentLensConfig } from './config';
import * as ui from './ui';

/**
 * The phone and chat channels of this window (ntfy, webhooks, a command), kept in VS Code's secret storage and
 * told by the same rules as the window: a dialog open `delaySeconds` while its terminal is not the one looked
 * at, once per wait; a long turn's end while away. The rule runs once for the window's life and only the
 * channels behind it change when the stored value does (from this window or another), so editing a channel
 * neither tells an old dialog again nor forgets a turn in progress.
 */
export class PushChannels implements vscode.Disposable {
  private channels: PushChannel[] = [];
  private fanout: NotifyFanout | undefined;
  private readonly subs: { dispose(): void }[] = [];
  private loaded: Promise<void>;
  private disposed = false;
  /** The stored value that did not parse, told once per value. */
  private badValue: string | undefined;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    store: AgentStore,
    config: () => AgentLensConfig,
    /** True while the user looks at this terminal in a focused window. */
    isFocused: (terminalId: string) => boolean,
    private readonly log: vscode.LogOutputChannel,
  ) {
    // What the rules see: whichever channels are on now.
    const current = {
      notify: (e: NotifyEvent, stillWanted?: () => boolean) => this.fanout?.notify(e, stillWanted),
      wants: (kind: NotifyEventKind) => this.fanout?.wants(kind) ?? false,
    };
    this.subs.push(
      notifyWaits(store, current, realScheduler, { delaySeconds: () => config().notificationDelaySeconds, isFocused }),
      // In a window, only agents in its terminals: an agent known only by its log runs elsewhere.
      notifyTurns(store, current, realScheduler, {
        turnSeconds: () => config().turnSeconds,
        isAway: (id) => id !== undefined && !isFocused(id),
      }),
      secrets.onDidChange((e) => e.key === SECRET_KEY && void this.reload()),
    );
    this.loaded = this.reload();
  }

  /** A session near its context limit or over its budget: told to the channels that list the `usage` event. */
  usage(e: Extract<NotifyEvent, { kind: 'usage' }>): void {
    this.fanout?.notify(e);
  }

  /** The channels as stored, once read. */
  async list(): Promise<PushChannel[]> {
    await this.loaded;
    return [...this.channels];
  }

  /** Stores the channels (secrets included) and starts them; an error says what failed, and nothing is lost. */
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
      this.told(text, (e as Error).message);
    }
    if (this.disposed) return;
    this.fanout?.dispose();
    this.fanout = this.channels.length ? new NotifyFanout(this.channels, this.channelLog()) : undefined;
    if (this.fanout) this.log.info(`notifications: ${this.channels.length} phone or chat channel(s) on`);
  }

  /** A stored value that does not parse is said once, in the window too: the next save replaces it. */
  private told(value: string | undefined, message: string): void {
    this.log.error(`notifications: ${printable(message)}`);
    if (value === this.badValue) return;
    this.badValue = value;
    void ui.warn(vscode.l10n.t('Agent Lens: {0}', message));
  }

  dispose(): void {
    this.disposed = true;
    this.fanout?.dispose();
    for (const s of this.subs) s.dispose();
  }
}
