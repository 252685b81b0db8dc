import type { AgentKind } from '../../common/agents';
import type { Detection } from '../../detect/types';

/** What a process-tree scan found under a terminal's shell. */
export interface ProcessFinding {
  agent: AgentKind;
  evidence: string;
  cwd?: string;
  /** Found in a terminal revived after a window reload: it started before. */
  revived?: boolean;
}

/**
 * What a new finding says about an unread terminal, given the one before: an agent came (working, or at rest
 * when it ran before a reload), an agent is gone (exited), or nothing new.
 */
export function findingWord(prev: ProcessFinding | undefined, found: ProcessFinding | undefined): Omit<Detection, 't'> | undefined {
  if (found && (!prev || prev.agent !== found.agent)) {
    // An agent the user just started through something unread is at work; one found in a terminal revived
    // after a reload may be doing anything, and most agents most of the time sit at their prompt: its log,
    // its hooks or its next screen say more.
    return {
      agent: found.agent,
      state: found.revived ? 'idle' : 'working',
      source: 'process',
      evidence: found.revived ? `${found.evidence}, running since before this window (re)loaded` : found.evidence,
    };
  }
  if (!found && prev) return { agent: prev.agent, state: 'exited', source: 'process', evidence: `process ${prev.agent} is gone` };
  return undefined;
}
