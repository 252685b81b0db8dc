import { ANSWER_HOLD_S } from '../agents/hookRow';

/**
 * What a user may decide for an agent's dialog from VS Code, and how it travels: the hub answers the held
 * hook's own request with a `HeldAnswer`, and the hook prints the agent's own decision JSON from it. Allow is
 * always *once*: no "always" grant, no changed input, no changed permissions, ever (those stay in the terminal).
 */

export type Decision =
  | { behavior: 'allow' }
  | { behavior: 'deny'; message?: string }
  /** A question dialog (Claude Code's AskUserQuestion) answered: one of its own options per question, by its text. */
  | { behavior: 'answer'; answers: Record<string, string> };

/** A question of a question dialog that can be answered from VS Code: its text and its options, in the agent's order. */
export interface AskedQuestion {
  question: string;
  options: string[];
}

/** The hub's answer to a held hook: a decision, or nothing (the dialog was answered elsewhere, or gave up). */
export interface HeldAnswer {
  decision?: Decision;
}

/** The longest denial message passed to the model. */
export const DENY_MESSAGE_MAX = 2000;

/** Where a held request is answered, on the hub. */
export const HOLD_PATH = '/v1/hooks/hold';

/**
 * How long a hook holds, in ms: under the `timeout` the installer writes (ANSWER_HOLD_S), so the agent never kills
 * it mid-answer; past it the hook exits with nothing and the dialog stays in the terminal.
 */
export const HOLD_GIVE_UP_MS = (ANSWER_HOLD_S - 10) * 1000;

/**
 * The decision as the hook reads it off the wire, or undefined for anything else: only allow, deny with a string
 * message, and a question's answers as strings survive, so nothing the hub sent could grant more than once.
 */
export function decisionOf(v: unknown): Decision | undefined {
  const d = v && typeof v === 'object' ? (v as { decision?: unknown }).decision : undefined;
  if (!d || typeof d !== 'object') return undefined;
  const { behavior, message, answers } = d as { behavior?: unknown; message?: unknown; answers?: unknown };
  if (behavior === 'allow') return { behavior: 'allow' };
  if (behavior === 'answer') return answersOf(answers);
  if (behavior !== 'deny') return undefined;
  return typeof message === 'string' && message.trim()
    ? { behavior: 'deny', message: Array.from(message).slice(0, DENY_MESSAGE_MAX).join('') }
    : { behavior: 'deny' };
}

/** The most questions one dialog may have for an answer from VS Code (Claude Code asks up to four). */
const QUESTIONS_MAX = 8;

function answersOf(v: unknown): Decision | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const entries = Object.entries(v as Record<string, unknown>);
  if (!entries.length || entries.length > QUESTIONS_MAX || entries.some(([, a]) => typeof a !== 'string')) return undefined;
  return { behavior: 'answer', answers: Object.fromEntries(entries) as Record<string, string> };
}

/**
 * The questions of an AskUserQuestion tool input that can be answered by choosing: every question has its text
 * and at least one option label, and none takes several answers. Undefined otherwise: answered in the terminal.
 */
export function askedQuestions(input: unknown): AskedQuestion[] | undefined {
  const qs = input && typeof input === 'object' ? (input as { questions?: unknown }).questions : undefined;
  if (!Array.isArray(qs) || !qs.length || qs.length > QUESTIONS_MAX) return undefined;
  const out: AskedQuestion[] = [];
  for (const q of qs as Record<string, unknown>[]) {
    if (!q || typeof q !== 'object' || typeof q.question !== 'string' || q.multiSelect === true || !Array.isArray(q.options))
      return undefined;
    const options = (q.options as unknown[]).map((o) => (o && typeof o === 'object' ? (o as { label?: unknown }).label : undefined));
    if (!options.length || options.some((o) => typeof o !== 'string')) return undefined;
    out.push({ question: q.question, options: options as string[] });
  }
  return out;
}

/**
 * JSON in ASCII: every other character as `\uXXXX`, still the same JSON. On Windows the answering hook runs in
 * PowerShell, which passes a program's output on as text through the console's code page; ASCII survives any.
 */
export function asciiJson(json: string): string {
  return json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Claude Code's `PermissionRequest` decision, as its hook prints it on stdout (the hook's decision channel).
 * `toolInput` is the hook's own stdin's: an answer to a question dialog goes back as Claude Code takes it (allow,
 * with the dialog's own input plus `answers`), and only if each question got one of its own options — whatever
 * the hub sent, nothing else reaches Claude Code. Undefined: print nothing.
 */
export function claudeDecisionJson(d: Decision, toolInput?: unknown): string | undefined {
  const out = (decision: object) => JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });
  if (d.behavior === 'allow') return out({ behavior: 'allow' });
  if (d.behavior === 'deny') return out({ behavior: 'deny', ...(d.message ? { message: d.message } : {}) });
  const asked = askedQuestions(toolInput);
  if (!asked || !chosenOptions(asked, d.answers)) return undefined;
  return out({ behavior: 'allow', updatedInput: { ...(toolInput as object), answers: d.answers } });
}

/**
 * The option chosen for each question, in the questions' order, when `answers` names exactly these questions and
 * gives each one of its own options; undefined otherwise (nothing is answered).
 */
export function chosenOptions(asked: readonly AskedQuestion[], answers: Readonly<Record<string, string>>): string[] | undefined {
  if (Object.keys(answers).length !== asked.length) return undefined;
  const out: string[] = [];
  for (const q of asked) {
    if (!Object.hasOwn(answers, q.question) || !q.options.includes(answers[q.question])) return undefined;
    out.push(answers[q.question]);
  }
  return out;
}

/** A decision as the log names it: the option, never the command or the answer's text. */
export function decisionWord(d: Decision): string {
  if (d.behavior === 'allow') return 'allow once';
  if (d.behavior === 'deny') return d.message ? 'deny, with a message' : 'deny';
  return `chose an option for ${Object.keys(d.answers).length} question(s)`;
}
