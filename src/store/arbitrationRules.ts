import type { Observation } from './observation';
import { OUTCOME_STATES } from '../common/states';
import { type Source, speaksOfPresence } from '../common/sources';

/**
 * The data behind arbitration (src/store/arbitrate.ts), apart from the code that applies it.
 *
 * A turn's outcome is known for sure only from the agent's own records (session log, hook, the agent's own
 * status report such as Codex's OSC 7501); the screen's "stopped" is the ambiguous verdict.
 */

/** A turn in progress: a new one seen by any source supersedes the previous turn's outcome. */
export function startsOrContinuesTurn(o: Observation): boolean {
  // A reply that ends with a question is how a turn ended, not a new turn.
  return o.state === 'working' || (o.state === 'waiting' && !isReplyQuestion(o));
}

/**
 * The agent's own record that it took a prompt, from a source Agent Lens can believe: the turn starts exactly
 * then, so an outcome stamped before it (however close: a message typed ahead is sent the moment the previous
 * turn ends) is the previous turn's.
 */
export function isPromptRecord(o: Observation): boolean {
  return o.prompt === true && o.state === 'working' && (o.provenance === undefined || o.provenance === 'verified');
}

/** A reply that ends with a question: a turn's end that asks: listed, never notified. */
export function isReplyQuestion(o: Observation): boolean {
  return o.state === 'waiting' && o.wait?.kind === 'reply-question';
}

/**
 * Sources report a state when it begins, each on its own path: the screen lags its debounce (100–800 ms),
 * a log line lands when the agent flushes it, a hook fires 0.1–0.4 s before the screen redraws. Two words
 * this close together belong to the same moment of the same turn.
 */
export const SAME_MOMENT_MS = 1500;

/** Among outcomes of the same turn, the most authoritative wins. */
export const OUTCOME_RANK: Record<Source, number> = {
  // A headless run's exit code is its outcome, whatever its log or hooks said (the only outcome `command` gives).
  command: 5,
  // The process table gives no outcome.
  process: 0,
  'jsonl-watcher': 4,
  hook: 3,
  doorbell: 2,
  'pty-scrape': 1,
};

/**
 * The command line and the process scan only know that an agent runs (or is gone); while any other source has
 * spoken about the session, their "working" decides nothing. A headless run's exit code (completed / failed) is a
 * real outcome.
 */
export function isPresenceOnly(o: Observation): boolean {
  return speaksOfPresence(o.source) && o.state !== 'exited' && !OUTCOME_STATES.has(o.state);
}
