import { z } from 'zod';
import type { UsageSink } from '../common/usage';
import { evidence, zodDetail } from './common';
import { continueUsage, SessionUsage } from './continueUsage';
import { type LogEvent, ProblemCounter } from './types';
import { JsonDepthError, parseJson } from '../common/json';

/**
 * Continue CLI 1.5.47 session files (`$CONTINUE_GLOBAL_DIR/sessions/<session id>.json`, else `~/.continue/sessions/`;
 * FACTS.md §7 in test/fixtures/live/continue-cli). Not JSON lines: one pretty-printed object `{sessionId, title,
 * workspaceDirectory, history: […], usage}` that cn truncates and writes again on every change, so a reader sees
 * each content whole (or, for a moment, nothing) and has to tell what changed from the content before. No record
 * has a time of its own: an outcome is as old as the content that first shows it (the file's modification time).
 *
 * There is no turn-end record either: a turn is over when the newest history item is an assistant message with
 * words and no tool calls. A denied tool call is its item written again with `toolCallStates[].status: "canceled"`
 * and nothing after it. Esc and API errors write nothing at all (the screen tells those).
 */

/** A session file bigger than this is not read: far beyond any session cn writes (16 MiB). */
export const MAX_SESSION_FILE_BYTES = 16 * 1024 * 1024;

/** How many outcomes a decoder remembers having told; only the newest item can be told, so a few are plenty. */
const REMEMBERED = 32;

/** The output cn gives a tool call its dialog refused (Esc, or "No, and tell Continue what to do differently"). */
const DENIED = 'Permission denied by user';

const Session = z.object({
  sessionId: z.string(),
  workspaceDirectory: z.string().nullish(),
  history: z.array(z.unknown()),
  usage: SessionUsage,
});
const Part = z.object({ text: z.string().nullish() }).passthrough();
const ToolState = z.object({
  toolCallId: z.string().nullish(),
  status: z.string(),
  toolCall: z.object({ function: z.object({ name: z.string().nullish() }).nullish() }).nullish(),
  output: z.array(z.object({ content: z.unknown() })).nullish(),
});
const Item = z.object({
  message: z.object({
    role: z.string(),
    content: z.union([z.string(), z.array(Part)]).nullish(),
    toolCalls: z.array(z.object({ id: z.string().nullish() }).passthrough()).nullish(),
  }),
  toolCallStates: z.array(ToolState).nullish(),
});

type Item = z.infer<typeof Item>;
type Emit = Pick<LogEvent, 'state' | 'reason' | 'evidence'>;

/** Reads successive contents of one session file. */
export interface SnapshotDecoder {
  /** The file's whole text as read, `at` (epoch ms) being when it was written. Never throws. */
  snapshot(text: string, at: number): LogEvent[];
  readonly problems: ProblemCounter;
}

export function createContinueDecoder(onProblem?: (kind: string, detail: string) => void, usage?: UsageSink): SnapshotDecoder {
  return new ContinueDecoder(onProblem, usage);
}

class ContinueDecoder implements SnapshotDecoder {
  readonly problems: ProblemCounter;
  /** The outcomes told, by history item (its index and what it holds): told once, whatever is rewritten around it. */
  private readonly told: string[] = [];
  /** What the book was told last: a rewrite that changes none of it (the title, a tool's state) tells nothing. */
  private lastUsage = '';

  constructor(
    onProblem?: (kind: string, detail: string) => void,
    private readonly usage?: UsageSink,
  ) {
    this.problems = new ProblemCounter(onProblem);
  }

  snapshot(text: string, at: number): LogEvent[] {
    try {
      return this.decode(text, at);
    } catch (err) {
      this.problems.count('internal', (err as Error).message); // never throw into the file watcher
      return [];
    }
  }

  private decode(text: string, at: number): LogEvent[] {
    if (text.length > MAX_SESSION_FILE_BYTES) {
      this.problems.count('size', `${text.length} characters, more than ${MAX_SESSION_FILE_BYTES}`);
      return [];
    }
    const session = this.parse(text);
    if (!session) return [];
    if (this.usage && Number.isFinite(at)) this.tellUsage(session, at);
    const index = session.history.length - 1;
    if (index < 0) return [];
    const item = Item.safeParse(session.history[index]);
    if (!item.success) {
      this.problems.count('schema', () => zodDetail('history item', item.error));
      return [];
    }
    const e = outcome(item.data);
    if (!e || !Number.isFinite(at)) return [];
    const key = `${index}:${e.state}:${identity(item.data)}`;
    if (this.told.includes(key)) return [];
    this.told.push(key);
    if (this.told.length > REMEMBERED) this.told.shift();
    const out: LogEvent = { agent: 'continue-cli', sessionId: session.sessionId, at, ...e };
    if (session.workspaceDirectory) out.cwd = session.workspaceDirectory;
    return [out];
  }

  private tellUsage(session: z.infer<typeof Session>, at: number): void {
    const rec = continueUsage(session, at);
    const key = JSON.stringify({ ...rec, at: 0 });
    if (key === this.lastUsage) return;
    this.lastUsage = key;
    this.usage?.usage(rec);
  }

  /**
   * The session, or nothing. Empty or cut-off text is the file between cn's truncate and its write: not a
   * problem, the next change brings the whole. Text that parses but is not a session is.
   */
  private parse(text: string): z.infer<typeof Session> | undefined {
    if (text.trim() === '') return undefined;
    let value: unknown;
    try {
      value = parseJson(text);
    } catch (err) {
      if (err instanceof JsonDepthError) this.problems.count('depth', err.message);
      return undefined;
    }
    const s = Session.safeParse(value);
    if (!s.success) {
      this.problems.count('schema', () => zodDetail('session', s.error));
      return undefined;
    }
    return s.data;
  }
}

/** What the newest history item says of its turn: over (a reply without tool calls), refused, or nothing yet. */
function outcome(item: Item): Emit | undefined {
  const m = item.message;
  if (m.role !== 'assistant') return undefined;
  const canceled = (item.toolCallStates ?? []).find((s) => s.status === 'canceled');
  if (canceled) {
    const said = firstOutput(canceled);
    const detail = `${canceled.toolCall?.function?.name ?? 'tool'} canceled: ${said}`;
    const reason = said.startsWith(DENIED) ? 'permission rejected' : 'interrupted';
    return { state: 'failed', reason, evidence: evidence('continue.tool-call', detail) };
  }
  if ((m.toolCalls ?? []).length > 0 || !hasWords(m.content)) return undefined;
  return { state: 'completed', evidence: evidence('continue.reply', 'no tool calls') };
}

function firstOutput(s: z.infer<typeof ToolState>): string {
  const c = s.output?.[0]?.content;
  return typeof c === 'string' ? c : '';
}

function hasWords(content: Item['message']['content']): boolean {
  if (typeof content === 'string') return content.trim() !== '';
  return (content ?? []).some((p) => typeof p.text === 'string' && p.text.trim() !== '');
}

/** Which item this is, beyond its index: a history rewound and grown again holds another item there. */
function identity(item: Item): string {
  const calls = (item.message.toolCalls ?? []).map((c) => c.id ?? '').join(',');
  const c = item.message.content;
  const words = typeof c === 'string' ? c : JSON.stringify(c ?? '');
  return `${calls}|${words.length}|${words.slice(0, 64)}`;
}
