import { HookMapper } from '../../hooks/mapping/mapReport';
import { type Report, reportSchema } from '../../hooks/report';
import { HubError } from '../../hub/security';
import type { Observation } from '../../store/observation';
import type { AgentStore } from '../../store/store';

export interface HookSourceOptions {
  /** The terminal whose shell is among these processes (the reporter's ancestry), if any. */
  terminalFor(pids: readonly number[]): string | undefined;
}

/**
 * The hook source: reports from agents' hooks and plugins, through the mapping tables, into the store as
 * observations with source `hook`, attributed to a terminal by process ancestry and to an agent session by
 * its id and folder (which also links it to that session's log).
 */
/** The end of a reply kept for routing triggers (the reporter already cut the payload's text). */
const REPLY_KEPT = 4000;

export class HookSource {
  private readonly mapper = new HookMapper();
  /** Reports received and recorded, for diagnostics and tests. */
  readonly counts = { received: 0, recorded: 0 };

  constructor(
    private readonly store: Pick<AgentStore, 'observe' | 'knowsAgentSession'>,
    private readonly opts: HookSourceOptions,
  ) {}

  /** The hub route: validates, then records. */
  handle = (body: unknown): undefined => {
    const r = reportSchema.safeParse(body);
    if (!r.success) throw new HubError(400, `not a report: ${r.error.issues[0]?.path.join('.') || ''} ${r.error.issues[0]?.message ?? ''}`.trim());
    this.record(r.data);
    return undefined;
  };

  record(r: Report): Observation | undefined {
    this.counts.received++;
    const m = this.mapper.map(r);
    if (!m.word) return undefined;
    if (m.word.onlyKnown && !(m.sessionId && this.store.knowsAgentSession(m.agent, m.sessionId))) return undefined;
    const pids = [r.pid, ...(r.ancestry ?? [])].filter((p): p is number => p !== undefined);
    const terminalId = pids.length ? this.opts.terminalFor(pids) : undefined;
    const o: Observation = {
      source: 'hook',
      at: r.at,
      agent: m.agent,
      state: m.word.state,
      evidence: `${m.event}${m.word.wait?.question ? `: "${m.word.wait.question.slice(0, 120)}"` : ''}`,
      locator: { ...(terminalId ? { terminalId } : {}), ...(r.pid ? { pid: r.pid } : {}), ...(m.cwd ? { cwd: m.cwd } : {}), ...(m.sessionId ? { sessionId: m.sessionId } : {}), ...(m.logPath ? { logPath: m.logPath } : {}) },
    };
    if (m.word.wait) o.wait = m.word.wait;
    if (m.word.reason) o.reason = m.word.reason;
    if (m.word.reply) o.reply = m.word.reply.slice(-REPLY_KEPT);
    this.counts.recorded++;
    this.store.observe(o);
    return o;
  }
}
