import * as l10n from '@vscode/l10n';
import type { DispatchStep } from './team/schema';

/**
 * The dispatch steps engine: a deterministic sequence, no model in the loop. Every step is
 * checked and every placeholder resolved before the first keystroke, so a bad step fails the dispatch with
 * nothing typed (a literal `{hwnd}` in a terminal is the seed's classic bug). Its errors are the dispatch's, which
 * the window shows: in the window's language (the CLI, with no bundle, in English); JSON keys and values as written.
 */

export const PLACEHOLDERS = ['message', 'task_id', 'brief_path', 'pid', 'title', 'hwnd'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type StepVars = Partial<Record<Placeholder, string>>;

/** The seed's tools, and its desktop aliases acting on the agent's terminal. */
const ACTIVATE = new Set(['terminal_activate', 'desktop_window_activate']);
const INPUT = new Set(['terminal_input', 'desktop_input']);
const SLEEP = '__sleep';

/** Keys a hotkey step may press, as the bytes a terminal receives. */
export const KEYS: Record<string, string> = {
  enter: '\r',
  return: '\r',
  tab: '\t',
  escape: '\x1b',
  esc: '\x1b',
  backspace: '\x7f',
  space: ' ',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  'ctrl+c': '\x03',
  'ctrl+d': '\x04',
  'ctrl+u': '\x15',
};

/** Enter is pressed at least this long after typing: a TUI takes text and Enter in one burst as a paste and does not submit it. */
export const ENTER_AFTER_TYPE_MS = 1000;
/**
 * What follows a key press ending in ESC waits this long, so it is not read as an Alt sequence. Above tmux's
 * default escape-time before 3.5 (500 ms), the longest of the usual escape timeouts (vim's ttimeoutlen is 100).
 */
export const ESC_SETTLE_MS = 600;
export const SLEEP_MAX_MS = 60_000;
/** The message is a short one-line pointer (rule 4); the brief file holds the rest. */
export const MESSAGE_MAX = 500;

export type Action =
  { kind: 'activate' } | { kind: 'sleep'; ms: number } | { kind: 'type'; text: string } | { kind: 'keys'; keys: string[]; data: string };

export class StepError extends Error {
  constructor(
    readonly step: number,
    message: string,
  ) {
    super(step >= 0 ? l10n.t('dispatch step {0}: {1}', step + 1, message) : message);
  }
}

/**
 * What is never typed: C0 (line breaks, ESC), DEL and C1, the Unicode line and paragraph separators (a TUI may
 * take them as a line break), and the bidi controls (U+061C, U+200E/F, U+202A–202E, U+2066–2069), which make
 * the line read differently on screen from what the agent gets.
 */
export const UNTYPEABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** `{message}` must be one line of text: a newline would run the rest as separate commands (rule 4). */
export function checkMessage(message: string): string {
  if (!message.trim()) throw new StepError(-1, l10n.t('the message is empty'));
  if (UNTYPEABLE.test(message))
    throw new StepError(
      -1,
      l10n.t(
        'the message must be one line without control characters, line separators or bidi controls: put the details in the brief file and send "Read {brief_path} and execute it."',
      ),
    );
  if (message.length > MESSAGE_MAX)
    throw new StepError(
      -1,
      l10n.t('the message has {0} characters (at most {1}): put the details in the brief file', message.length, MESSAGE_MAX),
    );
  return message;
}

/** Replaces `{name}` placeholders; unknown or empty ones are errors, never typed literally. */
export function render(value: string, vars: StepVars, step: number): string {
  // An exec loop and string concatenation rather than replace with a callback: replace kept every piece for one
  // final join, and a long value with many placeholders grew costlier per byte (`npm run bench`, linear table).
  const placeholder = /\{([A-Za-z_][A-Za-z0-9_]{0,31})\}/g;
  let out = '';
  let from = 0;
  for (let m = placeholder.exec(value); m; m = placeholder.exec(value)) {
    out += value.slice(from, m.index) + valueOf(m[1], vars, step);
    from = placeholder.lastIndex;
  }
  return from === 0 ? value : out + value.slice(from);
}

function valueOf(name: string, vars: StepVars, step: number): string {
  if (!(PLACEHOLDERS as readonly string[]).includes(name))
    throw new StepError(step, l10n.t('unknown placeholder {0} (known: {1})', `{${name}}`, PLACEHOLDERS.map((p) => `{${p}}`).join(', ')));
  const v = vars[name as Placeholder];
  if (v === undefined || v === '') throw new StepError(step, l10n.t('placeholder {0} has no value for this delivery', `{${name}}`));
  return v;
}

function renderAll(w: unknown, vars: StepVars, step: number): unknown {
  if (typeof w === 'string') return render(w, vars, step);
  if (Array.isArray(w)) return w.map((x) => renderAll(x, vars, step));
  if (w && typeof w === 'object') return Object.fromEntries(Object.entries(w).map(([k, v]) => [k, renderAll(v, vars, step)]));
  return w;
}

/** Turns steps into actions, every value resolved and checked; throws StepError before anything is typed. */
export function planSteps(steps: readonly DispatchStep[], vars: StepVars): Action[] {
  if (vars.message !== undefined) checkMessage(vars.message);
  const out: Action[] = [];
  steps.forEach((s, i) => {
    const w = renderAll(s.with ?? {}, vars, i) as Record<string, unknown>;
    if (ACTIVATE.has(s.tool)) out.push({ kind: 'activate' });
    else if (s.tool === SLEEP) out.push({ kind: 'sleep', ms: sleepMs(w.ms, i) });
    else if (INPUT.has(s.tool)) out.push(...inputActions(w, i));
    else throw new StepError(i, l10n.t('unknown tool "{0}" (use terminal_activate, __sleep or terminal_input)', s.tool));
  });
  if (!out.some((a) => a.kind === 'type' || a.kind === 'keys'))
    throw new StepError(-1, l10n.t('the steps type nothing: add a terminal_input step with text "{message}"'));
  return withPauses(out);
}

function sleepMs(v: unknown, i: number): number {
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > SLEEP_MAX_MS)
    throw new StepError(i, l10n.t('__sleep needs with.ms from 0 to {0}', SLEEP_MAX_MS));
  return Math.round(n);
}

