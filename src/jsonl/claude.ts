import { z } from 'zod';
import type { UsageSink } from '../common/usage';
import { ClaudeUsage, claudeUsageLine } from './claudeUsage';
import { checkedEntry, epochMs, evidence, mustParse, parseObject } from './common';
import { type LineDecoder, type LogEvent, ProblemCounter } from './types';

/**
 * Claude Code 2.1.328 transcripts (`~/.claude/projects/<cwd>/<session>.jsonl`), see
 * Only `user`, `assistant` and `system`/`turn_duration` entries say
 * anything about the turn; everything else (attachments, API request blobs, snapshots) is skipped unparsed.
 */

/** Every relevant entry holds one of these (Claude writes compact JSON.stringify output). */
export const CLAUDE_NEEDLES = ['"type":"user"', '"type":"assistant"', '"turn_duration"'] as const;

/** Whether the decoder must parse the line: the needles' test (mustParse), or an entry with usage only. */
export function claudeMustParse(text: string): boolean {
  return mustParse(text, CLAUDE_NEEDLES) || claudeUsageLine(text);
}

const INTERRUPTED = '[Request interrupted by user';

/** Keep schemas to the fields read: undeclared keys (tool inputs, results) are neither checked nor copied. */
const Block = z.object({
  type: z.string(),
  text: z.string().nullish(),
  id: z.string().nullish(),
  name: z.string().nullish(),
  tool_use_id: z.string().nullish(),
});
type Block = z.infer<typeof Block>;

const Base = z.object({
  type: z.string(),
  sessionId: z.string(),
  timestamp: z.string(),
  cwd: z.string().nullish(),
  uuid: z.string().nullish(),
  isSidechain: z.boolean().nullish(),
});

const User = Base.extend({
  message: z.object({ content: z.union([z.string(), z.array(Block)]) }),
  isMeta: z.boolean().nullish(),
  isCompactSummary: z.boolean().nullish(),
  origin: z.object({ kind: z.string() }).nullish(),
  promptSource: z.string().nullish(),
  turnOrigin: z.string().nullish(),
  toolDenialKind: z.string().nullish(),
  toolDenialBeforeRun: z.boolean().nullish(),
});
type User = z.infer<typeof User>;

const Assistant = Base.extend({
  message: z.object({
    id: z.string().nullish(),
    model: z.string().nullish(),
    stop_reason: z.string().nullish(),
    content: z.array(Block).nullish(),
    /** Read field by field with count(): a missing or odd count is 0, never a schema failure that loses the entry. */
    usage: z.unknown(),
  }),
  isUnmetered: z.boolean().nullish(),
  isApiErrorMessage: z.boolean().nullish(),
  apiErrorStatus: z.number().nullish(),
  apiErrorType: z.string().nullish(),
});
type Assistant = z.infer<typeof Assistant>;

const TurnDuration = Base.extend({
  durationMs: z.number().nullish(),
  pendingBackgroundAgentCount: z.number().nullish(),
});
type TurnDuration = z.infer<typeof TurnDuration>;

type Base = z.infer<typeof Base>;
type Emit = Omit<LogEvent, 'agent' | 'sessionId' | 'at' | 'cwd' | 'turn'>;

/** What the decoder remembers about the turn in progress (one transcript = one session). */
interface Turn {
  id?: string;
  /** Set once the turn ended; a second, different failure for the same turn end is not reported. */
  outcome?: 'completed' | 'failed';
  /** tool_use id → tool name, to tell a dismissed question from a rejected permission. */
  tools: Map<string, string>;
}

export function createClaudeDecoder(onProblem?: (kind: string, detail: string) => void, _file?: string, usage?: UsageSink): LineDecoder {
  return new ClaudeDecoder(onProblem, usage);
}

/** One transcript's reader: the turn in progress is all it keeps. */
class ClaudeDecoder implements LineDecoder {
  readonly problems: ProblemCounter;
  private turn: Turn = { tools: new Map() };
  private readonly usage?: ClaudeUsage;

  constructor(onProblem?: (kind: string, detail: string) => void, usage?: UsageSink) {
    this.problems = new ProblemCounter(onProblem);
    if (usage) this.usage = new ClaudeUsage(usage);
  }

  private event(entry: Base, e: Emit): LogEvent[] {
    const at = epochMs(entry.timestamp);
    if (Number.isNaN(at)) {
      this.problems.count('timestamp', `${entry.type}: ${entry.timestamp}`);
      return [];
    }
    const out: LogEvent = { agent: 'claude-code', sessionId: entry.sessionId, at, ...e };
    if (entry.cwd) out.cwd = entry.cwd;
    if (this.turn.id) out.turn = this.turn.id;
    return [out];
  }

  /** A failure ends the turn; only the first one per turn end is reported (rejection, then its interruption line). */
  private fail(entry: Base, reason: string, ev: string): LogEvent[] {
    if (this.turn.outcome === 'failed') return [];
    this.turn.outcome = 'failed';
    return this.event(entry, { state: 'failed', reason, evidence: ev });
  }

