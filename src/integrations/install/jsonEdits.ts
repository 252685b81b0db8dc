import * as l10n from '@vscode/l10n';
import type { Edit, Node } from 'jsonc-parser/lib/esm/main';

/**
 * Text edits of a JSON(C) file that keep its style: appended where its siblings sit, in their indentation and
 * line ends, removed with the lines and the comma they came with, so a removal undoes an addition to the byte.
 */

/** A file's text and its parse tree. */
export interface TextTree {
  text: string;
  root: Node;
}

interface Style {
  eol: string;
  unit: string;
  /** Multi-line file; a one-line (minified) file gets one-line insertions. */
  pretty: boolean;
}

function styleOf(doc: TextTree): Style {
  const { text, root } = doc;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const body = text.slice(root.offset, root.offset + root.length);
  const pretty = body.includes('\n') || !root.children?.length;
  // The smallest indentation is one level (JSON strings hold no raw newlines, so every line is structure).
  const indents = text
    .split('\n')
    .map((l) => /^([ \t]+)\S/.exec(l)?.[1])
    .filter((x): x is string => !!x);
  // A fold, not Math.min(...list): spreading a file's worth of lines overflows the stack past ~100,000 of them.
  const unit = indents[0]?.startsWith('\t')
    ? '\t'
    : indents.length
      ? ' '.repeat(indents.reduce((m, x) => Math.min(m, x.length), Infinity))
      : '  ';
  return { eol, unit, pretty };
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function lineIndent(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset), offset))![0];
}

function startsLine(text: string, offset: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, offset), offset));
}

const BLANK_TO_EOL = /[ \t]*\r?\n/y;
const COMMENT_TO_EOL = /[ \t]*(?:\/\/[^\r\n]*|\/\*[^\n]*?\*\/[ \t]*)?\r?\n/y;

/** The start of the next line, when only blanks (and, if `comment`, one comment) follow `at` on this one. */
function nextLine(text: string, at: number, comment: boolean): number | undefined {
  const re = comment ? COMMENT_TO_EOL : BLANK_TO_EOL;
  re.lastIndex = at;
  return re.exec(text) ? re.lastIndex : undefined;
}

/** The offset of the comma between two siblings (skipping blanks and comments, which may hold commas). */
function commaBetween(text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    if (text[i] === ',') return i;
    if (text.startsWith('//', i)) i = text.indexOf('\n', i) < 0 ? to : text.indexOf('\n', i);
    else if (text.startsWith('/*', i)) i = text.indexOf('*/', i + 2) + 1;
  }
  throw new Error(l10n.t('no comma between siblings'));
}

const end = (n: Node): number => n.offset + n.length;

/** `base` is the indentation of the line the value starts on; undefined writes it on one line. */
function serialize(value: unknown, s: Style, base: string | undefined): string {
  if (base === undefined) return JSON.stringify(value);
  return JSON.stringify(value, null, s.unit)
    .split('\n')
    .join(s.eol + base);
}

function item(value: unknown, key: string | undefined, s: Style, base: string | undefined): string {
  return (key === undefined ? '' : `${JSON.stringify(key)}:${base === undefined ? '' : ' '}`) + serialize(value, s, base);
}

/**
 * Appends after the container's last child (object: as property `key`), in the style of its siblings: on a
 * line of its own below the last child's line, whose trailing comment stays where it was.
 */
export function appendEdit(doc: TextTree, container: Node, value: unknown, key?: string): Edit[] {
  const { text } = doc;
  const s = styleOf(doc);
  const kids = container.children ?? [];
  if (!kids.length) return [intoEmpty(doc, container, item(value, key, s, undefined), (base) => item(value, key, s, base))];
  const last = kids[kids.length - 1];
  if (!s.pretty || !startsLine(text, last.offset)) return [{ offset: end(last), length: 0, content: `,${item(value, key, s, undefined)}` }];
  const base = lineIndent(text, last.offset);
  const below = nextLine(text, end(last), true);
  if (below === undefined) return [{ offset: end(last), length: 0, content: `,${s.eol}${base}${item(value, key, s, base)}` }];
  return [
    { offset: end(last), length: 0, content: ',' },
    { offset: below, length: 0, content: `${base}${item(value, key, s, base)}${s.eol}` },
  ];
}

function intoEmpty(doc: TextTree, container: Node, compact: string, pretty: (base: string) => string): Edit {
  const s = styleOf(doc);
  const open = container.offset + 1;
  const inner = doc.text.slice(open, end(container) - 1);
  const blank = /^\s*$/.test(inner);
  if (!s.pretty) return { offset: open, length: blank ? inner.length : 0, content: compact };
  const outer = lineIndent(doc.text, container.offset);
  const content = s.eol + outer + s.unit + pretty(outer + s.unit);
  return blank ? { offset: open, length: inner.length, content: content + s.eol + outer } : { offset: open, length: 0, content };
}

export function replaceEdit(doc: TextTree, node: Node, value: unknown): Edit[] {
  const s = styleOf(doc);
  const multiLine = doc.text.slice(node.offset, end(node)).includes('\n');
  return [
    { offset: node.offset, length: node.length, content: serialize(value, s, multiLine ? lineIndent(doc.text, node.offset) : undefined) },
  ];
}

/**
 * Takes out child `i` (or the run `i`..`j`, nothing but commas and blanks between them) and one comma; a child on
 * lines of its own takes those lines with it. Comments around it stay: they are the user's. This undoes appendEdit
 * to the byte.
 */
export function removeEdit(text: string, container: Node, i: number, j = i): Edit[] {
  const kids = container.children ?? [];
  const child = kids[i];
  const lastChild = kids[j];
  const [open, close] = [container.offset + 1, end(container) - 1];
  if (kids.length === j - i + 1 && /^\s*$/.test(text.slice(open, child.offset) + text.slice(end(lastChild), close)))
    return [{ offset: open, length: close - open, content: '' }];
  const edits: Edit[] = [];
  const last = j === kids.length - 1;
  let [from, to] = [child.offset, end(lastChild)];
  if (last && i > 0) edits.push({ offset: commaBetween(text, end(kids[i - 1]), child.offset), length: 1, content: '' });
  if (!last) to = commaBetween(text, to, kids[j + 1].offset) + 1;
  const below = startsLine(text, from) ? nextLine(text, to, false) : undefined;
  if (below !== undefined) [from, to] = [lineStart(text, from), below];
  else if (last && startsLine(text, from))
    from = Math.max(open, lineStart(text, from) - (text[lineStart(text, from) - 2] === '\r' ? 2 : 1));
  else if (last) from -= /[ \t]*$/.exec(text.slice(0, from))![0].length;
  else to += /^[ \t]*/.exec(text.slice(to))![0].length;
  edits.push({ offset: from, length: to - from, content: '' });
  return edits;
}
