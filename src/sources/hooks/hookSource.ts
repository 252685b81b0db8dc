import { type Clock, wallClock } from '../../common/scheduler';
import { HookMapper, type MappedReport, sessionIdOf } from '../../hooks/mapping/mapReport';
import { inOpenCodeFamily } from '../../agents/hookEvents';
import type { AgentKind } from '../../common/agents';
import { type Report, reportSchema } from '../../hooks/report';
import type { ConnectionFacts } from '../../hub/connections';
import { type Claim, PeerFinder, type PeerVerdict } from '../../hub/peer';
import { HubError } from '../../hub/security';
import { printable } from '../../common/printable';
import type { Locator, Observation, Provenance } from '../../store/observation';
import type { AgentStore } from '../../store/store';
import { type Logger } from '../../common/log';

export interface HookSourceOptions {
  /** The terminal whose shell is among these processes (the sender's parents and session), if any. */
  terminalFor(pids: readonly number[]): string | undefined;
  /** Who sent a report, from its connection (default: the kernel's answer on Linux; unverified elsewhere). */
  identify?: (connection: ConnectionFacts, claim: Claim) => PeerVerdict;
  /** Debug lines: reports refused because the kernel disproved where they say they come from. */
  log?: Logger;
  clock?: Clock;
  /**
   * The agent says its session's turn ended: the session-log source may tell the reply it holds for it
   * (src/sources/logs/turnEnds.ts). `provenance`: who the hub found sent the report.
   */
  turnEnded?(agent: AgentKind, sessionId: string, logPath: string | undefined, provenance: Provenance | undefined): void;
  /**
   * Where reports carry no ancestry (Windows): a process's parents, read from a process table within `budgetMs`
   * (./lineage.ts WindowsLineage), undefined when no table in time holds it.
   */
  ancestryOf?(pid: number, budgetMs: number): Promise<readonly number[] | undefined>;
}

/** A report as the hub received it. */
export interface Received {
  report: Report;
  verdict: PeerVerdict;
  /** What went into the store; undefined when nothing did (refused, or a word the mapping ignores). */
  observation?: Observation;
}

/** The end of a reply kept for routing triggers (the reporter already cut the payload's text). */
const REPLY_KEPT = 4000;
/** How long a report may wait for its ancestry: within the 3 s the reporter waits for its request (reporter.ts). */
export const TRACE_BUDGET_MS = 2000;
/** Reports of one session held for their ancestry, at most: a session whose hooks no table places is not held forever. */
const TRACES_PER_SESSION = 2;
/** Sessions whose holds are counted. */
const TRACED_KEPT = 256;

/**
 * The hook source: reports from agents' hooks and plugins, through the mapping tables, into the store as
 * observations with source `hook`, attributed to an agent session by its id and folder (which also links it to
 * that session's log), and to a terminal by who the kernel says sent it: the report's own `pid` and `ancestry`
 * only say where to look (src/hub/peer.ts), and are believed as they are only where the kernel cannot be asked.
 */
export class HookSource {
  private readonly mapper = new HookMapper();
  private readonly identify: (connection: ConnectionFacts, claim: Claim) => PeerVerdict;
  private readonly clock: Clock;
  /** Reports received, recorded, and refused because their claim was disproved: for diagnostics and tests. */
  readonly counts = { received: 0, recorded: 0, disproven: 0 };

  constructor(
    private readonly store: Pick<AgentStore, 'observe' | 'knowsAgentSession'> & Partial<Pick<AgentStore, 'terminalOfAgentSession'>>,
    private readonly opts: HookSourceOptions,
  ) {
    const finder = opts.identify ? undefined : new PeerFinder();
    this.identify = opts.identify ?? ((c, claim) => finder!.identify(c, claim));
    this.clock = opts.clock ?? wallClock;
  }

  /** Holds spent per session waiting for a report's ancestry (ancestryOf). */
  private readonly traced = new Map<string, number>();

  /**
   * The hub route: validates, finds who sent it, then records. Without a connection, nothing is verified. A report
   * that names its process but no ancestry (Windows) and no terminal yet is answered once its ancestry is read
   * (ancestryOf): the shell that ran its hook ends when it is answered, and with it the way to the terminal. Only
   * until its session has a terminal, and twice per session at most: what this costs is the hook's time.
   */
  handle = (body: unknown, connection?: ConnectionFacts): Promise<undefined> | undefined => {
    const pid = this.untraced(body);
    if (pid === undefined) {
      this.receive(body, connection);
      return undefined;
    }
    return this.opts.ancestryOf!(pid, TRACE_BUDGET_MS).then(
      (ancestry) => {
        this.receive(ancestry?.length ? { ...(body as object), ancestry: ancestry.slice(0, 64) } : body, connection);
        return undefined;
      },
      () => {
        this.receive(body, connection);
        return undefined;
      },
    );
  };

