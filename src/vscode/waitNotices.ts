import * as vscode from 'vscode';
import { realScheduler } from '../common/scheduler';
import { WaitNotifier } from '../store/notifier';
import type { AgentStore } from '../store/store';
import type { Wait } from '../store/waits';
import { COMMAND_IDS } from '../views/commandIds';
import { turnNotice, waitLogLines, waitNotice } from '../views/messages';
import { displayName } from '../views/names';
import type { AgentLensConfig } from './config';
import * as ui from './ui';
import { parseQuietHours } from '../notify/channelList';
import { type Channel, ChannelSchema } from '../notify/config';
import { NotifyFanout } from '../notify/fanout';
import { desktopWanted, waitEvent } from '../notify/fromStore';
import type { NotifyEvent } from '../notify/message';
import { type TurnEnd, turnEvent, TurnWatcher } from '../notify/turns';
import { escaped, tagged } from '../common/log';
import { clickUri, handleClick } from './uriHandler';

/** What a wait's notification needs to offer answering its dialog (src/vscode/answerCommands.ts). */
export interface DialogAnswers {
  offered(waitId: string): { handle: string; question: boolean } | undefined;
  allow(handle: string): Promise<unknown>;
  deny(handle: string): Promise<unknown>;
  choose(handle: string): Promise<unknown>;
}

/** A notification raised, kept (the last 20) for the test surface and diagnostics. */
export interface Raised {
  terminalId: string;
  /** The wait's id, or `turn:` and the session's key for a turn's end. */
  waitId: string;
  message: string;
  at: number;
}

const RAISED_KEPT = 20;

/**
 * The notifier, speaking through VS Code: a wait still open after the delay raises one warning naming the
 * terminal, the agent and the question, with a button to show its terminal; a long turn that ended while the
 * user looked elsewhere, one information message when the settings ask for it. Either also goes to the
 * desktop while the window is not focused.
 */
export function waitNotifications(
  store: AgentStore,
  config: () => AgentLensConfig,
  isFocused: (terminalId: string) => boolean,
  log: vscode.LogOutputChannel,
  extensionId: string,
  answers?: DialogAnswers,
): { notifier: vscode.Disposable; raised: Raised[] } {
  const raised: Raised[] = [];
  const desktop = desktopNotifications(log, (uri) => handleClick(uri, store, log));
  const nameOf = (id: string | undefined) => {
    const t = id !== undefined ? store.terminal(id) : undefined;
    return t ? displayName(t, store.terminals()) : (id ?? '');
  };
  const raise = (terminalId: string, waitId: string, message: string, show: (m: string) => Thenable<string | undefined>) => {
    raised.push({ terminalId, waitId, message, at: Date.now() });
    if (raised.length > RAISED_KEPT) raised.shift();
    const showTerminal = vscode.l10n.t('Show Terminal');
    void show(message).then((choice) => {
      if (choice === showTerminal) void vscode.commands.executeCommand(COMMAND_IDS.showTerminal, terminalId);
    });
  };
  // A dialog answerable from here gets Allow Once… and Deny… too; its handle stays in this closure.
  const warnWait = (w: Wait, m: string): Thenable<string | undefined> => {
    const offer = answers?.offered(w.id);
    const showTerminal = vscode.l10n.t('Show Terminal');
    if (!offer || !answers) return ui.warn(m, showTerminal);
    const allow = vscode.l10n.t('Allow Once…');
    const deny = vscode.l10n.t('Deny…');
    const choose = vscode.l10n.t('Choose…');
    // Show Terminal first: the first button is the toast's primary one, and Allow is never that.
    const buttons = offer.question ? [showTerminal, choose] : [showTerminal, deny, allow];
    return ui.warn(m, ...buttons).then((choice) => {
      if (choice === allow) void answers.allow(offer.handle);
      if (choice === deny) void answers.deny(offer.handle);
      if (choice === choose) void answers.choose(offer.handle);
      return choice;
    });
  };
  // A click on the desktop's notification brings VS Code forward and shows the terminal (./uriHandler.ts).
  // Held for the desktop's summary, an event still counts only while the window is away (and a dialog open).
  const toDesktop = (e: NotifyEvent, terminalId: string, open: () => boolean = () => true) => {
    const c = config();
    if (!desktopWanted(c.desktopNotifications, isLocal(), vscode.window.state.focused)) return;
    log.info(`also on the desktop (the window is not focused)`);
    const stillWanted = () => open() && !vscode.window.state.focused;
    desktop(c).notify(e.kind === 'test' ? e : { ...e, click: clickUri(extensionId, terminalId) }, stillWanted);
  };
  const notifier = new WaitNotifier(store, realScheduler, {
    enabled: () => config().notificationsEnabled,
    delaySeconds: () => config().notificationDelaySeconds,
    isFocused,
    notify: (w) => {
      const name = nameOf(w.terminalId);
      logWait(log, w, name);
      raise(w.terminalId!, w.id, waitNotice(w, name), (m) => warnWait(w, m));
      toDesktop(waitEvent(w, store, realScheduler), w.terminalId!, () => store.wait(w.id)?.closedAt === undefined);
    },
  });
  const turns = new TurnWatcher(store, realScheduler, {
    turnSeconds: () => config().turnSeconds,
    onTurnEnd: (end) => {
      const c = config();
      if (!c.notificationsEnabled || !turnWanted(c, end) || end.terminalId === undefined || isFocused(end.terminalId)) return;
      const name = nameOf(end.terminalId);
      log.info(`notified: a ${end.state} turn of ${end.agent} in “${name}” after ${Math.round((end.endedAt - end.startedAt) / 1000)} s`);
      raise(end.terminalId, `turn:${end.key}`, turnNotice(end, name), (m) => ui.info(m, vscode.l10n.t('Show Terminal')));
      toDesktop(turnEvent(end, store), end.terminalId);
    },
  });
  return { notifier: { dispose: () => (notifier.dispose(), turns.dispose(), desktop.dispose()) }, raised };
}