  private onUser(u: User): LogEvent[] {
    const blocks = typeof u.message.content === 'string' ? undefined : u.message.content;
    const results = blocks?.filter((b) => b.type === 'tool_result') ?? [];
    if (results.length > 0) return this.onToolResult(u, results);
    if (!isPrompt(u)) {
      const text = typeof u.message.content === 'string' ? u.message.content : firstText(blocks ?? []);
      return text?.startsWith(INTERRUPTED) ? this.fail(u, 'interrupted', evidence('claude.user', text)) : [];
    }
    this.turn = { id: u.uuid ?? undefined, tools: new Map() };
    const kind = u.origin?.kind ?? u.turnOrigin ?? u.promptSource ?? 'prompt';
    return this.event(u, { state: 'working', evidence: evidence('claude.prompt', kind), prompt: true });
  }

  private onToolResult(u: User, results: Block[]): LogEvent[] {
    if (u.toolDenialKind === 'user-rejected') {
      const tool = results.map((r) => this.turn.tools.get(r.tool_use_id ?? '')).find((n) => n !== undefined) ?? 'tool';
      return this.fail(u, denialReason(tool, u.toolDenialBeforeRun), evidence('claude.tool-result', `${tool} ${u.toolDenialKind}`));
    }
    // A result means the turn goes on (also after an approved dialog or a failed command).
    this.turn.outcome = undefined;
    return this.event(u, { state: 'working', evidence: evidence('claude.tool-result', u.toolDenialKind ?? 'result') });
  }

  private onAssistant(a: Assistant): LogEvent[] {
    this.usage?.assistant(a, true);
    for (const b of a.message.content ?? []) if (b.type === 'tool_use' && b.id && b.name) this.turn.tools.set(b.id, b.name);
    if (!a.isApiErrorMessage) return [];
    const reason = a.apiErrorStatus ? `API error ${a.apiErrorStatus}` : 'API error';
    return this.fail(a, reason, evidence('claude.api-error', a.apiErrorType ?? firstText(a.message.content ?? []) ?? 'error'));
  }

  private onTurnDuration(t: TurnDuration): LogEvent[] {
    const pending = t.pendingBackgroundAgentCount ?? 0;
    if (pending > 0) {
      // The main turn is over but background agents still run; their task-notification turn ends it.
      return this.event(t, { state: 'working', evidence: evidence('claude.turn-duration', `pendingBackgroundAgentCount ${pending}`) });
    }
    if (this.turn.outcome === 'failed') return [];
    this.turn.outcome = 'completed';
    return this.event(t, { state: 'completed', evidence: evidence('claude.turn-duration', `durationMs ${t.durationMs ?? '?'}`) });
  }

  private decode(entry: Record<string, unknown>): LogEvent[] {
    // Subagent entries: the main turn's entries say what matters; a subagent's calls still cost (claudeUsage.ts).
    if (entry.isSidechain === true)
      return entry.type === 'assistant' && this.usage ? this.checked(Assistant, entry, (a) => this.onSideCall(a)) : [];
    switch (entry.type) {
      case 'user':
        return this.checked(User, entry, (u) => this.onUser(u));
      case 'assistant':
        return this.checked(Assistant, entry, (a) => this.onAssistant(a));
      case 'system':
        if (entry.subtype === 'compact_boundary' && this.usage) return this.checked(Base, entry, (b) => this.onCompacted(b));
        return entry.subtype === 'turn_duration' ? this.checked(TurnDuration, entry, (t) => this.onTurnDuration(t)) : [];
      case 'cost-state':
        this.usage?.costState(entry);
        return [];
      default:
        return []; // unknown or irrelevant entry types are not problems
    }
  }

  private onSideCall(a: Assistant): LogEvent[] {
    this.usage?.assistant(a, false);
    return [];
  }

  private onCompacted(b: Base): LogEvent[] {
    this.usage?.compacted(b.sessionId, b.timestamp);
    return [];
  }

  private checked<S extends z.ZodTypeAny>(schema: S, entry: Record<string, unknown>, then: (v: z.infer<S>) => LogEvent[]): LogEvent[] {
    return checkedEntry(this.problems, ['sessionId', 'timestamp'], schema, entry, then);
  }

  line(text: string): LogEvent[] {
    try {
      if (!claudeMustParse(text)) return [];
      const entry = parseObject(text, this.problems);
      return entry ? this.decode(entry) : [];
    } catch (err) {
      // Defensive: a decoder must never throw into the file watcher.
      this.problems.count('internal', (err as Error).message);
      return [];
    }
  }
}

/**
 * A turn-starting prompt, by Claude Code's own test: not meta, and marked as a turn (turnOrigin, promptSource or
 * a human/task-notification origin). Local command echoes and compaction summaries have none of these.
 */
function isPrompt(u: User): boolean {
  if (u.isMeta || u.isCompactSummary) return false;
  const kind = u.origin?.kind;
  return u.turnOrigin != null || u.promptSource != null || kind === 'human' || kind === 'task-notification';
}

function firstText(blocks: Block[]): string | undefined {
  for (const b of blocks) if (b.type === 'text' && typeof b.text === 'string') return b.text;
  return undefined;
}

/** A dialog rejection has toolDenialBeforeRun; Esc during a running command does not. */
function denialReason(tool: string, beforeRun: boolean | null | undefined): string {
  if (tool === 'AskUserQuestion') return 'question dismissed';
  return beforeRun ? 'permission rejected' : 'interrupted';
}
