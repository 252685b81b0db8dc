/**
 * One hook we register. `gated`: the event fires on every tool call and only ever closes a wait, so its command
 * costs one `test -e` unless a wait is open (see hookCommand). `timeout` is in the agent's own unit.
 */
export interface HookRow {
  event: string;
  matcher?: string;
  gated: boolean;
  timeout: number;
  /** `answer`: the answering hook runs instead of the reporter (it reports too, then may hold for a decision). */
  program?: 'answer';
}

/** The hooks an agent with a JSON settings file gets (src/agents/<id>/install.ts). */
export interface HookTable {
  rows: readonly HookRow[];
  /**
   * The file in the agent's configuration folder that takes them, when it is not `settings.json` with the events
   * under `hooks`: `eventsAtTop`, the file is the map of events itself (droid's `hooks.json`).
   */
  file?: HookFile;
  /** Put on every handler: Gemini CLI shows a hook's name on screen while it runs. */
  name?: string;
}

export interface HookFile {
  name: string;
  eventsAtTop?: true;
}

export const row = (event: string, timeout: number, gated = false, matcher?: string): HookRow => ({
  event,
  timeout,
  gated,
  ...(matcher === undefined ? {} : { matcher }),
});

/** Gemini CLI shows a hook's name while it runs; Agent Lens has always named its Gemini hooks this. */
export const OUR_HOOK_NAME = 'agent-lens';

/**
 * How long the answering hook may hold a dialog, in seconds: its row's `timeout`, so the agent never kills it
 * mid-answer (src/hooks/decision.ts gives up a little before).
 */
export const ANSWER_HOLD_S = 600;

/** The answering hook's row (src/integrations/reporter/permission.ts runs instead of the reporter). */
export const answerRow = (event: string, timeout: number, matcher?: string): HookRow => ({
  ...row(event, timeout, false, matcher),
  program: 'answer',
});
