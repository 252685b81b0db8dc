import * as l10n from '@vscode/l10n';
import { channelWhere, EVENT_ORDER, type PushChannel } from './channelList';
import type { NotifyEventKind } from './config';
import { LIMITS, type PickSpec, plain } from '../views/untrusted';

/**
 * The items of *Configure Notifications…*, as data: the window's own settings, then each phone or chat channel,
 * then what can be added. Shown through src/vscode/ui.ts like every pick.
 */

/** The values of `agentLens.notifications.desktop` and `…turnEnded`, as package.json lists them. */
export const DESKTOP_MODES = ['auto', 'on', 'off'] as const;
export type DesktopMode = (typeof DESKTOP_MODES)[number];
export const TURN_ENDS = ['off', 'failed', 'all'] as const;
export type TurnEnds = (typeof TURN_ENDS)[number];

export interface NotifySummary {
  windowOn: boolean;
  desktop: DesktopMode;
  turnEnds: TurnEnds;
  channels: readonly PushChannel[];
}

export type TopAction =
  | { do: 'window' }
  | { do: 'desktop' }
  | { do: 'turnEnds' }
  | { do: 'channel'; index: number }
  | { do: 'add'; kind: 'ntfy' | 'webhook' | 'command' }
  | { do: 'test' };

export function eventName(e: NotifyEventKind): string {
  if (e === 'wait') return l10n.t('a dialog left open');
  if (e === 'turn-completed') return l10n.t('a long turn completed');
  if (e === 'reply') return l10n.t('a reply that ends with a question');
  if (e === 'usage') return l10n.t('a session near its context limit or over its budget');
  return l10n.t('a long turn failed');
}

function kindName(c: Pick<PushChannel, 'kind'> & { format?: string }): string {
  if (c.kind === 'ntfy') return 'ntfy';
  if (c.kind === 'command') return l10n.t('Command');
  return c.format === 'slack' ? 'Slack' : c.format === 'discord' ? 'Discord' : l10n.t('Webhook');
}

export function desktopLabel(m: DesktopMode): string {
  if (m === 'auto') return l10n.t('auto (on when VS Code runs on this computer)');
  return m === 'on' ? l10n.t('on') : l10n.t('off');
}

export function turnEndsLabel(t: TurnEnds): string {
  if (t === 'off') return l10n.t('off');
  return t === 'failed' ? l10n.t('failed turns only') : l10n.t('completed and failed turns');
}

/** One line per channel: where it sends and what it gets, never its token. */
export function channelPick(c: PushChannel, index: number): PickSpec & { action: TopAction } {
  const events = EVENT_ORDER.filter((e) => c.events.includes(e)).map(eventName);
  const extras = [c.details ? l10n.t('with details') : l10n.t('no details')];
  if (c.quietHours) extras.push(l10n.t('quiet {0}–{1}', c.quietHours.from, c.quietHours.to));
  return {
    label: `${kindName(c)}: ${channelWhere(c)}`,
    description: extras.join(' · '),
    detail: events.join(', '),
    icon: c.kind === 'command' ? 'terminal' : 'broadcast',
    action: { do: 'channel', index },
  };
}

export function topPicks(s: NotifySummary): (PickSpec & { action?: TopAction })[] {
  return [
    { label: l10n.t('In this window: {0}', s.windowOn ? l10n.t('on') : l10n.t('off')), icon: 'bell', action: { do: 'window' } },
    { label: l10n.t('Desktop notifications: {0}', desktopLabel(s.desktop)), icon: 'device-desktop', action: { do: 'desktop' } },
    {
      label: l10n.t('Long turns that end, in the window and on the desktop: {0}', turnEndsLabel(s.turnEnds)),
      icon: 'check-all',
      action: { do: 'turnEnds' },
    },
    ...s.channels.map(channelPick),
    {
      label: l10n.t('Add ntfy (phone)…'),
      description: l10n.t('ntfy.sh or your own server'),
      icon: 'add',
      action: { do: 'add', kind: 'ntfy' },
    },
    { label: l10n.t('Add webhook (Slack, Discord, JSON)…'), icon: 'add', action: { do: 'add', kind: 'webhook' } },
    {
      label: l10n.t('Add command…'),
      description: l10n.t('runs a program of yours with the event'),
      icon: 'add',
      action: { do: 'add', kind: 'command' },
    },
    {
      label: l10n.t('Send a test notification'),
      description: l10n.t('on every channel that is on'),
      icon: 'debug-start',
      action: { do: 'test' },
    },
  ];
}

export type ChannelAction = 'events' | 'details' | 'quiet' | 'test' | 'remove';

export function channelActionPicks(c: PushChannel): (PickSpec & { act: ChannelAction })[] {
  return [
    {
      label: l10n.t('Events…'),
      description: EVENT_ORDER.filter((e) => c.events.includes(e))
        .map(eventName)
        .join(', '),
      act: 'events',
    },
    {
      label: c.details ? l10n.t('Send details: on') : l10n.t('Send details: off'),
      description: l10n.t('the question, command or reason leaves this computer only when on'),
      act: 'details',
    },
    { label: l10n.t('Quiet hours…'), description: c.quietHours ? `${c.quietHours.from}–${c.quietHours.to}` : l10n.t('none'), act: 'quiet' },
    { label: l10n.t('Send a test notification'), icon: 'debug-start', act: 'test' },
    { label: l10n.t('Remove this channel'), icon: 'trash', act: 'remove' },
  ];
}

export function eventPicks(chosen: readonly NotifyEventKind[]): (PickSpec & { event: NotifyEventKind })[] {
  return EVENT_ORDER.map((e) => ({ label: eventName(e), picked: chosen.includes(e), event: e }));
}

export function desktopPicks(): (PickSpec & { mode: DesktopMode })[] {
  return DESKTOP_MODES.map((mode) => ({ label: desktopLabel(mode), mode }));
}

export function turnEndsPicks(): (PickSpec & { value: TurnEnds })[] {
  return TURN_ENDS.map((value) => ({ label: turnEndsLabel(value), value }));
}

export function webhookFormatPicks(): (PickSpec & { format: 'slack' | 'discord' | 'json' })[] {
  return [
    { label: 'Slack', description: l10n.t('an incoming-webhook URL'), format: 'slack' },
    { label: 'Discord', description: l10n.t('a channel webhook URL'), format: 'discord' },
    { label: 'JSON', description: l10n.t('your own server: {"event", "title", "body", "count"}'), format: 'json' },
  ];
}

/** What a test on each channel did, as one notice. */
export function testResultNotice(sent: number, failures: readonly string[]): { level: 'info' | 'error'; text: string } {
  if (!failures.length) return { level: 'info', text: l10n.t('Test notification sent on {0} channel(s).', sent) };
  // A failure quotes what a server answered: outside text.
  const text = l10n.t('The test notification failed on {0}: {1}', failures.length, failures.map((f) => plain(f, LIMITS.part)).join('; '));
  return { level: 'error', text: plain(text, LIMITS.message) };
}
