import * as vscode from 'vscode';
import { realScheduler } from '../common/scheduler';
import { WaitNotifier } from '../store/notifier';
import type { AgentStore } from '../store/store';
import { COMMAND_IDS } from '../views/commandIds';
import { waitLogLines, waitNotice } from '../views/messages';
import { displayName } from '../views/names';
import type { AgentLensConfig } from './config';
import * as ui from './ui';
import { ChannelSchema } from '../notify/config';
import { NotifyFanout } from '../notify/fanout';
import { desktopWanted, waitEvent } from '../notify/fromStore';
import { escaped, tagged } from '../common/log';

/** A notification raised, kept (the last 20) for the test surface and diagnostics. */
export interface Raised {
  terminalId: string;
  waitId: string;
  message: string;
  at: number;
}

const RAISED_KEPT = 20;

/**
 * The notifier, speaking through VS Code: a wait still open after the delay raises one warning naming the
 * terminal, the agent and the question, with a button to show its terminal.
 */
export function waitNotifications(
  store: AgentStore,
  config: () => AgentLensConfig,
  activeId: () => string | undefined,
  log: vscode.LogOutputChannel,
): { notifier: vscode.Disposable; raised: Raised[] } {
  const raised: Raised[] = [];
  const desktop = desktopNotifications(log);
  const notifier = new WaitNotifier(store, realScheduler, {
    enabled: () => config().notificationsEnabled,
    delaySeconds: () => config().notificationDelaySeconds,
    isFocused: (id) => vscode.window.state.focused && activeId() === id,
    notify: (w) => {
      const t0 = store.terminal(w.terminalId!);
      const name = t0 ? displayName(t0, store.terminals()) : (w.terminalId ?? '');
      const message = waitNotice(w, name);
      raised.push({ terminalId: w.terminalId!, waitId: w.id, message, at: Date.now() });
      if (raised.length > RAISED_KEPT) raised.shift();
      // A permission dialog's question is the command being approved, which can hold a secret: trace level only.
      const lines = waitLogLines(w, name);
      log.info(lines.info);
      if (lines.trace) log.trace(lines.trace);
      const showTerminal = vscode.l10n.t('Show Terminal');
      void ui.warn(message, showTerminal).then((choice) => {
        if (choice === showTerminal) void vscode.commands.executeCommand(COMMAND_IDS.showTerminal, w.terminalId);
      });
      const c = config();
      if (desktopWanted(c.desktopNotifications, isLocal(), vscode.window.state.focused))
        desktop(c.desktopSound).notify(waitEvent(w, store, realScheduler));
    },
  });
  return { notifier: { dispose: () => (notifier.dispose(), desktop.dispose()) }, raised };
}

/** The extension host runs where the user sits: the desktop app, not a remote window or a browser. */
function isLocal(): boolean {
  return vscode.env.remoteName === undefined && vscode.env.uiKind === vscode.UIKind.Desktop;
}

/** One desktop channel per sound setting, made when first needed; folds a burst into one summary. */
function desktopNotifications(log: vscode.LogOutputChannel): ((sound: boolean) => NotifyFanout) & { dispose(): void } {
  const made = new Map<boolean, NotifyFanout>();
  const get = (sound: boolean) => {
    let f = made.get(sound);
    if (!f)
      made.set(
        sound,
        (f = new NotifyFanout([ChannelSchema.parse({ kind: 'desktop', sound })], tagged(escaped(log), 'desktop notifications'))),
      );
    return f;
  };
  return Object.assign(get, { dispose: () => made.forEach((f) => f.dispose()) });
}
