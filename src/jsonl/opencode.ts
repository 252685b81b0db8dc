import { z } from 'zod';
import type { UsageSink } from '../common/usage';
import { evidence, zodDetail } from './common';
import { type LogEvent, ProblemCounter } from './types';
import { parseJson } from '../common/json';
import type { OpenCodeFamily } from '../agents/opencode/family';
import { newUsageState, OpenCodeUsage, type UsageState } from './opencodeUsage';

/**
 * OpenCode 1.18.33 keeps sessions in SQLite, and Kilo 7.7.7 in the same tables (its FACTS.md §10); the DB reader hands rows here.
 * A session's state is decided from its newest assistant message (and a newer user message, if any), and an
 * event is emitted only when that derived state changes. Rows arrive incrementally and in any order, so the
 * decoder keeps, per session, the newest message of each role and the error texts of failed tool parts.
 */

/** `session` table columns read here (others may be present). */
export interface SessionRow {
  id: string;
  directory: string;
  parent_id: string | null;
  time_created: number;
  time_updated: number;
}

/** `message` table row; `data` is the JSON text of the DB column, or already parsed. */
export interface MessageRow {
  id: string;
  session_id: string;
  time_created: number;
  time_updated: number;
  data: string | Record<string, unknown>;
}

/** `part` table row; `data` as in MessageRow. */
export interface PartRow {
  id: string;
  message_id: string;
  session_id: string;
  time_created: number;
  time_updated: number;
  data: string | Record<string, unknown>;
}

/** Rows inserted or updated since the previous call. */
export interface OpenCodeRows {
  session: SessionRow[];
  message: MessageRow[];
  part: PartRow[];
}

export interface OpenCodeDecoder {
  rows(r: OpenCodeRows): LogEvent[];
  readonly problems: ProblemCounter;
}

const Data = z.union([z.string(), z.record(z.unknown())]);
const SessionSchema = z.object({ id: z.string(), directory: z.string(), parent_id: z.string().nullish() });
const MessageSchema = z.object({ id: z.string(), session_id: z.string(), data: Data });
const PartSchema = z.object({ id: z.string(), message_id: z.string(), session_id: z.string(), data: Data });

const MessageData = z.object({
  role: z.string(),
  parentID: z.string().nullish(),
  time: z.object({ created: z.number(), completed: z.number().nullish() }),
  finish: z.string().nullish(),
  error: z
    .object({
      name: z.string(),
      data: z.object({ statusCode: z.number().nullish(), message: z.string().nullish() }).passthrough().nullish(),
    })
    .nullish(),
});
const ToolPartData = z.object({
  type: z.literal('tool'),
  tool: z.string().nullish(),
  state: z.object({ status: z.string(), error: z.unknown() }),
});

interface Msg {
  id: string;
  role: 'user' | 'assistant';
  created: number;
  completed?: number;
  finish?: string;
  parentID?: string;
  error?: { name: string; statusCode?: number; message?: string };
}

interface SessionState {
  directory?: string;
  /** Undefined until the session row was seen: until then it could be a subagent's, so nothing is emitted. */
  top?: boolean;
  user?: Msg;
  assistant?: Msg;
  /** message id → part id → error text of a tool part that ended in error. */
  toolErrors: Map<string, Map<string, string>>;
  lastKey?: string;
  /** Only with a usage sink. */
  usage?: UsageState;
}

type Derived = Pick<LogEvent, 'state' | 'reason' | 'evidence' | 'at' | 'prompt'> & { turn?: string };

/** A decoder of the rows of `agent`'s database (OpenCode's, or Kilo's: the same schema), its events under that id. */
export function createOpenCodeDecoder(
  onProblem?: (kind: string, detail: string) => void,
  agent: OpenCodeFamily = 'opencode',
  usage?: UsageSink,
): OpenCodeDecoder {
  return new OpenCodeRowDecoder(agent, onProblem, usage && new OpenCodeUsage(agent, usage));
}

/** Reads OpenCode's rows as they change: the newest message of each role per session decides its state. */
class OpenCodeRowDecoder implements OpenCodeDecoder {
  readonly problems: ProblemCounter;
  private readonly sessions = new Map<string, SessionState>();

  constructor(
    private readonly agent: OpenCodeFamily,
    onProblem?: (kind: string, detail: string) => void,
    private readonly usage?: OpenCodeUsage,
  ) {
    this.problems = new ProblemCounter(onProblem);
  }

