// The shape of team.toml: what one agent's section may hold, and a line scanner that finds sections and fields
// in the raw text. The scanner exists because error messages must point at a line and write-back must keep
// every byte outside the section it rewrites; a TOML parser gives neither.
import * as l10n from '@vscode/l10n';
import { z } from 'zod';

export const MODES = ['background', 'embedded', 'standalone', 'web'] as const;
export type Mode = (typeof MODES)[number];

/** Modes whose terminal lives inside VS Code; the others are not drivable from VS Code. */
export const DRIVABLE_MODES: readonly Mode[] = ['background', 'embedded'];
export const isDrivable = (mode: Mode): boolean => DRIVABLE_MODES.includes(mode);

/** Fields older registries carried. Accepted so those files still load, ignored because nothing acts on them. */
export const DEPRECATED_FIELDS = [
  'cooldown_secs',
  'await_timeout_secs',
  'timeout_action',
  'timeout_script',
  'auto_approve',
  'auto_approve_script',
  'confirm_keywords',
] as const;

export interface DispatchStep {
  tool: string;
  with: Record<string, unknown>;
}

export interface TeamAgent {
  key: string;
  mode: Mode;
  display_name?: string;
  icon?: string;
  launch?: string;
  args?: string[];
  window_hint?: string;
  process?: string;
  note?: string;
  description?: string;
  /** The tmux pane target used when delivering headless, e.g. "agents:0.1". */
  tmux?: string;
  /**
   * Whether `POST /handoff/dispatch` (and `agent-lens dispatch --message`) may choose the line typed into this
   * agent's terminal. Off unless set: every process in every terminal holds the hub's token, so a caller-chosen
   * line would let any of them type into this agent. Dispatches started in VS Code are not affected.
   */
  allow_custom_message?: boolean;
  dispatch_steps: DispatchStep[];
}

export const stepSchema = z.object({
  tool: z.string().min(1),
  with: z.record(z.unknown()).default({}),
});

/** C0 (tab and line breaks included), DEL and C1, and the Unicode line separators. */
const LAUNCH_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

// Non-strict object: unknown fields are stripped here and reported as warnings by the caller, so a typo or a
// field from a newer version never makes the whole registry unusable.
export const sectionSchema = z.object({
  mode: z.enum(MODES),
  display_name: z.string().optional(),
  icon: z.string().optional(),
  // Typed into a shell as it is: a line break would run a second command, an escape sequence would act on the
  // terminal. Refused here so the file names the line, rather than at launch time.
  launch: z
    .string()
    .refine(
      (s) => !LAUNCH_CONTROLS.test(s),
      () => ({
        message: l10n.t(
          'must be one command line without control characters (no line breaks, tabs, escape sequences, DEL or C1 codes): put further commands in a script and launch that',
        ),
      }),
    )
    .optional(),
  // Quoted for the shell, but a control character would still reach the terminal raw when the line is typed.
  args: z
    .array(
      z.string().refine(
        (s) => !LAUNCH_CONTROLS.test(s),
        () => ({ message: l10n.t('must contain no control characters (no line breaks, tabs, escape sequences, DEL or C1 codes)') }),
      ),
    )
    .optional(),
  window_hint: z.string().optional(),
  process: z.string().optional(),
  note: z.string().optional(),
  description: z.string().optional(),
  tmux: z.string().optional(),
  allow_custom_message: z.boolean().optional(),
  dispatch_steps: z.array(stepSchema).default([]),
});

/** Every field but the steps, in the order write-back emits them. */
export const SCALAR_FIELDS = [
  'mode',
  'display_name',
  'icon',
  'launch',
  'args',
  'window_hint',
  'process',
  'note',
  'description',
  'tmux',
  'allow_custom_message',
] as const;
export const SECTION_FIELDS: readonly string[] = Object.keys(sectionSchema.shape);
export const STEP_FIELDS: readonly string[] = Object.keys(stepSchema.shape);

// Keys name folders and files elsewhere (per-agent state), so anything that could climb out of a folder is out.
export const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const isValidKey = (k: string): boolean => KEY_PATTERN.test(k);

/** What an agent without dispatch_steps gets: focus its terminal, let it settle, type the message, press enter. */
export const DEFAULT_STEPS: DispatchStep[] = [
  { tool: 'terminal_activate', with: {} },
  { tool: '__sleep', with: { ms: 400 } },
  { tool: 'terminal_input', with: { mode: 'type', text: '{message}', send: 'none' } },
  { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['enter'] } },
];

/** The steps to run for an agent; a copy, so a caller can't alter DEFAULT_STEPS for everyone. */
export const stepsOf = (agent: TeamAgent): DispatchStep[] =>
  (agent.dispatch_steps.length ? agent.dispatch_steps : DEFAULT_STEPS).map((s) => ({ tool: s.tool, with: structuredClone(s.with) }));

// ---- the text, line by line ---------------------------------------------------------------------------------

