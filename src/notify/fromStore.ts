import type { Clock, Scheduler } from '../common/scheduler';
import { WaitNotifier } from '../store/notifier';
import type { AgentStore } from '../store/store';
import type { Wait } from '../store/waits';
import type { NotifyFanout } from './fanout';
import type { NotifyEvent } from './message';

/** A wait as a push names it: its agent, its terminal (or, without one, its folder) and what it asks. */
export function waitEvent(w: Wait, store: AgentStore, clock: Clock): NotifyEvent {
  const t = w.terminalId !== undefined ? store.terminal(w.terminalId) : undefined;
  const folder = t?.cwd ?? store.sessions().find((s) => s.key === w.sessionKey)?.cwd;
  return {
    kind: 'wait',
    id: w.id,
    agent: w.agent,
    terminal: t?.name ?? (folder ? folder.split(/[\\/]/).filter(Boolean).pop()! : w.agent),
    ...(folder ? { folder } : {}),
    waitKind: w.kind,
    ...(w.question ? { detail: w.question } : {}),
    openedAt: w.openedAt,
    at: clock.now(),
  };
}

/**
 * The notification rule applied to the push and command channels: a dialog still open `delaySeconds` after it
 * appeared, once per wait, never a reply that merely ends with a question, and — where there is a window — never
 * while its terminal is the focused one.
 */
export function notifyWaits(
  store: AgentStore,
  fanout: NotifyFanout,
  scheduler: Scheduler,
  o: { delaySeconds(): number; isFocused?(terminalId: string): boolean; anywhere?: boolean },
): WaitNotifier {
  return new WaitNotifier(store, scheduler, {
    enabled: () => true,
    delaySeconds: o.delaySeconds,
    isFocused: (id) => o.isFocused?.(id) ?? false,
    anywhere: o.anywhere,
    notify: (w) => fanout.notify(waitEvent(w, store, scheduler)),
  });
}

/**
 * Whether a wait notified in the window also goes to the operating system's notifications: never while the
 * window is focused (the window's own notification is seen); `auto` only where the extension host runs on the
 * user's own machine (not a remote window or VS Code in a browser, whose host is elsewhere), `on` always.
 */
export function desktopWanted(setting: 'auto' | 'on' | 'off', local: boolean, windowFocused: boolean): boolean {
  if (setting === 'off' || windowFocused) return false;
  return setting === 'on' || local;
}