  rows(r: OpenCodeRows): LogEvent[] {
    const touched = new Set<string>();
    try {
      for (const row of r.session ?? []) this.onSession(row, touched);
      for (const row of r.message ?? []) this.onMessage(row, touched);
      for (const row of r.part ?? []) this.onPart(row, touched);
      return this.emitChanges(touched);
    } catch (err) {
      this.problems.count('internal', (err as Error).message); // never throw into the DB poller
      return [];
    }
  }

  private state(id: string): SessionState {
    let s = this.sessions.get(id);
    if (!s) this.sessions.set(id, (s = { toolErrors: new Map() }));
    return s;
  }

  private onSession(row: unknown, touched: Set<string>): void {
    const r = SessionSchema.safeParse(row);
    if (!r.success) return this.problems.count('schema', () => zodDetail('session', r.error));
    const s = this.state(r.data.id);
    s.directory = r.data.directory;
    s.top = r.data.parent_id == null;
    touched.add(r.data.id);
  }

  private onMessage(row: unknown, touched: Set<string>): void {
    const r = MessageSchema.safeParse(row);
    if (!r.success) return this.problems.count('schema', () => zodDetail('message', r.error));
    const data = parseData(r.data.data, 'message', this.problems);
    if (!data) return;
    const d = MessageData.safeParse(data);
    if (!d.success) return this.problems.count('schema', () => zodDetail('message.data', d.error));
    if (d.data.role !== 'user' && d.data.role !== 'assistant') return;
    const s = this.state(r.data.session_id);
    const msg = toMsg(r.data.id, d.data);
    // Only the newest message of each role decides; an update of an older one changes nothing.
    if (!isOlder(msg, s[msg.role])) s[msg.role] = msg;
    touched.add(r.data.session_id);
    // A subagent's session (known by its row) is not shown, so its use is not booked either.
    if (this.usage && msg.role === 'assistant' && s.top !== false)
      this.usage.message((s.usage ??= newUsageState()), r.data.session_id, msg, data, s.assistant === msg);
  }

  private onPart(row: unknown, touched: Set<string>): void {
    const r = PartSchema.safeParse(row);
    if (!r.success) return this.problems.count('schema', () => zodDetail('part', r.error));
    // Only tool parts matter (and text parts, for the reply); step and snapshot parts are not even parsed.
    const raw = r.data.data;
    if (typeof raw === 'string' && !raw.includes('"tool"') && !(this.usage && raw.includes('"type":"text"'))) return;
    const data = parseData(raw, 'part', this.problems);
    if (data?.type === 'text') return this.onTextPart(r.data, row, data);
    if (!data || data.type !== 'tool') return;
    const p = ToolPartData.safeParse(data);
    if (!p.success) return this.problems.count('schema', () => zodDetail('part.data', p.error));
    const s = this.state(r.data.session_id);
    let errors = s.toolErrors.get(r.data.message_id);
    if (p.data.state.status === 'error') {
      if (!errors) s.toolErrors.set(r.data.message_id, (errors = new Map()));
      errors.set(r.data.id, typeof p.data.state.error === 'string' ? p.data.state.error : String(p.data.state.error));
      forgetOldest(errors, ERRORS_KEPT);
      forgetOldest(s.toolErrors, ERRORS_KEPT);
    } else errors?.delete(r.data.id);
    touched.add(r.data.session_id);
  }

  private onTextPart(r: { id: string; message_id: string; session_id: string }, row: unknown, data: Record<string, unknown>): void {
    const s = this.sessions.get(r.session_id);
    if (!this.usage || !s?.usage) return; // no assistant message of its session seen: not a reply
    const t = (row as { time_updated?: unknown }).time_updated;
    this.usage.part(s.usage, r.session_id, { id: r.id, messageId: r.message_id, at: typeof t === 'number' ? t : 0 }, data);
  }

  private emitChanges(touched: Set<string>): LogEvent[] {
    const out: LogEvent[] = [];
    for (const id of touched) {
      const s = this.sessions.get(id);
      // Once per batch, not per message: kept errors of newer messages would be scanned again for each one.
      if (s) pruneToolErrors(s);
      if (!s?.top) continue; // unknown yet, or a subagent session
      const d = derive(s);
      if (!d) continue;
      // The turn is part of the key: a second turn that completes is a new event even though the state is the same.
      const key = `${d.state}|${d.reason ?? ''}|${d.turn ?? ''}`;
      if (key === s.lastKey) continue;
      s.lastKey = key;
      const e: LogEvent = { agent: this.agent, sessionId: id, ...d };
      if (!d.reason) delete e.reason;
      if (!d.turn) delete e.turn;
      if (s.directory) e.cwd = s.directory;
      out.push(e);
    }
    return out;
  }
}