  /** The process of a report worth holding for its ancestry (see handle), if it is one. */
  private untraced(body: unknown): number | undefined {
    if (!this.opts.ancestryOf) return undefined;
    const r = reportSchema.safeParse(body);
    if (!r.success || r.data.pid === undefined || r.data.ancestry?.length) return undefined;
    const sessionId = sessionIdOf(r.data);
    // Without a session id later reports could not follow a placed one: each would be held.
    if (!sessionId || this.opts.terminalFor([r.data.pid]) !== undefined) return undefined;
    if (this.store.terminalOfAgentSession?.(r.data.agent, sessionId) !== undefined) return undefined;
    const key = `${r.data.agent}:${sessionId}`;
    const spent = this.traced.get(key) ?? 0;
    if (spent >= TRACES_PER_SESSION) return undefined;
    this.traced.delete(key);
    this.traced.set(key, spent + 1);
    if (this.traced.size > TRACED_KEPT) this.traced.delete(this.traced.keys().next().value!);
    return r.data.pid;
  }

  /** What `handle` does, with what it found: the report, who sent it, and what was recorded (src/answer/holdRoute.ts). */
  receive(body: unknown, connection?: ConnectionFacts): Received {
    const r = reportSchema.safeParse(body);
    if (!r.success)
      throw new HubError(400, `not a report: ${r.error.issues[0]?.path.join('.') || ''} ${r.error.issues[0]?.message ?? ''}`.trim());
    // Plugins (OpenCode, Kilo, Hermes) send from inside the agent; the reporter is a process below it.
    const claim = { pid: r.data.pid, ancestry: r.data.ancestry, inProcess: inOpenCodeFamily(r.data.agent) || r.data.agent === 'hermes' };
    const verdict: PeerVerdict = connection
      ? this.identify(connection, claim)
      : { provenance: 'unverified', why: 'no connection', askable: false };
    // A report cannot come from the future: a forged late `at` would outlast every later word of its source.
    const report = { ...r.data, at: Math.min(r.data.at, this.clock.now()) };
    return { report, verdict, observation: this.record(report, verdict) };
  }

  /**
   * Records a report. `verdict`: who the hub found on the other end; none for an in-process caller (a replay
   * of a recorded session), which vouches for the report itself.
   */
  record(r: Report, given?: PeerVerdict): Observation | undefined {
    this.counts.received++;
    let verdict = given;
    if (verdict?.provenance === 'disproven') {
      // What a false claim could win is a terminal: one that names a terminal's processes is refused. One that
      // names none is a sender that outlived the process it names — Codex runs hooks in its background daemon,
      // and the reporter's copy is orphaned before the hub looks — and is only as good as any unverified report.
      if (this.opts.terminalFor(claimedPids(r)) !== undefined) {
        this.counts.disproven++;
        this.opts.log?.debug(
          `hook report refused: ${r.agent} report claiming process ${r.pid ?? '-'} (ancestry ${(r.ancestry ?? []).slice(0, 8).join(' ') || '-'}, session ${printable(JSON.stringify(String(r.payload.session_id ?? '-')).slice(0, 80))}): ${verdict.why}`,
        );
        return undefined;
      }
      verdict = { provenance: 'unverified', why: `${verdict.why}; the claim names no terminal`, askable: true };
    }
    const m = this.mapper.map(r);
    const o = this.observe(r, m, verdict);
    if (m.turnEnd && m.sessionId) this.opts.turnEnded?.(m.agent, m.sessionId, m.logPath, verdict?.provenance);
    return o;
  }

  /** The report's word in the store, if it has one. */
  private observe(r: Report, m: MappedReport, verdict: PeerVerdict | undefined): Observation | undefined {
    if (!m.word) return undefined;
    if (m.word.onlyKnown && !(m.sessionId && this.store.knowsAgentSession(m.agent, m.sessionId))) return undefined;
    const o: Observation = {
      source: 'hook',
      at: r.at,
      agent: m.agent,
      state: m.word.state,
      evidence: `${m.event}${m.word.wait?.question ? `: "${m.word.wait.question.slice(0, 120)}"` : ''}`,
      locator: {
        ...this.placed(r, verdict),
        ...(m.cwd ? { cwd: m.cwd } : {}),
        ...(m.sessionId ? { sessionId: m.sessionId } : {}),
        ...(m.logPath ? { logPath: m.logPath } : {}),
      },
    };
    if (verdict) o.provenance = verdict.provenance;
    if (m.word.wait) o.wait = m.word.wait;
    if (m.word.reason) o.reason = m.word.reason;
    if (m.word.prompt) o.prompt = true;
    if (m.word.reply) o.reply = m.word.reply.slice(-REPLY_KEPT);
    this.counts.recorded++;
    this.store.observe(o);
    return o;
  }

  /**
   * The terminal and agent process: from the kernel's facts for a verified sender (its parents, and its
   * session, whose leader is a terminal's shell); from the claim only where the kernel cannot be asked.
   */
  private placed(r: Report, verdict: PeerVerdict | undefined): Pick<Locator, 'terminalId' | 'pid'> {
    let pids: number[];
    if (verdict?.provenance === 'verified') pids = [verdict.peer.pid, ...verdict.peer.chain, verdict.peer.sid];
    else if (verdict?.provenance === 'unverified' && verdict.askable) return {};
    else pids = claimedPids(r);
    const terminalId = pids.length ? this.opts.terminalFor(pids) : undefined;
    return { ...(terminalId ? { terminalId } : {}), ...(r.pid ? { pid: r.pid } : {}) };
  }
}

/** The processes a report says it comes from: the agent, then its ancestors. */
function claimedPids(r: Report): number[] {
  return [r.pid, ...(r.ancestry ?? [])].filter((p): p is number => p !== undefined);
}
