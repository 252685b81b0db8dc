import type { DesktopMode } from './channelPicks';
import { type AgentKind, isAgentKind } from '../common/agents';
import type { Clock, Scheduler } from '../common/scheduler';
import { WaitNotifier } from '../store/notifier';
import type { AgentStore } from '../store/store';
import type { Wait } from '../store/waits';
import type { NotifyFanout } from './fanout';
import { folderName, type NotifyEvent } from './message';

/**
 * Where an agent runs, named for a person, when no terminal names it: under `agent-lens serve`, the tmux pane
 * (`work:0.1`) whose processes hold the agent. Looked up only when a push is due; it may find nothing.
 */
export type PlaceOf = (s: { agent: AgentKind; pid?: number; cwd?: string }) => Promise<string | undefined>;

/** How long a push waits for its place before it goes without one: a name is never worth a late push. */
const PLACE_MS = 2000;

/**
 * How a push names where an agent runs: its terminal, else its place (a tmux pane), else its folder's last
 * part, else the agent; and the folder beside it.
 */
export function whereOf(
  store: AgentStore,
  at: { terminalId?: string; sessionKey: string; agent: AgentKind },
  place?: string,
): { terminal: string; folder?: string } {
  const t = at.terminalId !== undefined ? store.terminal(at.terminalId) : undefined;
  const folder = t?.cwd ?? store.session(at.sessionKey)?.cwd;
  const terminal = t?.name ?? place ?? folderName(folder) ?? at.agent;
  return { terminal, ...(folder ? { folder } : {}) };
}

/** A wait as a push names it: its agent, its terminal (or, without one, its place or folder) and what it asks. */
export function waitEvent(w: Wait, store: AgentStore, clock: Clock, place?: string): NotifyEvent {
  return {
    kind: 'wait',
    id: w.id,
    agent: w.agent,
    ...whereOf(store, w, place),
    waitKind: w.kind,
    ...(w.question ? { detail: w.question } : {}),
    openedAt: w.openedAt,
    at: clock.now(),
  };
}

/**
 * Hands the event to the channels once its session's place is known, or at once without a `placeOf`. A lookup
 * that fails or outlasts PLACE_MS names no place: the push goes anyway.
 */
export function sendPlaced(
  fanout: Pick<NotifyFanout, 'notify'>,
  store: AgentStore,
  sessionKey: string,
  placeOf: PlaceOf | undefined,
  make: (place?: string) => NotifyEvent,
  stillWanted?: () => boolean,
): void {
  if (!placeOf) return fanout.notify(make(), stillWanted);
  const s = store.session(sessionKey);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((r) => {
    timer = setTimeout(() => r(undefined), PLACE_MS);
    // A lookup still running when serve stops keeps nothing alive.
    timer.unref();
  });
  const lookup =
    s && isAgentKind(s.agent) ? placeOf({ agent: s.agent, pid: s.shown?.locator.pid, cwd: s.cwd }) : Promise.resolve(undefined);
  // Nothing awaits a push: the fanout logs its failures; only its name is awaited, and never long.
  void Promise.race([lookup.catch(() => undefined), late]).then((place) => {
    clearTimeout(timer);
    fanout.notify(make(place), stillWanted);
  });
}

/**
 * The notification rule applied to the push and command channels: a dialog still open `delaySeconds` after it
 * appeared, once per wait, never a reply that merely ends with a question, and — where there is a window — never
 * while its terminal is the focused one.
 */
export function notifyWaits(
  store: AgentStore,
  fanout: Pick<NotifyFanout, 'notify' | 'wants'>,
  scheduler: Scheduler,
  o: { delaySeconds(): number; isFocused?(terminalId: string): boolean; anywhere?: boolean; placeOf?: PlaceOf },
): WaitNotifier {
  return new WaitNotifier(store, scheduler, {
    enabled: () => true,
    delaySeconds: o.delaySeconds,
    isFocused: (id) => o.isFocused?.(id) ?? false,
    anywhere: o.anywhere,
    // Replies that end with a question are looked at only when a channel asked for them; the fanout gives each
    // only to those channels.
    replies: () => fanout.wants('reply'),
    notify: (w) =>
      sendPlaced(
        fanout,
        store,
        w.sessionKey,
        o.placeOf,
        (place) => waitEvent(w, store, scheduler, place),
        () => store.wait(w.id)?.closedAt === undefined,
      ),
  });
}

/**
 * Whether a wait notified in the window also goes to the operating system's notifications: never while the
 * window is focused (the window's own notification is seen); `auto` only where the extension host runs on the
 * user's own machine (not a remote window or VS Code in a browser, whose host is elsewhere), `on` always.
 */
export function desktopWanted(setting: DesktopMode, local: boolean, windowFocused: boolean): boolean {
  if (setting === 'off' || windowFocused) return false;
  return setting === 'on' || local;
}