function inputActions(w: Record<string, unknown>, i: number): Action[] {
  const mode = w.mode ?? 'type';
  if (mode === 'hotkey') {
    const keys = typeof w.keys === 'string' ? [w.keys] : w.keys;
    if (!Array.isArray(keys) || keys.length === 0 || !keys.every((k) => typeof k === 'string'))
      throw new StepError(i, l10n.t('a hotkey step needs with.keys, e.g. ["enter"]'));
    const names = keys.map((k) => k.toLowerCase().replace(/\s+/g, ''));
    const unknown = names.filter((k) => KEYS[k] === undefined);
    if (unknown.length) {
      const [listed, known] = [unknown.join(', '), Object.keys(KEYS).join(', ')];
      throw new StepError(
        i,
        unknown.length > 1 ? l10n.t('unknown keys {0} (known: {1})', listed, known) : l10n.t('unknown key {0} (known: {1})', listed, known),
      );
    }
    return [{ kind: 'keys', keys: names, data: names.map((k) => KEYS[k]).join('') }];
  }
  if (mode !== 'type') throw new StepError(i, l10n.t('with.mode must be "type" or "hotkey", not {0}', JSON.stringify(mode)));
  if (typeof w.text !== 'string' || !w.text) throw new StepError(i, l10n.t('a type step needs with.text, e.g. "{message}"'));
  if (UNTYPEABLE.test(w.text))
    throw new StepError(
      i,
      l10n.t(
        'with.text must not contain control characters, line or paragraph separators (U+2028/2029) or bidi controls: press keys in a hotkey step',
      ),
    );
  const send = w.send ?? 'none';
  if (send !== 'none' && send !== 'enter')
    throw new StepError(i, l10n.t('with.send must be "none" or "enter", not {0}', JSON.stringify(send)));
  const typed: Action[] = [{ kind: 'type', text: w.text }];
  // Typing and Enter stay separate actions even when one step asks for both (rule 2).
  if (send === 'enter') typed.push({ kind: 'keys', keys: ['enter'], data: '\r' });
  return typed;
}

/**
 * Makes sure a key press that follows typing waits ENTER_AFTER_TYPE_MS, and that anything written after a key
 * press ending in ESC waits ESC_SETTLE_MS, counting the sleeps already there. Without that pause a terminal (or
 * tmux) that reads ESC and the next bytes in one go takes them as one Alt/Meta sequence: "escape" then "y" would
 * arrive as Alt+y, and the TUI would see neither the escape nor the text.
 */
function withPauses(actions: Action[]): Action[] {
  const out: Action[] = [];
  let sinceType: number | undefined;
  let sinceEsc: number | undefined;
  for (const a of actions) {
    let wait = 0;
    if (a.kind === 'keys' && sinceType !== undefined) wait = Math.max(wait, ENTER_AFTER_TYPE_MS - sinceType);
    if ((a.kind === 'keys' || a.kind === 'type') && sinceEsc !== undefined) wait = Math.max(wait, ESC_SETTLE_MS - sinceEsc);
    if (wait > 0) out.push({ kind: 'sleep', ms: wait });
    out.push(a);
    if (a.kind === 'type') [sinceType, sinceEsc] = [0, undefined];
    else if (a.kind === 'sleep') {
      if (sinceType !== undefined) sinceType += a.ms;
      if (sinceEsc !== undefined) sinceEsc += a.ms;
    } else if (a.kind === 'keys') [sinceType, sinceEsc] = [undefined, a.data.endsWith('\x1b') ? 0 : undefined];
  }
  return out;
}

/** What delivers actions: a VS Code terminal, or a tmux pane under `agent-lens serve`. */
export interface DeliveryTarget {
  /** For `{pid}`, `{title}`, `{hwnd}` and the board. */
  pid?: number;
  title: string;
  /** The terminal's identity in this run (never a stored handle). */
  id: string;
  activate(): Promise<void>;
  write(data: string): Promise<void>;
}

/** Runs planned actions in order; a failing action names its step. */
export async function runActions(actions: readonly Action[], target: DeliveryTarget, sleep: (ms: number) => Promise<void>): Promise<void> {
  for (const [i, a] of actions.entries()) {
    try {
      if (a.kind === 'activate') await target.activate();
      else if (a.kind === 'sleep') await sleep(a.ms);
      else if (a.kind === 'type') await target.write(a.text);
      else await target.write(a.data);
    } catch (e) {
      throw new StepError(-1, l10n.t('action {0} ({1}) failed on {2}: {3}', i + 1, a.kind, target.title, (e as Error).message));
    }
  }
}
