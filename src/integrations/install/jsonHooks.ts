import * as l10n from '@vscode/l10n';
import { applyEdits, type Edit, getNodeValue, type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser/lib/esm/main';
import { isOurHandler, type OwnEntries, ownEntries, withCommands } from './ownEntries';

/**
 * Our hooks in an agent's JSON settings (`{"hooks": {"<Event>": [{"matcher"?, "hooks": [handler]}]}}`: Claude
 * Code's settings.json, Codex's hooks.json, Gemini CLI's settings.json), as pure functions over the file's text.
 *
 * Edits are built here rather than with jsonc-parser's `modify`: with formatting options `modify` re-formats
 * every line an edit touches (a one-line file is rewritten whole), and without them its removals leave stray
 * whitespace or even join neighbours (`[1, 2]` minus `2` gives `[12]` in 3.3.1). Our own edits touch only the
 * bytes between two siblings, so removing what we appended gives back the exact bytes in the usual case.
 */

/** A settings file we must not or cannot change; the message says which file, what is wrong and what to do. */
export class InstallError extends Error {
  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(message);
    this.name = 'InstallError';
  }
}

/** One hook of ours: written as its own group `{matcher?, hooks: [{name?, type, command, timeout}]}`. */
export interface HookEntry {
  event: string;
  matcher?: string;
  command: string;
  timeout: number;
  name?: string;
}

export type InstallState = 'installed' | 'outdated' | 'partial' | 'absent';

type Json = Record<string, unknown>;

export function groupOf(e: HookEntry): Json {
  const handler = { ...(e.name ? { name: e.name } : {}), type: 'command', command: e.command, timeout: e.timeout };
  return { ...(e.matcher === undefined ? {} : { matcher: e.matcher }), hooks: [handler] };
}

function wanted(entries: readonly HookEntry[]): Map<string, Json[]> {
  const m = new Map<string, Json[]>();
  for (const e of entries) m.set(e.event, [...(m.get(e.event) ?? []), groupOf(e)]);
  return m;
}

// ---- reading -------------------------------------------------------------------------------------------------

interface Doc {
  text: string;
  root: Node;
  /** The `hooks` property node, when `hooks` is an object. */
  hooksProp?: Node;
  hooks?: Node;
  /** The value of `hooks`, whatever its type. */
  anyHooks?: Node;
}

function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

const fix = (): string => l10n.t('fix or move it, then install again');

/** Comments are kept (Gemini CLI allows them); a trailing comma is an error, as the agents' parsers say. */
function load(text: string, file: string): Doc {
  const errors: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = parseTree(text, errors, { disallowComments: false, allowTrailingComma: false });
  } catch (e) {
    // The parser recurses per level: a hostile depth overflows the stack, which would surface as a bare RangeError.
    if (e instanceof RangeError) throw new InstallError(l10n.t('{0} is nested too deeply to edit safely: {1}.', file, fix()), file);
    throw e;
  }
  if (errors.length || !root) {
    const e = errors[0];
    const where = e ? l10n.t(' ({0} at {1})', printParseErrorCode(e.error), lineCol(text, e.offset)) : '';
    throw new InstallError(l10n.t('{0} is not valid JSON{1}: {2}.', file, where, fix()), file);
  }
  if (root.type !== 'object') throw new InstallError(l10n.t('{0} holds a JSON {1}, not an object: {2}.', file, root.type, fix()), file);
  const hooksProp = root.children?.find((p) => p.children?.[0].value === 'hooks');
  const hooks = hooksProp?.children?.[1];
  return { text, root, anyHooks: hooks, ...(hooks?.type === 'object' ? { hooksProp, hooks } : {}) };
}

/**
 * Before adding: `hooks` and the events we write to must have the shape the agents read, once (with a key twice
 * the agents read the last, we would edit the first).
 */
