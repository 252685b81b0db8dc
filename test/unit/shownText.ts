/**
 * What VS Code would make of a text we show: its link syntax, its icon syntax, and Markdown rendered the way a
 * tooltip is (CommonMark + GFM through `marked`, the library VS Code's own renderer is built on).
 */
import { marked } from 'marked';

/** VS Code's linkedText.ts, verbatim: what notifications and input-box prompts turn into clickable links. */
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

/** The links VS Code would render in a message or prompt: [label, target]. */
export function linksIn(text: string): [string, string][] {
  return [...text.matchAll(VSCODE_LINK)].map((m) => [m[1], m[2]]);
}

/** VS Code's icon syntax (iconLabels.ts): `$(name)` or `$(name~modifier)`, not an icon when a backslash precedes it. */
const ICON = /(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g;

/** The icons a label would render. */
export function iconsIn(text: string): string[] {
  return [...text.matchAll(ICON)].filter((m) => !m[1]).map((m) => m[2]);
}

/** A character that must never reach the screen raw: C0/DEL/C1, format characters (bidi, zero-width, tags), U+2028/9. */
const HIDDEN = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const JOINERS = new Set(['\u200c', '\u200d']);

/** Raw hidden characters in `text` (line feeds allowed where `lines` says so), as code points. */
export function hiddenIn(text: string, lines = false): string[] {
  return [...text.matchAll(HIDDEN)]
    .map((m) => m[0])
    .filter((c) => !JOINERS.has(c) && !(lines && c === '\n'))
    .map((c) => `U+${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}

/** Markdown as a tooltip shows it: HTML, with GFM (autolinks, tables, strikethrough), with and without hard breaks. */
export function renderMarkdown(md: string, breaks = false): string {
  return marked.parse(md, { async: false, gfm: true, breaks }) as string;
}

/** The elements our own tooltip Markdown produces: bold, code spans, paragraphs and lists. */
const OUR_TAGS = new Set(['p', 'strong', 'code', 'ul', 'li', 'br']);
/** The entities marked writes for text; any other (`&#x202E;`, `&rlm;`) came from the input. */
const OUR_ENTITIES = new Set(['&amp;', '&lt;', '&gt;', '&quot;', '&#39;']);

/** What is wrong with a tooltip once rendered: foreign elements (links, images, HTML), foreign entities, raw hidden characters. */
export function markdownProblems(md: string): string[] {
  const problems: string[] = [];
  for (const breaks of [false, true]) {
    const html = renderMarkdown(md, breaks);
    for (const m of html.matchAll(/<\/?([A-Za-z][A-Za-z0-9-]*)/g))
      if (!OUR_TAGS.has(m[1].toLowerCase())) problems.push(`element <${m[1]}>`);
    for (const m of html.matchAll(/&[#A-Za-z0-9]+;/g)) if (!OUR_ENTITIES.has(m[0])) problems.push(`entity ${m[0]}`);
    for (const c of hiddenIn(html, true)) problems.push(`raw ${c}`);
  }
  return [...new Set(problems)];
}

/** The text a reader sees in rendered HTML: tags removed, marked's entities decoded. */
export function visibleText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (e) => ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" })[e] ?? e)
    .trim();
}
