import * as l10n from '@vscode/l10n';
import { applyEdits, type Edit, getNodeValue, type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser/lib/esm/main';
import { appendEdit, removeEdit, replaceEdit } from './jsonEdits';
import { isOurHandler, type OwnEntries, ownEntries, withCommands } from './ownEntries';

/**
 * Our hooks in an agent's JSON settings (`{"hooks": {"<Event>": [{"matcher"?, "hooks": [handler]}]}}`: Claude
 * Code's settings.json, Codex's hooks.json, Gemini CLI's settings.json; or the map of events at the top of the file,
 * `{"<Event>": [...]}`: droid's hooks.json, where `at` is 'top'), as pure functions over the file's text.
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
  /** More handler fields the agent reads, e.g. `shell` (src/integrations/hookShells.ts). */
  fields?: Readonly<Record<string, string>>;
}

export type InstallState = 'installed' | 'outdated' | 'partial' | 'absent';

/** Where a file keeps its map of events: under `hooks`, or at its top (the file is the map). */
export type EventsAt = 'hooks' | 'top';

type Json = Record<string, unknown>;

export function groupOf(e: HookEntry): Json {
  // Our own fields last-but-not-least: `fields` can add to a handler, never replace its type, command or timeout.
  const handler = { ...(e.name ? { name: e.name } : {}), ...e.fields, type: 'command', command: e.command, timeout: e.timeout };
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
function load(text: string, file: string, at: EventsAt): Doc {
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
  if (at === 'top') return { text, root, hooks: root, anyHooks: root };
  const hooksProp = root.children?.find((p) => p.children?.[0].value === 'hooks');
  const hooks = hooksProp?.children?.[1];
  return { text, root, anyHooks: hooks, ...(hooks?.type === 'object' ? { hooksProp, hooks } : {}) };
}

/**
 * Before adding: `hooks` and the events we write to must have the shape the agents read, once (with a key twice
 * the agents read the last, we would edit the first).
 */
function loadForAdd(text: string, file: string, events: Iterable<string>, at: EventsAt): Doc {
  const doc = load(text, file, at);
  const hooks = doc.anyHooks;
  const twice = (obj: Node, key: string) => (obj.children ?? []).filter((p) => p.children?.[0].value === key).length > 1;
  if (at === 'hooks' && twice(doc.root, 'hooks')) throw new InstallError(l10n.t('{0} has "hooks" twice: {1}.', file, fix()), file);
  if (hooks && hooks.type !== 'object')
    throw new InstallError(l10n.t('"hooks" in {0} is a JSON {1}, not an object: {2}.', file, hooks.type, fix()), file);
  for (const event of events) {
    const v = doc.hooks && propValue(doc.hooks, event);
    if (doc.hooks && twice(doc.hooks, event))
      throw new InstallError(l10n.t('"hooks" in {0} has "{1}" twice: {2}.', file, event, fix()), file);
    if (v && v.type !== 'array')
      throw new InstallError(l10n.t('"hooks.{0}" in {1} is a JSON {2}, not an array: {3}.', event, file, v.type, fix()), file);
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
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canon(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const same = (a: unknown, b: unknown): boolean => canon(a) === canon(b);

// ---- planning: one edit at a time, re-parsed in between, so offsets are always fresh ---------------------------

/** The next removal of ours in events outside `keep`; an emptied group, event or `hooks` goes with it. */
function nextRemoval(doc: Doc, keep: ReadonlySet<string>, own: OwnEntries): Edit[] | undefined {
  const { root, hooks, hooksProp } = doc;
  if (!hooks) return undefined;
  const props = hooks.children ?? [];
  for (const [pi, prop] of props.entries()) {
    const arr = prop.children?.[1];
    if (keep.has(String(prop.children?.[0].value)) || arr?.type !== 'array') continue;
    const kids = arr.children ?? [];
    const kinds = kids.map((g) => kindOf(g, own));
    const mixed = kinds.indexOf('mixed');
    if (mixed >= 0) {
      const hs = handlerList(kids[mixed])!;
      return removeEdit(
        doc.text,
        hs,
        hs.children!.findIndex((h) => isOurs(h, own)),
      );
    }
    if (!kinds.includes('ours')) continue;
    if (kinds.includes('user')) return oursRuns(doc.text, arr, kinds).flatMap(([i, j]) => removeEdit(doc.text, arr, i, j));
    // The last event goes with `hooks`; a file that is the map of events keeps its braces.
    if (props.length > 1 || !hooksProp) return removeEdit(doc.text, hooks, pi);
    return removeEdit(doc.text, root, root.children!.indexOf(hooksProp));
  }
  return undefined;
}

/**
 * Our groups in runs that can go in one edit each: neighbours with only a comma and blanks between them (a comment
 * between two ends a run, so it stays). All runs of an array in one step: one edit and one parse per group made
 * removing many of them quadratic (`npm run bench`, linear table).
 */
function oursRuns(text: string, arr: Node, kinds: readonly string[]): [number, number][] {
  const kids = arr.children ?? [];
  const runs: [number, number][] = [];
  for (let k = 0; k < kids.length; k++) {
    if (kinds[k] !== 'ours') continue;
    const run = runs.at(-1);
    const joined = run && run[1] === k - 1 && /^\s*,\s*$/.test(text.slice(kids[k - 1].offset + kids[k - 1].length, kids[k].offset));
    if (joined) run[1] = k;
    else runs.push([k, k]);
  }
  return runs;
}

/** Brings one event's array to: the user's groups untouched, then ours (outdated ones replaced in place). */
function nextEventEdit(doc: Doc, arr: Node, want: readonly Json[], own: OwnEntries): Edit[] | undefined {
  const kids = arr.children ?? [];
  const mixed = kids.find((g) => kindOf(g, own) === 'mixed');
  if (mixed) {
    const hs = handlerList(mixed)!;
    return removeEdit(
      doc.text,
      hs,
      hs.children!.findIndex((h) => isOurs(h, own)),
    );
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
export function addHooks(
  text: string | undefined,
  entries: readonly HookEntry[],
  file = 'The settings file',
  own = ownEntries(),
  at: EventsAt = 'hooks',
): string {
  const want = wanted(entries);
  const events = Object.fromEntries(want);
  if (blank(text)) return `${JSON.stringify(at === 'top' ? events : { hooks: events }, null, 2)}\n`;
  const mine = withCommands(
    own,
    entries.map((e) => e.command),
  );
  return converge(text, (t) => nextAddition(loadForAdd(t, file, want.keys(), at), want, mine));
}

/** `text` without any handler of ours; groups, events and `hooks` that only held ours go too. */
export function removeHooks(text: string, file = 'The settings file', own = ownEntries(), at: EventsAt = 'hooks'): string {
  if (blank(text)) return text;
  return converge(text, (t) => nextRemoval(load(t, file, at), new Set(), own));
}

/**
 * `installed`: exactly our entries; `outdated`: something of ours differs from them (older reporter path or
 * table); `partial`: ours are current but some are missing; `absent`: nothing of ours.
 */
export function installedState(
  text: string | undefined,
  entries: readonly HookEntry[],
  file = 'The settings file',
  own = ownEntries(),
  at: EventsAt = 'hooks',
): InstallState {
  if (blank(text)) return 'absent';
  const { hooks } = load(text, file, at);
  const mine = withCommands(
    own,
    entries.map((e) => e.command),
  );
  const want = wanted(entries);
  let found = 0;
  let stale = false;
  let missing = 0;
  for (const prop of hooks?.children ?? []) {
    const arr = prop.children?.[1];
    const event = String(prop.children?.[0].value);
    // Each group's kind once: it reads every handler's value.
    const kinds = arr?.type === 'array' ? (arr.children ?? []).map((g) => kindOf(g, mine)) : [];
    if (arr?.type !== 'array' || !want.has(event)) {
      if (kinds.some((k) => k !== 'user')) stale = true;
      continue;
    }
    const groups = want.get(event)!;
    want.delete(event);
    const ours = (arr.children ?? []).filter((_, i) => kinds[i] === 'ours');
    if (kinds.includes('mixed')) stale = true;
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