function loadForAdd(text: string, file: string, events: Iterable<string>): Doc {
  const doc = load(text, file);
  const hooks = doc.anyHooks;
  const twice = (obj: Node, key: string) => (obj.children ?? []).filter((p) => p.children?.[0].value === key).length > 1;
  if (twice(doc.root, 'hooks')) throw new InstallError(l10n.t('{0} has "hooks" twice: {1}.', file, fix()), file);
  if (hooks && hooks.type !== 'object') throw new InstallError(l10n.t('"hooks" in {0} is a JSON {1}, not an object: {2}.', file, hooks.type, fix()), file);
  for (const event of events) {
    const v = doc.hooks && propValue(doc.hooks, event);
    if (doc.hooks && twice(doc.hooks, event)) throw new InstallError(l10n.t('"hooks" in {0} has "{1}" twice: {2}.', file, event, fix()), file);
    if (v && v.type !== 'array') throw new InstallError(l10n.t('"hooks.{0}" in {1} is a JSON {2}, not an array: {3}.', event, file, v.type, fix()), file);
  }
  return doc;
}

function propValue(obj: Node, key: string): Node | undefined {
  return obj.children?.find((p) => p.children?.[0].value === key)?.children?.[1];
}

function handlerList(group: Node): Node | undefined {
  const hs = group.type === 'object' ? propValue(group, 'hooks') : undefined;
  return hs?.type === 'array' ? hs : undefined;
}

/** Exact command shapes only (./ownEntries.ts): a user's hook that merely mentions our reporter stays theirs. */
function isOurs(handler: Node, own: OwnEntries): boolean {
  return handler.type === 'object' && isOurHandler(getNodeValue(handler), own);
}

/** `ours`: every handler is ours (the whole group goes); `mixed`: a user put handlers of theirs beside ours. */
function kindOf(group: Node, own: OwnEntries): 'ours' | 'mixed' | 'user' {
  const hs = handlerList(group)?.children ?? [];
  const n = hs.filter((h) => isOurs(h, own)).length;
  return n === 0 ? 'user' : n === hs.length ? 'ours' : 'mixed';
}