function logWait(log: vscode.LogOutputChannel, w: Wait, name: string): void {
  // A permission dialog's question is the command being approved, which can hold a secret: trace level only.
  const lines = waitLogLines(w, name);
  log.info(lines.info);
  if (lines.trace) log.trace(lines.trace);
}

/** Whether the settings ask to hear of this turn's end in the window and on the desktop. */
export function turnWanted(c: Pick<AgentLensConfig, 'turnEnded'>, end: Pick<TurnEnd, 'state'>): boolean {
  return c.turnEnded === 'all' || (c.turnEnded === 'failed' && end.state === 'failed');
}

/** The extension host runs where the user sits: the desktop app, not a remote window or a browser. */
export function isLocal(): boolean {
  return vscode.env.remoteName === undefined && vscode.env.uiKind === vscode.UIKind.Desktop;
}

/** The window's desktop channel as the settings make it: sound, quiet hours, and whatever the window tells it. */
export function desktopChannel(c: Pick<AgentLensConfig, 'desktopSound' | 'quietHours'>): Channel {
  let quietHours: { from: string; to: string } | undefined;
  try {
    quietHours = parseQuietHours(c.quietHours);
  } catch {
    quietHours = undefined;
  }
  return ChannelSchema.parse({ kind: 'desktop', sound: c.desktopSound, events: ['wait', 'turn-completed', 'turn-failed'], quietHours });
}

/**
 * One desktop channel per sound and quiet-hours setting, made when first needed; it folds a burst into one
 * summary. A quiet-hours value the settings editor let through but that does not parse counts as none.
 */
function desktopNotifications(
  log: vscode.LogOutputChannel,
  onClick: (uri: string) => void,
): ((c: AgentLensConfig) => NotifyFanout) & { dispose(): void } {
  const made = new Map<string, NotifyFanout>();
  const get = (c: AgentLensConfig) => {
    const channel = desktopChannel(c);
    const key = JSON.stringify(channel);
    let f = made.get(key);
    if (!f) made.set(key, (f = new NotifyFanout([channel], tagged(escaped(log), 'desktop notifications'), { onClick })));
    return f;
  };
  return Object.assign(get, { dispose: () => made.forEach((f) => f.dispose()) });
}
