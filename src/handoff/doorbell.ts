import { Reply } from '../hub/hub';
import { HubError } from '../hub/security';
import type { Hub } from '../hub/hub';
import { EVENT_STATUSES, type EventStatus, flattenSummary } from './board';
import type { Boards, IncomingEvent } from './boards';
import { isSafeSegment, splitEventId } from './paths';
import { printable } from '../common/printable';
import { type Logger } from '../common/log';

/** The doorbell's paths, on the same hub as the hooks. */
export const DOORBELL_PATH = '/handoff';
export const HEALTH_PATH = '/handoff/health';
export const DISPATCH_PATH = '/handoff/dispatch';
export const BOARDS_PATH = '/handoff/boards';

/**
 * Validates a doorbell body exactly as the contract in every brief says: 422 when id, status or summary is missing
 * (or not a string), 400 for an invalid status or an empty id or summary. Body-not-JSON (400) is the hub's.
 */
export function parseEvent(body: unknown): IncomingEvent {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HubError(422, 'the body must be a JSON object with id, status, summary and report_path (may be null)');
  const o = body as Record<string, unknown>;
  const missing = (['id', 'status', 'summary'] as const).filter((k) => typeof o[k] !== 'string');
  if (missing.length)
    throw new HubError(
      422,
      `missing field${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: send id, status, summary and report_path (may be null)`,
    );
  if (o.report_path !== undefined && o.report_path !== null && typeof o.report_path !== 'string')
    throw new HubError(422, 'report_path must be a string or null');
  const id = (o.id as string).trim();
  const summary = flattenSummary(o.summary as string);
  if (!EVENT_STATUSES.includes(o.status as EventStatus))
    throw new HubError(400, `status ${printable(JSON.stringify(o.status) ?? String(o.status))} is not one of ${EVENT_STATUSES.join(', ')}`);
  if (!id) throw new HubError(400, 'id is empty: send "{agent}::{task_id}"');
  if (!summary) throw new HubError(400, 'summary is empty: say in one line what happened');
  return {
    id,
    status: o.status as EventStatus,
    summary,
    report_path: typeof o.report_path === 'string' && o.report_path.trim() ? o.report_path.trim() : null,
  };
}

export interface HandoffRoutes {
  boards: Boards;
  /** Dispatches for tooling (`POST /handoff/dispatch`); answers 409 when the in-flight gate refuses. */
  dispatch?: (body: unknown) => Promise<Reply>;
  /** A report path that would leave the handoff root is refused: the board never links outside it. */
  checkReportPath?: (agent: string, p: string) => string;
  log?: Logger;
}

/** Mounts the doorbell, its health check, tooling's dispatch and the boards read-out on the hub. */
export function mountHandoff(hub: Hub, r: HandoffRoutes): void {
  hub.mount(DOORBELL_PATH, (body) => ring(r, body));
  hub.mount(HEALTH_PATH, () => ({ ok: true, service: 'agent-lens', doorbell: DOORBELL_PATH }), { method: 'GET', auth: 'none' });
  hub.mount(BOARDS_PATH, () => ({ boards: r.boards.all(), ungrouped: r.boards.ungrouped, dropped: r.boards.dropped }), { method: 'GET' });
  if (r.dispatch) hub.mount(DISPATCH_PATH, (body) => r.dispatch!(body));
}

/** One doorbell event: validated, folded into its board, answered 200 with what the board did and any warning. */
export function ring(r: HandoffRoutes, body: unknown, via: 'doorbell' | 'terminal' = 'doorbell'): Reply {
  const ev = parseEvent(body);
  if (ev.report_path) {
    const agent = splitEventId(ev.id)?.agent;
    // An event that groups nowhere has no agent folder to hold its report, so there is nothing to check the path
    // against: it is dropped rather than kept unchecked in the ungrouped list (and the boards read-out).
    if (agent === undefined || !isSafeSegment(agent)) ev.report_path = null;
    else if (r.checkReportPath) {
      try {
        ev.report_path = r.checkReportPath(agent, ev.report_path);
      } catch (e) {
        throw new HubError(400, printable((e as Error).message));
      }
    }
  }
  const receipt = r.boards.receive(ev, via);
  // The id and the warning quote what the sender wrote: escaped, so no control character reaches the log.
  r.log?.[receipt.warning ? 'warn' : 'info'](
    printable(
      `doorbell (${via}): ${ev.id} ${ev.status} “${ev.summary}” → ${receipt.outcome}${receipt.warning ? `: ${receipt.warning}` : ''}`,
    ),
  );
  return new Reply(200, {
    ok: true,
    outcome: receipt.outcome,
    ...(receipt.warning ? { warning: receipt.warning } : {}),
    ...(receipt.board ? { state: receipt.board.state, task_id: receipt.board.task_id } : {}),
  });
}