/** Compares JSON values regardless of key order (a user's formatter may reorder our keys). */
function canon(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Json;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canon(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

const same = (a: unknown, b: unknown): boolean => canon(a) === canon(b);

// ---- edits ---------------------------------------------------------------------------------------------------

interface Style {
  eol: string;
  unit: string;
  /** Multi-line file; a one-line (minified) file gets one-line insertions. */
  pretty: boolean;
}

function styleOf(doc: Doc): Style {
  const { text, root } = doc;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const body = text.slice(root.offset, root.offset + root.length);
  const pretty = body.includes('\n') || !root.children?.length;
  // The smallest indentation is one level (JSON strings hold no raw newlines, so every line is structure).
  const indents = text.split('\n').map((l) => /^([ \t]+)\S/.exec(l)?.[1]).filter((x): x is string => !!x);
  // A fold, not Math.min(...list): spreading a file's worth of lines overflows the stack past ~100,000 of them.
  const unit = indents[0]?.startsWith('\t') ? '\t' : indents.length ? ' '.repeat(indents.reduce((m, x) => Math.min(m, x.length), Infinity)) : '  ';
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
  return JSON.stringify(value, null, s.unit).split('\n').join(s.eol + base);
}

function item(value: unknown, key: string | undefined, s: Style, base: string | undefined): string {
  return (key === undefined ? '' : `${JSON.stringify(key)}:${base === undefined ? '' : ' '}`) + serialize(value, s, base);
}

/**
 * Appends after the container's last child (object: as property `key`), in the style of its siblings: on a
 * line of its own below the last child's line, whose trailing comment stays where it was.
 */
function appendEdit(doc: Doc, container: Node, value: unknown, key?: string): Edit[] {
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

function intoEmpty(doc: Doc, container: Node, compact: string, pretty: (base: string) => string): Edit {
  const s = styleOf(doc);
  const open = container.offset + 1;
  const inner = doc.text.slice(open, end(container) - 1);
  const blank = /^\s*$/.test(inner);
  if (!s.pretty) return { offset: open, length: blank ? inner.length : 0, content: compact };
  const outer = lineIndent(doc.text, container.offset);
  const content = s.eol + outer + s.unit + pretty(outer + s.unit);
  return blank ? { offset: open, length: inner.length, content: content + s.eol + outer } : { offset: open, length: 0, content };
}

function replaceEdit(doc: Doc, node: Node, value: unknown): Edit[] {
  const s = styleOf(doc);
  const multiLine = doc.text.slice(node.offset, end(node)).includes('\n');
  return [{ offset: node.offset, length: node.length, content: serialize(value, s, multiLine ? lineIndent(doc.text, node.offset) : undefined) }];
}

/**
 * Takes out child `i` and one comma; a child on lines of its own takes those lines with it. Comments around it
 * stay: they are the user's. This undoes appendEdit to the byte.
 */
function removeEdit(text: string, container: Node, i: number): Edit[] {
  const kids = container.children ?? [];
  const child = kids[i];
  const [open, close] = [container.offset + 1, end(container) - 1];
  if (kids.length === 1 && /^\s*$/.test(text.slice(open, child.offset) + text.slice(end(child), close))) return [{ offset: open, length: close - open, content: '' }];
  const edits: Edit[] = [];
  const last = i === kids.length - 1;
  let [from, to] = [child.offset, end(child)];
  if (last && i > 0) edits.push({ offset: commaBetween(text, end(kids[i - 1]), child.offset), length: 1, content: '' });
  if (!last) to = commaBetween(text, to, kids[i + 1].offset) + 1;
  const below = startsLine(text, from) ? nextLine(text, to, false) : undefined;
  if (below !== undefined) [from, to] = [lineStart(text, from), below];
  else if (last && startsLine(text, from)) from = Math.max(open, lineStart(text, from) - (text[lineStart(text, from) - 2] === '\r' ? 2 : 1));
  else if (last) from -= /[ \t]*$/.exec(text.slice(0, from))![0].length;
  else to += /^[ \t]*/.exec(text.slice(to))![0].length;
  edits.push({ offset: from, length: to - from, content: '' });
  return edits;
}

// ---- planning: one edit at a time, re-parsed in between, so offsets are always fresh ---------------------------

/** The next removal of ours in events outside `keep`; an emptied group, event or `hooks` goes with it. */
function nextRemoval(doc: Doc, keep: ReadonlySet<string>, own: OwnEntries): Edit[] | undefined {
  const { root, hooks, hooksProp } = doc;
  if (!hooks || !hooksProp) return undefined;
  const props = hooks.children ?? [];
  for (const [pi, prop] of props.entries()) {
    const arr = prop.children?.[1];
    if (keep.has(String(prop.children?.[0].value)) || arr?.type !== 'array') continue;
    for (const [gi, g] of (arr.children ?? []).entries()) {
      const kind = kindOf(g, own);
      if (kind === 'user') continue;
      if (kind === 'mixed') {
        const hs = handlerList(g)!;
        return removeEdit(doc.text, hs, hs.children!.findIndex((h) => isOurs(h, own)));
      }
      if (arr.children!.length > 1) return removeEdit(doc.text, arr, gi);
      if (props.length > 1) return removeEdit(doc.text, hooks, pi);
      return removeEdit(doc.text, root, root.children!.indexOf(hooksProp));
    }
  }
  return undefined;
}

/** Brings one event's array to: the user's groups untouched, then ours (outdated ones replaced in place). */
function nextEventEdit(doc: Doc, arr: Node, want: readonly Json[], own: OwnEntries): Edit[] | undefined {
  const kids = arr.children ?? [];
  const mixed = kids.find((g) => kindOf(g, own) === 'mixed');
  if (mixed) {
    const hs = handlerList(mixed)!;
    return removeEdit(doc.text, hs, hs.children!.findIndex((h) => isOurs(h, own)));
  }
  const ours = kids.filter((g) => kindOf(g, own) === 'ours');
  for (const [i, g] of ours.entries()) {
    if (i >= want.length) return removeEdit(doc.text, arr, kids.indexOf(g));
    if (!same(getNodeValue(g), want[i])) return replaceEdit(doc, g, want[i]);
  }
  return ours.length < want.length ? appendEdit(doc, arr, want[ours.length]) : undefined;
}

function nextAddition(doc: Doc, want: Map<string, Json[]>, own: OwnEntries): Edit[] | undefined {
  if (!doc.hooks) return appendEdit(doc, doc.root, Object.fromEntries(want), 'hooks');
  for (const [event, groups] of want) {
    const arr = propValue(doc.hooks, event);
    const edit = arr ? nextEventEdit(doc, arr, groups, own) : appendEdit(doc, doc.hooks, groups, event);
    if (edit) return edit;
  }
  // Last, so `hooks` never empties on the way: ours in events the table no longer has.
  return nextRemoval(doc, new Set(want.keys()), own);
}

function converge(text: string, next: (t: string) => Edit[] | undefined): string {
  let out = text;
  // Each edit removes, replaces or adds one thing of ours; far more steps than that means a bug, not a big file.
  for (let step = 0; step < 10_000; step++) {
    const edits = next(out);
    if (!edits) return out;
    out = applyEdits(out, edits);
  }
  throw new Error(l10n.t('hook settings edit did not converge'));
}

const blank = (text: string | undefined): text is undefined => text === undefined || text.trim() === '';

/**
 * `text` with our `entries`: each event's groups of the user's stay first and untouched, ours follow. Equal
 * entries already there: the same text comes back. `text` undefined or blank: a new 2-space file. `own` says
 * which older entries are ours to replace (the entries themselves always are).
 */
export function addHooks(text: string | undefined, entries: readonly HookEntry[], file = 'The settings file', own = ownEntries()): string {
  const want = wanted(entries);
  if (blank(text)) return `${JSON.stringify({ hooks: Object.fromEntries(want) }, null, 2)}\n`;
  const mine = withCommands(own, entries.map((e) => e.command));
  return converge(text, (t) => nextAddition(loadForAdd(t, file, want.keys()), want, mine));
}

/** `text` without any handler of ours; groups, events and `hooks` that only held ours go too. */
export function removeHooks(text: string, file = 'The settings file', own = ownEntries()): string {
  if (blank(text)) return text;
  return converge(text, (t) => nextRemoval(load(t, file), new Set(), own));
}

/**
 * `installed`: exactly our entries; `outdated`: something of ours differs from them (older reporter path or
 * table); `partial`: ours are current but some are missing; `absent`: nothing of ours.
 */
export function installedState(text: string | undefined, entries: readonly HookEntry[], file = 'The settings file', own = ownEntries()): InstallState {
  if (blank(text)) return 'absent';
  const { hooks } = load(text, file);
  const mine = withCommands(own, entries.map((e) => e.command));
  const want = wanted(entries);
  let found = 0;
  let stale = false;
  let missing = 0;
  for (const prop of hooks?.children ?? []) {
    const arr = prop.children?.[1];
    const event = String(prop.children?.[0].value);
    if (arr?.type !== 'array' || !want.has(event)) {
      if (arr?.type === 'array' && arr.children?.some((g) => kindOf(g, mine) !== 'user')) stale = true;
      continue;
    }
    const groups = want.get(event)!;
    want.delete(event);
    const ours = (arr.children ?? []).filter((g) => kindOf(g, mine) === 'ours');
    if (arr.children?.some((g) => kindOf(g, mine) === 'mixed')) stale = true;
    for (const [i, g] of ours.entries()) {
      if (i < groups.length && same(getNodeValue(g), groups[i])) found++;
      else stale = true;
    }
    missing += Math.max(0, groups.length - ours.length);
  }
  for (const groups of want.values()) missing += groups.length;
  if (stale) return 'outdated';
  if (!found) return 'absent';
  return missing ? 'partial' : 'installed';
}