function parseData(data: string | Record<string, unknown>, what: string, problems: ProblemCounter): Record<string, unknown> | undefined {
  if (typeof data !== 'string') return data;
  try {
    const v = parseJson(data);
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    problems.count('schema', `${what}.data: not an object`);
  } catch (err) {
    problems.count('json', `${what}.data: ${(err as Error).message}`);
  }
  return undefined;
}

function toMsg(id: string, d: z.infer<typeof MessageData>): Msg {
  const m: Msg = { id, role: d.role as Msg['role'], created: d.time.created };
  if (d.time.completed != null) m.completed = d.time.completed;
  if (d.finish) m.finish = d.finish;
  if (d.parentID) m.parentID = d.parentID;
  if (d.error)
    m.error = { name: d.error.name, statusCode: d.error.data?.statusCode ?? undefined, message: d.error.data?.message ?? undefined };
  return m;
}

/** Newest by time.created, then by id (OpenCode ids ascend with time). */
function isOlder(m: Msg, than: Msg | undefined): boolean {
  if (!than || m.id === than.id) return false;
  return m.created < than.created || (m.created === than.created && m.id < than.id);
}

/**
 * Tool errors kept per session (by message) and per message: a refusal is decided by the newest assistant
 * message's parts, and far fewer than this are in flight at once. A bound, so rows naming ever more messages
 * cannot grow what every later collection walks (npm run bench: "kept tool errors").
 */
const ERRORS_KEPT = 256;

/** Drops the earliest-noted entries of `m` beyond `max`. */
function forgetOldest<V>(m: Map<string, V>, max: number): void {
  while (m.size > max) m.delete(m.keys().next().value!);
}

/** Tool errors of messages older than the newest assistant can no longer decide anything. */
function pruneToolErrors(s: SessionState): void {
  const newest = s.assistant;
  if (!newest) return;
  for (const id of s.toolErrors.keys()) if (id < newest.id) s.toolErrors.delete(id);
}

function derive(s: SessionState): Derived | undefined {
  const { user, assistant } = s;
  if (user && (!assistant || isOlder(assistant, user))) {
    return { state: 'working', at: user.created, evidence: evidence('opencode.message', 'user prompt'), turn: user.id, prompt: true };
  }
  if (!assistant) return undefined;
  const turn = assistant.parentID;
  const at = assistant.completed ?? assistant.created;
  if (assistant.error) return { state: 'failed', at, turn, ...errorOutcome(assistant.error) };
  if (assistant.completed === undefined)
    return { state: 'working', at, turn, evidence: evidence('opencode.message', 'assistant in progress') };
  if (assistant.finish === 'tool-calls') {
    const refused = toolRefusal(s.toolErrors.get(assistant.id));
    if (refused) return { state: 'failed', at, turn, ...refused };
    // A finished tool step: the next step's assistant message follows at once.
    return { state: 'working', at, turn, evidence: evidence('opencode.message', 'finish tool-calls') };
  }
  return { state: 'completed', at, turn, evidence: evidence('opencode.message', `finish ${assistant.finish ?? 'none'}`) };
}

function errorOutcome(error: NonNullable<Msg['error']>): Pick<LogEvent, 'reason' | 'evidence'> {
  const detail = error.message ? `${error.name}: ${error.message}` : error.name;
  const ev = evidence('opencode.message.error', detail);
  if (error.name === 'APIError') return { reason: error.statusCode ? `API error ${error.statusCode}` : 'API error', evidence: ev };
  if (error.name === 'MessageAbortedError') return { reason: 'interrupted', evidence: ev };
  if (error.name === 'ProviderAuthError') return { reason: 'authentication failed', evidence: ev };
  if (error.name === 'MessageOutputLengthError') return { reason: 'output too long', evidence: ev };
  return { reason: error.name.replace(/Error$/, '') || 'error', evidence: ev };
}

/** The tool errors OpenCode writes when the user says no: the turn stops there. */
function toolRefusal(errors: Map<string, string> | undefined): Pick<LogEvent, 'reason' | 'evidence'> | undefined {
  for (const text of errors?.values() ?? []) {
    if (text.includes('rejected permission')) return { reason: 'permission rejected', evidence: evidence('opencode.part.tool', text) };
    if (text.includes('dismissed this question')) return { reason: 'question dismissed', evidence: evidence('opencode.part.tool', text) };
  }
  return undefined;
}
