/**
 * Scenario model: what to type and when (steps), what the mock answers (mock script), and the
 * expected states as segments between anchors (resolved to times after the recording).
 */
import type { AgentName } from './homes';
import type { MockScript } from './mock/common';

export type State = 'working' | 'idle' | 'waiting' | 'stopped' | 'completed' | 'failed' | 'exited';

export type KeyName =
  'esc' | 'ctrl-c' | 'ctrl-d' | 'up' | 'down' | 'left' | 'right' | 'enter' | 'tab' | 'shift-tab' | 'backspace' | 'space';

interface StepBase {
  /** Name this moment (a mark in marks.jsonl, usable as an anchor). */
  mark?: string;
}

export type Step =
  | (StepBase & { do: 'type'; text: string; /** ms between characters; default: all at once */ charDelayMs?: number })
  | (StepBase & { do: 'enter' })
  | (StepBase & { do: 'key'; key: KeyName; /** repeat count */ times?: number })
  | (StepBase & { do: 'wait'; ms: number })
  | (StepBase & { do: 'waitText'; re: RegExp; timeoutMs?: number; optional?: boolean })
  | (StepBase & { do: 'waitGone'; re: RegExp; timeoutMs?: number; optional?: boolean })
  | (StepBase & { do: 'waitRequests'; count: number; timeoutMs?: number; optional?: boolean })
  | (StepBase & { do: 'waitExit'; timeoutMs?: number; optional?: boolean })
  | (StepBase & { do: 'quit' })
  | (StepBase & { do: 'mark' })
  /**
   * Live tests only: runs `fn` (acting from outside the terminal, as VS Code does, which may type into it as a
   * VS Code terminal's `sendText` does); a string it returns is a problem.
   */
  | (StepBase & { do: 'call'; fn: (terminal: { write(data: string): void }) => Promise<string | void> });

/**
 * Anchor: a moment on the recording's clock.
 *  - screen: first time the regex matches the rendered screen, at or after the previous anchor
 *  - gone:   first time the regex does NOT match the screen, at or after the previous anchor
 *  - title:  first time the window title (OSC 0/2) matches
 *  - mark:   a named step/mark (the first with that label at or after the previous anchor)
 *  - exit:   the process exit; end: the end of the recording; start: t = 0
 *  - plusMs: shift the resolved time
 */
export type Anchor =
  | { screen: RegExp; plusMs?: number; /** the regex must match at least this many times on the screen */ count?: number }
  | { gone: RegExp; plusMs?: number }
  | { title: RegExp; plusMs?: number }
  | { mark: string; plusMs?: number }
  | { exit: true; plusMs?: number }
  | { end: true }
  | { start: true };

export interface Segment {
  state: State;
  from: Anchor;
  /** Default: the next segment's `from` (or the recording end for the last one). */
  to?: Anchor;
  cue: string;
  accept?: State[];
  note?: string;
}

export interface Scenario {
  id: string;
  agent: AgentName;
  description: string;
  cols?: number;
  rows?: number;
  mock: MockScript;
  steps: Step[];
  expect: Segment[];
  /** Files for the project dir (default: homes.DEFAULT_FILES). */
  files?: Record<string, string>;
  /** Keep recording this long after the last step (default 3000 ms). */
  tailMs?: number;
  /** Hard limit for the whole run (default 240 s). */
  timeoutMs?: number;
  /** Extra CLI args / env. */
  args?: string[];
  env?: Record<string, string>;
  /** Claude only: permissions.defaultMode. */
  permissionMode?: string;
  /** Start in an untrusted project folder / with untrusted hooks (Codex), so the CLI's start-up dialogs show. */
  untrusted?: boolean;
  untrustedHooks?: boolean;
  /** Leave the CLI's first-start nudges on (see HomeOptions.firstStart). */
  firstStart?: boolean;
  /** pi: its example extensions to enable (see HomeOptions.piExtensions). */
  piExtensions?: string[];
  /** Notes copied into meta.json (e.g. substitutions). */
  notes?: string[];
}

// ---------------------------------------------------------------- small DSL

export const type = (text: string, mark?: string): Step => ({ do: 'type', text, mark });
export const enter = (mark?: string): Step => ({ do: 'enter', mark });
export const key = (k: KeyName, mark?: string, times?: number): Step => ({ do: 'key', key: k, mark, times });
export const wait = (ms: number, mark?: string): Step => ({ do: 'wait', ms, mark });
export const waitText = (re: RegExp, timeoutMs = 30_000, mark?: string, optional?: boolean): Step => ({
  do: 'waitText',
  re,
  timeoutMs,
  mark,
  optional,
});
export const waitGone = (re: RegExp, timeoutMs = 30_000, mark?: string): Step => ({ do: 'waitGone', re, timeoutMs, mark });
export const waitRequests = (count: number, timeoutMs = 30_000, mark?: string): Step => ({ do: 'waitRequests', count, timeoutMs, mark });
export const waitExit = (timeoutMs = 15_000, mark?: string): Step => ({ do: 'waitExit', timeoutMs, mark });
export const quit = (mark = 'quit'): Step => ({ do: 'quit', mark });
export const mark = (label: string): Step => ({ do: 'mark', mark: label });
export const call = (fn: (terminal: { write(data: string): void }) => Promise<string | void>, mark?: string): Step => ({
  do: 'call',
  fn,
  mark,
});
/** Type a prompt, then Enter as a separate write ~150 ms later; marks the Enter as `submitMark`. */
export const submit = (text: string, submitMark = 'submit'): Step[] => [type(text, `typing`), wait(150), enter(submitMark)];

export const screen = (re: RegExp, plusMs?: number, count?: number): Anchor => ({ screen: re, plusMs, count });
/** The regex matches at least `count` times on the screen (e.g. the 2nd completion line). */
export const screenN = (re: RegExp, count: number): Anchor => ({ screen: re, count });
export const gone = (re: RegExp, plusMs?: number): Anchor => ({ gone: re, plusMs });
export const title = (re: RegExp, plusMs?: number): Anchor => ({ title: re, plusMs });
export const atMark = (label: string, plusMs?: number): Anchor => ({ mark: label, plusMs });
export const atExit: Anchor = { exit: true };
export const atEnd: Anchor = { end: true };
export const atStart: Anchor = { start: true };
