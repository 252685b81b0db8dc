import type { Meaning } from '../../agents/hookMeaning';
import type { AgentState, WaitInfo } from '../../common/states';
import { lastQuestion } from '../../detect/question';

/** A hook event's meaning as the store takes it: a state, and what goes with it. */

export interface Word {
  state: AgentState;
  wait?: WaitInfo;
  reason?: string;
  /** Applies only to a session the store knows. */
  onlyKnown?: boolean;
  /** The turn's reply text, when the event carries it (routing triggers hand it on). */
  reply?: string;
  /** A submitted prompt: the agent's own word that a turn starts now. */
  prompt?: true;
}

export function toWord(m: Meaning): Word | undefined {
  switch (m.kind) {
    case 'wait':
      return { state: 'waiting', wait: m.wait };
    case 'working':
      return m.turnStart ? { state: 'working', prompt: true } : { state: 'working' };
    case 'turn-end': {
      const q = m.reply === undefined ? undefined : lastQuestion(m.reply);
      if (q) return { state: 'waiting', wait: { kind: 'reply-question', question: q } };
      return m.askOnly ? undefined : { state: 'completed', ...(m.reply === undefined ? {} : { reply: m.reply }) };
    }
    case 'failed':
      return { state: 'failed', reason: m.reason };
    case 'exited':
      return { state: 'exited', onlyKnown: true };
  }
}
