import * as vscode from 'vscode';
import { makeChannel, parseArgv, parseQuietHours, type PushChannel } from '../notify/channelList';
import { allowedUrl, type NotifyEventKind } from '../notify/config';
import { NotifyFanout } from '../notify/fanout';
import { escaped, tagged } from '../common/log';
import {
  type ChannelAction,
  channelActionPicks,
  desktopPicks,
  eventPicks,
  type TopAction,
  testResultNotice,
  topPicks,
  turnEndsPicks,
  webhookFormatPicks,
} from '../notify/channelPicks';
import type { Handlers } from './commandTable';
import type { AgentLensConfig } from './config';
import type { PushChannels } from './notifyChannels';
import { desktopChannel, isLocal } from './waitNotices';
import { desktopWanted } from '../notify/fromStore';
import * as ui from './ui';

/**
 * *Configure Notifications…*: the window's own settings (written to the user's settings, never a workspace's),
 * and the phone and chat channels (kept in secret storage), each with its events, details, quiet hours, a test
 * and removal. Escape at any step changes nothing.
 */
export class NotifyCommands {
  constructor(
    private readonly push: PushChannels,
    private readonly config: () => AgentLensConfig,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  handlers(): Handlers {
    return { configureNotifications: () => this.configure() };
  }

  private async configure(): Promise<void> {
    for (;;) {
      const c = this.config();
      const channels = await this.push.list();
      const s = { windowOn: c.notificationsEnabled, desktop: c.desktopNotifications, turnEnds: c.turnEnded, channels };
      const choice = await ui.pick(topPicks(s), { title: vscode.l10n.t('Agent Lens: Configure Notifications'), ignoreFocusOut: true });
      if (!choice?.action) return;
      const again = await this.act(choice.action, channels);
      if (!again) return;
    }
  }

  /** Does one thing the user chose; true to show the list again. */
  private async act(a: TopAction, channels: PushChannel[]): Promise<boolean> {
    const c = this.config();
    if (a.do === 'window') return setting('enabled', !c.notificationsEnabled);
    if (a.do === 'desktop') {
      const m = await ui.pick(desktopPicks(), { title: vscode.l10n.t('Desktop notifications') });
      return m ? setting('desktop', m.mode) : true;
    }
    if (a.do === 'turnEnds') {
      const v = await ui.pick(turnEndsPicks(), { title: vscode.l10n.t('Long turns that end') });
      return v ? setting('turnEnded', v.value) : true;
    }
    if (a.do === 'test') {
      await this.test(channels, true);
      return true;
    }
    if (a.do === 'add') {
      const added = await this.add(a.kind);
      if (added && (await this.saved([...channels, added]))) await this.test([added], false);
      return true;
    }
    await this.edit(channels, a.index);
    return true;
  }

  private async edit(channels: PushChannel[], index: number): Promise<void> {
    const ch = channels[index];
    const a = await ui.pick(channelActionPicks(ch), { title: vscode.l10n.t('Notification channel') });
    if (!a) return;
    const next = await this.changed(ch, a.act);
    if (next === undefined) return;
    const all = [...channels];
    if (next === 'remove') all.splice(index, 1);
    else if (next === 'tested') return;
    else all[index] = next;
    await this.saved(all);
  }

  /** Stores the channels; if secret storage refuses (no keyring), says so: what was there stays as it was. */
  private async saved(channels: PushChannel[]): Promise<boolean> {
    try {
      await this.push.save(channels);
      return true;
    } catch (e) {
      void ui.error(
        vscode.l10n.t(
          'The notification channels were not saved: {0}. Check that VS Code can use the system keyring.',
          (e as Error).message,
        ),
      );
      return false;
    }
  }

  private async changed(ch: PushChannel, act: ChannelAction): Promise<PushChannel | 'remove' | 'tested' | undefined> {
    if (act === 'remove') return 'remove';
    if (act === 'test') {
      await this.test([ch], false);
      return 'tested';
    }
    if (act === 'details') return { ...ch, details: !ch.details };
    if (act === 'events') {
      const events = await chooseEvents(ch.events);
      return events ? { ...ch, events } : undefined;
    }
    const typed = await ui.input({
      title: vscode.l10n.t('Quiet hours'),
      prompt: vscode.l10n.t('No notification on this channel between these times of day, such as 22:00-07:00. Empty: none.'),
      value: ch.quietHours ? `${ch.quietHours.from}-${ch.quietHours.to}` : '',
      validateInput: (v) => errorOf(() => parseQuietHours(v)),
    });
    if (typed === undefined) return undefined;
    const { quietHours: _old, ...rest } = ch;
    const q = parseQuietHours(typed);
    return (q ? { ...rest, quietHours: q } : rest) as PushChannel;
  }

  /** Asks what a new channel needs; undefined when the user pressed Escape. */
  private async add(kind: 'ntfy' | 'webhook' | 'command'): Promise<PushChannel | undefined> {
    const raw = kind === 'ntfy' ? await askNtfy() : kind === 'webhook' ? await askWebhook() : await askCommand();
    if (!raw) return undefined;
    const events = await chooseEvents(['wait']);
    if (!events) return undefined;
    try {
      return makeChannel({ ...raw, events });
    } catch (e) {
      void ui.error(vscode.l10n.t('The channel was not added: {0}', (e as Error).message));
      return undefined;
    }
  }

  /** A test on `channels`, and the desktop too when it is on; the result as one notice. */
  private async test(channels: readonly PushChannel[], withDesktop: boolean): Promise<void> {
    const failures = await this.push.test(channels);
    let sent = channels.length;
    // The desktop as a wait would reach it, focus aside: `auto` only where the extension host is this computer.
    if (withDesktop && desktopWanted(this.config().desktopNotifications, isLocal(), false)) {
      const desktop = new NotifyFanout([desktopChannel(this.config())], tagged(escaped(this.log), 'desktop notifications'));
      failures.push(...(await desktop.test()));
      desktop.dispose();
      sent++;
    }
    if (!sent) {
      void ui.info(vscode.l10n.t('No channel is on yet: add ntfy, a webhook or a command first.'));
      return;
    }
    const n = testResultNotice(sent - failures.length, failures);
    void ui.notify(n.level, n.text);
  }
}

/** A window setting, in the user's settings (a workspace's own value would not count in Restricted Mode anyway). */
async function setting(key: string, value: unknown): Promise<boolean> {
  await vscode.workspace.getConfiguration('agentLens').update(`notifications.${key}`, value, vscode.ConfigurationTarget.Global);
  return true;
}

function errorOf(f: () => unknown): string | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

function urlError(v: string): string | undefined {
  if (!allowedUrl(v.trim())) return vscode.l10n.t('Type an https:// address (plain http:// only to 127.0.0.1, [::1] or localhost).');
  return undefined;
}

async function chooseEvents(current: readonly NotifyEventKind[]): Promise<[NotifyEventKind, ...NotifyEventKind[]] | undefined> {
  const picked = await ui.pickMany(eventPicks(current), { title: vscode.l10n.t('Notify this channel of') });
  if (!picked) return undefined;
  if (!picked.length) {
    void ui.warn(vscode.l10n.t('Nothing was changed: a channel needs at least one event (remove it to stop it).'));
    return undefined;
  }
  return picked.map((p) => p.event) as [NotifyEventKind, ...NotifyEventKind[]];
}

async function askNtfy(): Promise<Record<string, unknown> | undefined> {
  const url = await ui.input({
    title: vscode.l10n.t('ntfy topic'),
    prompt: vscode.l10n.t('The topic address, such as https://ntfy.sh/my-agents-7f3c (subscribe to the same topic in the ntfy app).'),
    placeHolder: 'https://ntfy.sh/TOPIC',
    ignoreFocusOut: true,
    validateInput: (v) => urlError(v) ?? errorOf(() => makeChannel({ kind: 'ntfy', url: v.trim() })),
  });
  if (url === undefined) return undefined;
  const token = await ui.input({
    title: vscode.l10n.t('ntfy access token (optional)'),
    prompt: vscode.l10n.t('For a protected topic; kept in VS Code’s secret storage. Leave empty for none.'),
    password: true,
    ignoreFocusOut: true,
  });
  if (token === undefined) return undefined;
  return { kind: 'ntfy', url: url.trim(), ...(token.trim() ? { token: token.trim() } : {}) };
}

async function askWebhook(): Promise<Record<string, unknown> | undefined> {
  const f = await ui.pick(webhookFormatPicks(), { title: vscode.l10n.t('Webhook format') });
  if (!f) return undefined;
  const url = await ui.input({
    title: vscode.l10n.t('Webhook address'),
    prompt: vscode.l10n.t('Its address is its secret: kept in VS Code’s secret storage, never in settings or the log.'),
    password: true,
    ignoreFocusOut: true,
    validateInput: urlError,
  });
  return url === undefined ? undefined : { kind: 'webhook', format: f.format, url: url.trim() };
}

async function askCommand(): Promise<Record<string, unknown> | undefined> {
  const line = await ui.input({
    title: vscode.l10n.t('Command to run'),
    prompt: vscode.l10n.t(
      'The program and its arguments, run without a shell; it gets the event in AGENT_LENS_* variables and as JSON on its input. Words with spaces in "quotes", or a JSON array.',
    ),
    placeHolder: '/usr/local/bin/notify-me --quiet',
    ignoreFocusOut: true,
    validateInput: (v) => errorOf(() => makeChannel({ kind: 'command', argv: parseArgv(v) })),
  });
  return line === undefined ? undefined : { kind: 'command', argv: parseArgv(line) };
}
