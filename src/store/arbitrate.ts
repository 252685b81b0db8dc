import { isPresenceOnly, isPromptRecord, isReplyQuestion, OUTCOME_RANK, SAME_MOMENT_MS, startsOrContinuesTurn } from './arbitrationRules';
import type { Observation } from './observation';
import { OUTCOME_STATES } from '../common/states';

/**
 * What is shown for one agent session, given each source's latest word (any order). Pure; table-tested in
 * test/unit/store/arbitrate.test.ts. In order:
 *
 * 1. Exited (the process is gone) ends everything.
 * 2. The command line's and the process scan's "it runs" count only while no other source has spoken.
 * 3. An outcome (completed/failed) of the current turn beats the screen's ambiguous at-rest verdicts; the
 *    current turn is the one after the latest turn start any source saw (with SAME_MOMENT_MS of slack, as
 *    sources see the same moment at slightly different times), and never before the agent's own record of
 *    the latest prompt (no slack: that record is exact). Among several, the most authoritative wins.
 * 4. A reply that ends with a question (any source) refines a completed turn and beats the screen's at-rest
 *    verdicts, until something starts after it: it is shown as the wait it is.
 * 5. Otherwise the freshest word wins: a source that said nothing about the current turn does not hold
 *    the state against a fresher one.
 */
export function arbitrate(words: readonly Observation[], turnStartedAt = -Infinity, promptAt = -Infinity): Observation | undefined {
  if (words.length === 0) return undefined;
  const exited = newest(words.filter((w) => w.state === 'exited'));
  if (exited) return exited;
  const speaking = words.filter((w) => !isPresenceOnly(w));
  if (speaking.length === 0) return newest(words);
  const latest = newest(speaking)!;
  const turnStart = newest(speaking.filter(startsOrContinuesTurn));
  // The latest turn start any source ever reported, even one whose word has since been replaced.
  const startedAt = Math.max(turnStart?.at ?? -Infinity, turnStartedAt);
  const prompted = Math.max(promptAt, newest(speaking.filter(isPromptRecord))?.at ?? -Infinity);
  const floor = Math.max(startedAt - SAME_MOMENT_MS, Math.min(prompted, startedAt));
  const current = speaking.filter((w) => w.at >= floor);
  const outcome = mostAuthoritative(current.filter((w) => OUTCOME_STATES.has(w.state)));
  const asks = newest(current.filter(isReplyQuestion));
  // Nothing started after the reply that asks: it is how the turn ended, whoever said so and whoever spoke later.
  if (asks && (!outcome || outcome.state === 'completed') && !(startedAt > asks.at)) return asks;
  return outcome ?? latest;
}

function newest(ws: readonly Observation[]): Observation | undefined {
  let best: Observation | undefined;
  for (const w of ws) if (!best || w.at > best.at) best = w;
  return best;
}

function mostAuthoritative(ws: readonly Observation[]): Observation | undefined {
  let best: Observation | undefined;
  for (const w of ws) {
    if (!best) best = w;
    else {
      const d = OUTCOME_RANK[w.source] - OUTCOME_RANK[best.source];
      if (d > 0 || (d === 0 && w.at > best.at)) best = w;
    }
  }
  return best;
}
