import type { Logger } from '../common/log';
import type { Event } from '../common/emitter';
import type { ConnectionFacts } from '../hub/connections';
import { HubError } from '../hub/security';
import type { HookSource } from '../sources/hooks/hookSource';
import type { Wait } from '../store/waits';
import { decisionWord, HOLD_GIVE_UP_MS, HOLD_PATH, type HeldAnswer } from '../hooks/decision';
import { HELD_DIALOGS } from './heldDialogs';
import type { AgentKind } from '../common/agents';
import type { Hub } from '../hub/hub';
import type { PendingAnswers, PendingRequest } from './pending';
import type { Provenance } from './provenance';
import type { PeerVerdict } from '../hub/peer';

export interface HoldOptions {
  hooks: Pick<HookSource, 'receive'>;
  waits: { waits(): Wait[]; onDidChangeWait: Event<Wait> };
  pending: PendingAnswers;
  /** `agentLens.answer.fromVSCode` as it is now (application scope: no workspace can turn it on). */
  enabled: () => boolean;
  /** Whether the sender is the agent's own hook or plugin, and the agent its terminal's foreground job. */
  provenance: (verdict: PeerVerdict, agent: AgentKind) => Provenance;
  log: Logger;
  /** Tests: a shorter hold than the hook's own limit. */
  giveUpMs?: number;
}

/**
 * The held hook's route: Claude Code's `PermissionRequest` hook (or OpenCode's plugin, for its dialogs: see
 * HELD_DIALOGS) posts its report here and keeps the connection open. The report is recorded as any other (the wait opens as before); then, only if answering from VS Code is
 * on and the kernel vouches for the sender, the request waits for the user's decision, which goes back on this
 * connection alone. Every other way out answers nothing, and the hook exits leaving the dialog to the terminal:
 * the wait closed (answered there), the hook was killed (No or Esc there), the time ran out, the window closed.
 * No route anywhere accepts a decision: only a click in VS Code makes one (src/vscode/answerCommands.ts).
 */
export function holdRoute(o: HoldOptions) {
  return (body: unknown, connection: ConnectionFacts, closed: AbortSignal): Promise<HeldAnswer | undefined> | undefined => {
    const { report, verdict, observation } = o.hooks.receive(body, connection);
    const held = HELD_DIALOGS[report.agent];
    if (!held?.holds(report.payload)) throw new HubError(400, 'only a dialog an agent holds open is held here');
    if (!o.enabled()) return undefined;
    // A question that cannot be answered by choosing (several answers, no options) stays in the terminal.
    const dialog = held.read(report.payload);
    const terminalId = observation?.locator.terminalId;
    const wait = dialog && terminalId && o.waits.waits().find((w) => w.terminalId === terminalId && w.kind === dialog.kind);
    if (!dialog || !terminalId || !wait) return undefined;
    const p = o.provenance(verdict, report.agent);
    if (!p.ok) {
      o.log.info(`answering: a ${report.agent} ${dialog.kind} in a terminal is left to the terminal: ${p.why}`);
      return undefined;
    }
    const { kind: _kind, ...what } = dialog;
    return hold(o, closed, { agent: report.agent, terminalId, waitId: wait.id, ...what, since: Date.now() });
  };
}

/** Holds one request until the user decides, its wait closes, its hook goes or its time runs out. */
function hold(o: HoldOptions, closed: AbortSignal, r: Omit<PendingRequest, 'handle'>): Promise<HeldAnswer | undefined> {
  return new Promise((resolve) => {
    let why = 'the window closed';
    const request = o.pending.add(r, (a) => {
      clearTimeout(timer);
      sub.dispose();
      closed.removeEventListener('abort', onClosed);
      const what = r.questions ? 'question' : 'permission';
      o.log.info(
        `answering: ${r.agent} ${what} (${r.tool}) ${a.decision ? `answered from VS Code: ${decisionWord(a.decision)}` : `left to the terminal: ${why}`}`,
      );
      resolve(a.decision ? a : undefined);
    });
    const end = (reason: string, inTerminal?: string) => {
      why = reason;
      // Answered there: the state history says so (once, and only if it was still held).
      if (inTerminal && o.pending.holds(request.handle))
        o.pending.note({ at: Date.now(), terminalId: r.terminalId, agent: r.agent, where: 'terminal', option: inTerminal });
      o.pending.drop(request.handle);
    };
    const sub = o.waits.onDidChangeWait((w) => {
      if (w.id === r.waitId && w.closedAt !== undefined) end('the dialog closed (answered in the terminal)', 'answered there');
    });
    const onClosed = () => end('the hook went (answered or cancelled in the terminal)', 'refused or cancelled there');
    closed.addEventListener('abort', onClosed);
    const timer = setTimeout(() => end('it was held too long'), o.giveUpMs ?? HOLD_GIVE_UP_MS);
    if (closed.aborted) onClosed();
  });
}

/** Mounts the held hook's route on a hub (the window's, a test's, the bench's). */
export function mountHold(hub: Pick<Hub, 'mount'>, o: HoldOptions): void {
  hub.mount(HOLD_PATH, holdRoute(o));
}
