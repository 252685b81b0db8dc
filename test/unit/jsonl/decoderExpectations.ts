import type { LogEvent } from '../../../src/jsonl';

/**
 * How each recorded session log must decode (decoders.test.ts), keyed `<origin>/<agent>/<scenario>`: read from
 * the scenario's name and description and the CLI's FACTS.md, not from the decoder's output.
 */
/** What each scenario must end in, from its name and description, not from the decoder's output. */
export interface Expect {
  /** No events at all (the CLI was never given a prompt). */
  none?: true;
  final?: LogEvent['state'];
  reason?: string;
  /** At least this many completed turns (multi-turn scenarios). */
  completed?: number;
  /** The final event is held until the agent's turn-end hook (Gemini's and Qwen Code's replies, Qwen Code's retried errors). */
  held?: true;
}

const DONE: Expect = { final: 'completed' };
const IDLE: Expect = { none: true };
const INTERRUPTED: Expect = { final: 'failed', reason: 'interrupted' };
/** Completed once the agent says the turn ended: the last event is a reply held for that word (`ifTurnEnded`). */
const HELD: Expect = { final: 'completed', held: true };

export const EXPECTED: Record<string, Expect> = {
  'shared/claude-code/01-idle-start': IDLE,
  'shared/claude-code/02-plain-text': DONE,
  'shared/claude-code/04-bash-permission-approve': DONE,
  'shared/claude-code/08-esc-interrupt': INTERRUPTED,
  'shared/claude-code/10-multiturn-write-exit': { final: 'completed', completed: 2 },
  'shared/codex/01-idle-start': IDLE,
  'shared/codex/02-plain-answer': DONE,
  'shared/codex/04-approval-approve': DONE,
  'shared/codex/07-interrupt-esc': INTERRUPTED,
  'shared/codex/09-multi-step-quit': DONE, // one turn of several steps
  'shared/opencode/01-idle': IDLE,
  'shared/opencode/02-plain-answer': DONE,
  'shared/opencode/04-permission-approve': DONE,
  'shared/opencode/07-interrupt-esc': INTERRUPTED,
  'shared/opencode/09-multistep-quit': DONE, // one turn of several steps
  'live/claude-code/01-idle-start': IDLE,
  'live/claude-code/02-plain-answer': DONE,
  'live/claude-code/03-question-reply': DONE,
  'live/claude-code/04-bash-permission-approve': DONE,
  'live/claude-code/05-bash-permission-deny': { final: 'failed', reason: 'permission rejected' },
  'live/claude-code/06-ask-user-question': DONE,
  'live/claude-code/06b-ask-user-question-dismiss': { final: 'failed', reason: 'question dismissed' },
  'live/claude-code/07-slow-streaming': DONE,
  'live/claude-code/08-esc-interrupt': INTERRUPTED,
  'live/claude-code/09-api-error-529': { final: 'failed', reason: 'API error 529' },
  'live/claude-code/10-multiturn-quit': { final: 'completed', completed: 2 },
  'live/claude-code/11-narrow-80x24-approval': DONE,
  // `claude -p` writes the prompt but no turn-duration record: the run's exit code decides (headless runs).
  'live/claude-code/20-headless-ok': { final: 'working' },
  'live/claude-code/21-headless-server-error': { final: 'failed', reason: 'API error 400' },
  'live/claude-code/22-folder-trust': IDLE,
  'live/claude-code/24-compact-after-question': DONE, // /compact writes no second turn
  'live/claude-code/26-auth-401': { final: 'failed', reason: 'API error 401' },
  'live/claude-code/27-model-404': { final: 'failed', reason: 'API error 404' },
  'live/claude-code/28-numbered-plan': DONE,
  'live/claude-code/25-background-subagent': DONE, // turn 1 ends with pendingBackgroundAgentCount 1 (working); the follow-up turn completes
  'live/claude-code/40-usage-two-turns': { final: 'completed', completed: 2 },
  'live/codex/01-idle-start': IDLE, // a rollout with only session_meta
  'live/codex/02-plain-answer': DONE,
  'live/codex/03-question-reply': DONE,
  'live/codex/04-approval-approve': DONE,
  'live/codex/05-approval-deny': INTERRUPTED, // Codex writes turn_aborted "interrupted" for a denied approval
  'live/codex/06-question-async': { final: 'completed', completed: 2 }, // the answer starts a second turn
  'live/codex/07-slow-streaming': DONE,
  'live/codex/08-esc-interrupt': INTERRUPTED,
  'live/codex/09-api-error-429': { final: 'failed', reason: 'API error 429' },
  'live/codex/20-headless-ok': DONE,
  'live/codex/21-headless-server-error': { final: 'failed', reason: 'error' }, // exec's rollout names no status
  'live/codex/22-hooks-review': IDLE,
  'live/codex/23-folder-access': IDLE,
  'live/codex/10-multi-step-quit': { final: 'completed', completed: 2 },
  'live/codex/11-narrow-80x24-approval': DONE,
  'live/codex/28-numbered-plan': DONE,
  'live/codex/29-quit-while-working': INTERRUPTED, // "Exit" in its dialog aborts the turn
  'live/codex/30-slash-quit-while-working': { final: 'working' }, // /quit leaves the turn open in the rollout
  'live/codex/40-usage-two-turns': { final: 'completed', completed: 2 },
  'live/opencode/01-idle-start': IDLE,
  'live/opencode/02-plain-answer': DONE,
  'live/opencode/03-question-reply': DONE,
  'live/opencode/04-permission-approve': DONE,
  'live/opencode/05-permission-reject': { final: 'failed', reason: 'permission rejected' },
  'live/opencode/06-question-answer': DONE,
  'live/opencode/06b-question-dismiss': { final: 'failed', reason: 'question dismissed' },
  'live/opencode/07-slow-streaming': DONE,
  'live/opencode/08-esc-interrupt': INTERRUPTED,
  'live/opencode/09-api-error-401': { final: 'failed', reason: 'API error 401' },
  'live/opencode/10-multistep-quit': { final: 'completed', completed: 2 }, // two prompts
  'live/opencode/40-usage-two-turns': { final: 'completed', completed: 2 }, // two prompts, a read in the first
  'live/opencode/28-numbered-plan': DONE,
  'live/opencode/20-headless-ok': DONE,
  'live/opencode/21-headless-server-error': { final: 'failed', reason: 'API error 400' },
  'live/opencode/11-narrow-80x24-permission': DONE,
  // Kilo: OpenCode's tables (FACTS.md §10); a rejected permission and an error end the turn in the assistant message.
  'live/kilocode/01-idle-start': IDLE, // no session before the first prompt
  'live/kilocode/02-plain-answer': DONE,
  'live/kilocode/03-question-reply': DONE,
  'live/kilocode/04-permission-approve': DONE,
  'live/kilocode/05-permission-reject': { final: 'failed', reason: 'permission rejected' },
  'live/kilocode/06-tool-runs': DONE,
  'live/kilocode/07-esc-interrupt': INTERRUPTED,
  'live/kilocode/08-server-error-500': { final: 'failed', reason: 'API error 500' },
  'live/kilocode/09-multistep-quit': { final: 'completed', completed: 2 }, // two prompts
  'live/kilocode/40-usage-two-turns': { final: 'completed', completed: 2 }, // two prompts, a read in the first
  'live/kilocode/16-api-error-400': { final: 'failed', reason: 'API error 400' },
  'live/kilocode/20-headless-ok': DONE,
  // The mock's 400 reads "Internal server error": retried five times, then failed (FACTS.md §9).
  'live/kilocode/21-headless-server-error': { final: 'failed', reason: 'API error 400' },
  'live/kilocode/28-numbered-plan': DONE,
  // Gemini: a finished turn ends on its last reply, held until the AfterAgent hook says the turn ended (HELD).
  'shared/gemini/04-shell-approve': HELD,
  'shared/gemini/07-esc-interrupt': INTERRUPTED,
  'live/gemini/01-idle-start': IDLE,
  'live/gemini/02-plain-answer': HELD,
  'live/gemini/03-question-reply': HELD,
  'live/gemini/04-shell-approve': HELD,
  'live/gemini/05-shell-deny': { final: 'failed', reason: 'permission rejected' },
  'live/gemini/07-esc-interrupt': INTERRUPTED,
  // Still retrying when the recording stopped: the prompt is all the log says.
  'live/gemini/08-server-error-500': { final: 'working' },
  'live/gemini/09-multistep-quit': { ...HELD, completed: 2 },
  'live/gemini/16-api-error-400': { final: 'failed', reason: 'API error 400' },
  'live/gemini/20-headless-ok': HELD,
  // Headless: retries, then the process exits 1 without an error record (the exit code decides).
  'live/gemini/21-headless-server-error': { final: 'working' },
  // Never given a prompt (Gemini deletes such a log at exit: saved empty).
  'live/gemini/22-first-start-vscode': IDLE,
  'live/gemini/28-numbered-plan': HELD,
  'live/gemini/40-usage-two-turns': { ...HELD, completed: 2 },
  'live/copilot/01-idle-start': IDLE,
  'live/copilot/02-plain-answer': DONE,
  // A reply that asks is a completed turn in the log (the screen and its hooks show the question).
  'live/copilot/03-question-reply': DONE,
  'live/copilot/04-shell-approve': DONE,
  // Esc on the dialog: the permission is not approved, then the turn is aborted.
  'live/copilot/05-shell-deny': { final: 'failed', reason: 'permission rejected' },
  'live/copilot/06-tool-runs': DONE,
  'live/copilot/07-esc-interrupt': INTERRUPTED,
  // Five retries, then one session.error: the log records only the attempt that gave up.
  'live/copilot/08-server-error-500': { final: 'failed', reason: 'API error 500' },
  'live/copilot/09-multistep-quit': { final: 'completed', completed: 2 },
  'live/copilot/16-api-error-400': { final: 'failed', reason: 'API error 400' },
  'live/copilot/20-headless-ok': DONE,
  'live/copilot/21-headless-server-error': { final: 'failed', reason: 'API error 400' },
  'live/copilot/28-numbered-plan': DONE,
  // Never given a prompt: Copilot writes no log (saved empty).
  'live/copilot/30-folder-trust': IDLE,
  'live/copilot/40-usage-two-turns': { final: 'completed', completed: 2 }, // two prompts, a view in the first
  'live/qwen/01-idle-start': IDLE,
  'live/qwen/02-plain-answer': HELD,
  'live/qwen/03-question-reply': HELD,
  'live/qwen/04-shell-approve': HELD,
  'live/qwen/05-shell-deny': { final: 'failed', reason: 'permission rejected' },
  'live/qwen/06-shell-runs': HELD,
  // The reply Esc cut short is written as any reply is; no Stop releases it (the screen says the turn stopped).
  'live/qwen/07-esc-interrupt': HELD,
  // Seven attempts, each failed one held until StopFailure says Qwen Code gave up.
  'live/qwen/08-server-error-500': { final: 'failed', reason: 'API error 500', held: true },
  'live/qwen/09-multistep-quit': { ...HELD, completed: 2 },
  'live/qwen/16-api-error-400': { final: 'failed', reason: 'API error 400' },
  'live/qwen/20-headless-ok': HELD,
  'live/qwen/21-headless-server-error': { final: 'failed', reason: 'API error 400' },
  'live/qwen/28-numbered-plan': HELD,
  'live/qwen/40-usage-two-turns': { ...HELD, completed: 2 },
  'live/droid/01-idle-start': IDLE,
  'live/droid/02-plain-answer': DONE,
  'live/droid/03-question-reply': DONE,
  'live/droid/04-execute-approve': DONE,
  // droid's outcome says `completed`; its tool result says the user refused the tool.
  'live/droid/05-execute-deny': { final: 'failed', reason: 'permission rejected' },
  'live/droid/06-tool-runs': DONE,
  'live/droid/07-esc-interrupt': INTERRUPTED,
  'live/droid/08-server-error-500': { final: 'failed', reason: 'API error 500' },
  'live/droid/09-multistep-quit': { final: 'completed', completed: 2 },
  'live/droid/16-api-error-400': { final: 'failed', reason: 'API error 400' },
  'live/droid/20-headless-ok': DONE,
  'live/droid/21-headless-server-error': { final: 'failed', reason: 'API error 400' },
  'live/droid/28-numbered-plan': DONE,
};
