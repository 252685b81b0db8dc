import type { WireReport } from '../wire';
import { type HookRule, type Meaning, obj, str } from '../../agents/hookMeaning';
import { toWord, type Word } from './meaning';
import { HOOK_EVENTS, inOpenCodeFamily, opencodeMeaning, type OpenCodeSessionState } from '../../agents/hookEvents';
import type { AgentKind } from '../../common/agents';

/** One report, read: which agent session it is about and what it says (undefined word: nothing to record). */
export interface MappedReport {
  agent: AgentKind;
  event: string;
  sessionId?: string;
  cwd?: string;
  logPath?: string;
  word?: Word;
  /** The agent says a turn ended (whatever its word): a log that holds the turn's last reply may now tell it. */
  turnEnd?: true;
}

/** Sessions whose mapping state is kept (OpenCode dialogs and texts, reminders). */
const SESSIONS_KEPT = 256;

/** The event's name: the hook's own field, OpenCode's (and Kilo's) bus type, Hermes's hook name. */
export function eventName(r: Pick<WireReport, 'agent' | 'payload'>): string {
  const p = r.payload;
  if (inOpenCodeFamily(r.agent)) return str(p, 'type') ?? '';
  if (r.agent === 'hermes') return str(p, 'hook') ?? '';
  return str(p, 'hook_event_name') ?? '';
}

export function sessionIdOf(r: Pick<WireReport, 'agent' | 'payload'>): string | undefined {
  if (inOpenCodeFamily(r.agent)) return str(obj(r.payload, 'properties'), 'sessionID');
  // Copilot CLI's Notification names its session in camelCase (`sessionId`), its other hooks in snake_case.
  return str(r.payload, 'session_id') ?? (r.agent === 'copilot' ? str(r.payload, 'sessionId') : undefined);
}

/**
 * What an event means, from the event alone where the agent allows (everything but OpenCode's and Kilo's bus
 * events), and the one before it in its session when known (HookRule's `before`).
 */
function statelessMeaning(r: Pick<WireReport, 'agent' | 'payload'>, before?: Record<string, unknown>): Meaning | undefined {
  const e = eventName(r);
  const table: Readonly<Record<string, HookRule>> | undefined = inOpenCodeFamily(r.agent) ? undefined : HOOK_EVENTS[r.agent];
  const rule = table && Object.prototype.hasOwnProperty.call(table, e) ? table[e] : undefined;
  return rule?.(r.payload, before);
}

/**
 * For the reporter's wait marker (./gate in commands.ts): a dialog opening sets it, anything else reported
 * clears it. Decided before the request is sent, so a gated close that follows at once is never skipped.
 */
export function markerAction(r: Pick<WireReport, 'agent' | 'payload'>): 'open' | 'close' {
  if (inOpenCodeFamily(r.agent)) return 'close';
  return statelessMeaning(r)?.kind === 'wait' ? 'open' : 'close';
}

/** Reads reports in the order an agent produced them; keeps the little state some agents need. */
export class HookMapper {
  private readonly opencode = new Map<string, OpenCodeSessionState>();
  /** Sessions whose latest mapped word is an open dialog: a reminder of it adds nothing. */
  private readonly dialogOpen = new Map<string, boolean>();
  /** Each session's latest report, for the rule of the next one (HookRule's `before`). */
  private readonly latest = new Map<string, Record<string, unknown>>();

  map(r: WireReport): MappedReport {
    const sessionId = sessionIdOf(r);
    const key = `${r.agent}:${sessionId ?? ''}`;
    const before = this.latest.get(key);
    remember(this.latest, key, r.payload);
    const meaning = inOpenCodeFamily(r.agent)
      ? opencodeMeaning(eventName(r), obj(r.payload, 'properties') ?? {}, this.opencodeState(key))
      : statelessMeaning(r, before);
    const out: MappedReport = {
      agent: r.agent,
      event: eventName(r),
      sessionId,
      cwd: str(r.payload, 'cwd') ?? r.cwd,
      logPath: str(r.payload, 'transcript_path'),
    };
    if (!meaning) return out;
    // A failed turn has ended too: a log may hold that turn's failure until the agent says it gave up (Qwen Code's retries).
    if (meaning.kind === 'turn-end' || meaning.kind === 'failed') out.turnEnd = true;
    if (meaning.kind === 'wait' && meaning.repeat && this.dialogOpen.get(key)) return out;
    const word = toWord(meaning);
    if (!word) return out;
    remember(this.dialogOpen, key, meaning.kind === 'wait');
    out.word = word;
    return out;
  }

  private opencodeState(key: string): OpenCodeSessionState {
    let s = this.opencode.get(key);
    if (!s) {
      s = { dialogOpen: false };
      remember(this.opencode, key, s);
    }
    return s;
  }
}

function remember<V>(m: Map<string, V>, key: string, v: V): void {
  m.delete(key);
  m.set(key, v);
  if (m.size > SESSIONS_KEPT) m.delete(m.keys().next().value as string);
}