export interface TomlLine {
  /** Offset of the line's first character, and just past its line end. */
  start: number;
  end: number;
  /** `inside`: a continuation of a multi-line string or array, never a header whatever it looks like. */
  kind: 'blank' | 'comment' | 'header' | 'keyval' | 'inside';
  /** For headers; undefined keys means a malformed header (still a section boundary). */
  array?: boolean;
  keys?: string[];
}

type Open = { ml?: '"""' | "'''"; depth: number };

/** Splits TOML text into classified lines, tracking multi-line strings and arrays so their lines don't count. */
export function scanToml(text: string): TomlLine[] {
  const out: TomlLine[] = [];
  const st: Open = { depth: 0 };
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl + 1;
    const line = text.slice(start, nl < 0 ? end : nl).replace(/\r$/, '');
    if (st.ml || st.depth > 0) {
      scanValue(line, 0, st);
      out.push({ start, end, kind: 'inside' });
    } else {
      const lead = line.length - line.trimStart().length;
      const t = line.slice(lead);
      if (t === '') out.push({ start, end, kind: 'blank' });
      else if (t.startsWith('#')) out.push({ start, end, kind: 'comment' });
      else if (t.startsWith('[')) out.push({ start, end, kind: 'header', ...parseHeader(t) });
      else {
        const k = parseDottedKey(line, lead);
        const eq = k && line[k.next] === '=' ? k.next + 1 : line.indexOf('=');
        if (eq >= 0) scanValue(line, eq + 1, st);
        out.push({ start, end, kind: 'keyval', keys: k && line[k.next] === '=' ? k.keys : undefined });
      }
    }
    start = end;
  }
  return out;
}

function parseHeader(t: string): { array: boolean; keys?: string[] } {
  const array = t.startsWith('[[');
  const k = parseDottedKey(t, array ? 2 : 1);
  if (!k) return { array };
  const close = array ? ']]' : ']';
  if (!t.startsWith(close, k.next)) return { array };
  const rest = t.slice(k.next + close.length).trim();
  return rest === '' || rest.startsWith('#') ? { array, keys: k.keys } : { array };
}

/** Reads `a . "b" . 'c'` from s at i; `next` is the first non-space character after it. */
function parseDottedKey(s: string, i: number): { keys: string[]; next: number } | undefined {
  const keys: string[] = [];
  const skip = (): void => {
    while (s[i] === ' ' || s[i] === '\t') i++;
  };
  for (;;) {
    skip();
    if (s[i] === '"') {
      const r = readBasic(s, i + 1);
      if (!r) return undefined;
      keys.push(r.value);
      i = r.next;
    } else if (s[i] === "'") {
      const close = s.indexOf("'", i + 1);
      if (close < 0) return undefined;
      keys.push(s.slice(i + 1, close));
      i = close + 1;
    } else {
      const m = /^[A-Za-z0-9_-]+/.exec(s.slice(i));
      if (!m) return undefined;
      keys.push(m[0]);
      i += m[0].length;
    }
    skip();
    if (s[i] !== '.') return { keys, next: i };
    i++;
  }
}

const ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\x1b', '"': '"', '\\': '\\' };

/** A single-line basic string from just after its opening quote; undefined if it does not close on the line. */
function readBasic(s: string, i: number): { value: string; next: number } | undefined {
  let value = '';
  while (i < s.length) {
    const c = s[i];
    if (c === '"') return { value, next: i + 1 };
    if (c !== '\\') {
      value += c;
      i++;
      continue;
    }
    const e = s[i + 1];
    const hex = e === 'u' ? 4 : e === 'U' ? 8 : e === 'x' ? 2 : 0;
    if (hex) {
      const cp = parseInt(s.slice(i + 2, i + 2 + hex), 16);
      if (Number.isNaN(cp)) return undefined;
      value += String.fromCodePoint(cp);
      i += 2 + hex;
    } else {
      value += ESCAPES[e] ?? e;
      i += 2;
    }
  }
  return undefined;
}

/** Advances the open-construct state over a value's text, from i to the end of the line. */
function scanValue(s: string, i: number, st: Open): void {
  while (i < s.length) {
    if (st.ml) {
      if (st.ml === '"""' && s[i] === '\\') {
        i += 2;
        continue;
      }
      if (s.startsWith(st.ml, i)) {
        const q = st.ml[0];
        i += 3;
        // Up to two quotes right before the closing delimiter belong to the string: """a""""" ends at the last three.
        for (let n = 0; n < 2 && s[i] === q; n++) i++;
        st.ml = undefined;
      } else i++;
      continue;
    }
    const c = s[i];
    if (c === '#') return;
    if (c === '"' || c === "'") {
      const triple = c.repeat(3);
      if (s.startsWith(triple, i)) {
        st.ml = triple as Open['ml'];
        i += 3;
        continue;
      }
      if (c === '"') i = readBasic(s, i + 1)?.next ?? s.length;
      else {
        const close = s.indexOf("'", i + 1);
        i = close < 0 ? s.length : close + 1;
      }
      continue;
    }
    if (c === '[' || c === '{') st.depth++;
    else if (c === ']' || c === '}') st.depth = Math.max(0, st.depth - 1);
    i++;
  }
}
