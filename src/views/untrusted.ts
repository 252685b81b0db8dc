import { printable } from '../common/printable';

/**
 * Text from outside (terminal names, agents' questions and summaries, a workspace's team.toml, error reasons) as
 * text, never as markup. VS Code renders `[label](command:id?args "title")` in notification messages and in an
 * input box's prompt as a link that runs the command; quick-pick labels and status-bar texts render `$(icon)`;
 * tooltips are Markdown. Every such place gets its text through one of the functions below.
 */

/** How much of one text each place shows (code points); longer text is cut and ends with "…". */
export const LIMITS = {
  message: 1000,
  prompt: 1000,
  title: 200,
  placeHolder: 200,
  label: 200,
  description: 300,
  detail: 500,
  tooltip: 1000,
  /** One part of a longer text: a terminal name, a question, a summary. */
  name: 100,
  part: 500,
} as const;

/**
 * One line of text for a message, a prompt, a title, a placeholder, a quick-pick item, a status-bar tooltip or a
 * tree label: tabs and line breaks become spaces; control, bidi and other invisible characters are shown escaped
 * (`\u202e`); every `](` becomes `] (`, so no link can be formed; text longer than `max` code points is cut with
 * "…". Ordinary text passes unchanged, and applying it again changes nothing.
 */
export function plain(s: string, max: number = LIMITS.message): string {
  return cut(unlink(printable(s.replace(/\r\n|[\t\n\r]/g, ' '))), max);
}

/**
 * Text shown in full where a user decides on it (a command to allow, in a modal's detail, which VS Code renders
 * as plain text: no link, no icon): every line kept and nothing cut or rewritten — what is shown is what would
 * run — except that hidden characters (control, bidi, invisible) are shown escaped (`\u202e`, a tab `\u0009`).
 */
export function whole(s: string): string {
  return s
    .split(/\r\n|\n|\r/)
    .map((line) => printable(line))
    .join('\n');
}

/** Breaks every `](`: a link needs the two side by side, and the space added here creates no new pair. */
function unlink(s: string): string {
  return s.split('](').join('] (');
}

/** At most `max` code points (never half a surrogate pair), the last one "…" when something was cut. */
export function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  const points = Array.from(s);
  return points.length <= max ? s : `${points.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/**
 * Outside text inside a label that renders `$(icon)` (quick picks, the status bar): each `$(` gets a backslash,
 * which VS Code's icon syntax reads as "not an icon". One already escaped is left alone, so it is idempotent.
 */
export function noIcons(s: string): string {
  return s.replace(/(?<!\\)\$\(/g, '\\$(');
}

/** ASCII punctuation: the characters CommonMark lets a backslash escape, and every one that starts markup. */
const MD_PUNCTUATION = /[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/g;

/**
 * Outside text inside Markdown (tree tooltips): one line as with `plain()` (leading spaces dropped, since four of
 * them would start a code block), then every ASCII punctuation character backslash-escaped, so no link, image,
 * autolink, HTML, entity (`&#x202E;`), heading, list, table or emphasis survives; the text reads as it was.
 */
export function markdown(s: string, max: number = LIMITS.part): string {
  return cut(printable(s.replace(/\r\n|[\t\n\r]/g, ' ')).trimStart(), max).replace(MD_PUNCTUATION, '\\$&');
}

/** A quick-pick item as the pure layers describe it: `icon` is ours (a codicon id), the texts may be anyone's. */
export interface PickSpec {
  label: string;
  description?: string;
  detail?: string;
  icon?: string;
  picked?: boolean;
}

/** What VS Code is given for a quick-pick item: our icon in front, outside texts as plain text with no icons. */
export function shownPick(p: PickSpec): { label: string; description?: string; detail?: string; picked?: boolean } {
  const label = plain(noIcons(p.label), LIMITS.label);
  return {
    label: p.icon && /^[a-z0-9-]+(~[a-z]+)?$/.test(p.icon) ? `$(${p.icon}) ${label}` : label,
    ...(p.description !== undefined ? { description: plain(noIcons(p.description), LIMITS.description) } : {}),
    ...(p.detail !== undefined ? { detail: plain(noIcons(p.detail), LIMITS.detail) } : {}),
    ...(p.picked !== undefined ? { picked: p.picked } : {}),
  };
}

/** The texts of an input box. */
export interface InputTexts {
  title?: string;
  prompt?: string;
  placeHolder?: string;
}

/** What VS Code is given for an input box's title, prompt and placeholder (the prompt renders links). */
export function shownInput<T extends InputTexts>(o: T): T {
  return {
    ...o,
    ...(o.title !== undefined ? { title: plain(o.title, LIMITS.title) } : {}),
    ...(o.prompt !== undefined ? { prompt: plain(o.prompt, LIMITS.prompt) } : {}),
    ...(o.placeHolder !== undefined ? { placeHolder: plain(o.placeHolder, LIMITS.placeHolder) } : {}),
  };
}
