import type { Observation } from '../../store/observation';
import type { AgentKind } from '../../common/agents';
import type { WaitKind } from '../../common/states';
import type { Source } from '../../common/sources';

/**
 * What Agent Lens remembers of an agent's terminal across a window reload. With VS Code's persistent sessions
 * a reload revives the terminal with its agent still running, but the new window's sources know nothing: the
 * screen is not readable (no command start is seen) and hooks of a session the store never heard of are
 * dropped. These facts, kept in the workspace's state, put back what a revived terminal had: the agent's
 * session ids and the dialog that was waiting.
 */
export interface RememberedTerminal {
  /** The terminal's shell: the same process after a reload, so it names the terminal across windows. */
  shellPid: number;
  agent: AgentKind;
  agentPid?: number;
  cwd?: string;
  sessionIds: string[];
  wait?: RememberedWait;
  savedAt: number;
}

export interface RememberedWait {
  kind: WaitKind;
  question?: string;
  options?: string[];
  openedAt: number;
  openedBy: Source;
  /** A hook saw it: the hooks' marker for the agent process says whether it is still open. */
  byHook: boolean;
}

/** Remembered terminals are dropped after this long: a reload takes seconds, a restart of VS Code minutes. */
export const REMEMBERED_FOR_MS = 24 * 3600_000;

/**
 * The words a revived terminal gets back, once the process scan shows the same agent still running in it
 * (the same process where its pid was known). A waiting dialog seen by a hook comes back only while the hook's
 * marker for that agent process is still there (`markerOpen`); one seen only by the screen comes back as it
 * was (nothing else can tell), and any newer word of any source closes it as usual.
 */
export function rememberedWords(
  r: RememberedTerminal,
  terminalId: string,
  found: { agent: AgentKind; pid: number },
  markerOpen: boolean | undefined,
  now: number,
): Observation[] {
  if (r.agent !== found.agent || (r.agentPid !== undefined && r.agentPid !== found.pid) || now - r.savedAt > REMEMBERED_FOR_MS) return [];
  const locator = { terminalId, pid: found.pid, ...(r.cwd ? { cwd: r.cwd } : {}) };
  const out: Observation[] = r.sessionIds.map((sessionId) => ({
    source: 'process',
    at: r.savedAt,
    agent: r.agent,
    state: 'idle',
    evidence: `session ${sessionId}, remembered across the window reload`,
    locator: { ...locator, sessionId },
  }));
  const w = r.wait;
  if (w && (!w.byHook || markerOpen !== false)) {
    const sessionId = r.sessionIds.at(-1);
    out.push({
      source: w.openedBy,
      at: w.openedAt,
      agent: r.agent,
      state: 'waiting',
      evidence: `${w.kind}, open before the window reloaded`,
      wait: { kind: w.kind, ...(w.question ? { question: w.question } : {}), ...(w.options?.length ? { options: [...w.options] } : {}) },
      locator: { ...locator, ...(sessionId ? { sessionId } : {}) },
    });
  }
  return out;
}

/** Reads what the workspace state holds, dropping anything malformed (it is stored data, and may be old). */
export function parseRemembered(v: unknown, now: number): RememberedTerminal[] {
  if (!Array.isArray(v)) return [];
  return v.filter((r): r is RememberedTerminal => {
    const o = r as Partial<RememberedTerminal> | null;
    return (
      !!o &&
      Number.isInteger(o.shellPid) &&
      typeof o.agent === 'string' &&
      Array.isArray(o.sessionIds) &&
      o.sessionIds.every((s) => typeof s === 'string') &&
      typeof o.savedAt === 'number' &&
      now - o.savedAt <= REMEMBERED_FOR_MS
    );
  });
}
