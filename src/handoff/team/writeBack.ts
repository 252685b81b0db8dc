// team.toml, written: the file is the user's, with their comments and order, so a save from the UI rewrites
// exactly one agent's section and leaves every other byte alone. There is no rename: the key names the agent
// everywhere else (state folders, messages), so a new key is a new agent.
import * as l10n from '@vscode/l10n';
import * as fs from 'fs';
import * as path from 'path';
import { stringify } from 'smol-toml';
import { FileReadError, readRegularFile, writeFileAtomic } from '../../common/fsutil';
import { type ParsedTeam, parseTeam, TEAM_FILE_MAX, TeamError, workspaceTeamRefusal } from './registry';
import { isValidKey, SCALAR_FIELDS, scanToml, type TeamAgent, type TomlLine } from './schema';

interface Range {
  start: number;
  end: number;
}

interface Layout {
  lines: TomlLine[];
  /** Line indexes [from, to) of the `[K]` section, sub-tables included, foreign leading comments excluded. */
  main?: { from: number; to: number };
  /** `[K.x]` / `[[K.x]]` blocks elsewhere in the file: also K's, so they go when K is rewritten. */
  strays: { from: number; to: number }[];
  /** A root `K = {…}` or `K.x = …` line: K is not written as a section, and we won't guess how to rewrite it. */
  rootLine?: number;
}

const ownedBy = (l: TomlLine, key: string): boolean => l.kind === 'header' && l.keys?.[0] === key && (l.keys.length > 1 || !!l.array);
const isMainHeader = (l: TomlLine, key: string): boolean => l.kind === 'header' && !l.array && l.keys?.length === 1 && l.keys[0] === key;

function layout(text: string, key: string): Layout {
  const lines = scanToml(text);
  const firstHeader = lines.findIndex((l) => l.kind === 'header');
  const rootEnd = firstHeader < 0 ? lines.length : firstHeader;
  const root = lines.slice(0, rootEnd).findIndex((l) => l.kind === 'keyval' && l.keys?.[0] === key);
  // From a header, over K's own sub-tables, to the next foreign header; comments and blank lines right before
  // that header describe it, so they stay with it.
  const blockEnd = (from: number): number => {
    let to = from + 1;
    while (to < lines.length && !(lines[to].kind === 'header' && !ownedBy(lines[to], key))) to++;
    while (to > from + 1 && (lines[to - 1].kind === 'blank' || lines[to - 1].kind === 'comment')) to--;
    return to;
  };
  const m = lines.findIndex((l) => isMainHeader(l, key));
  const main = m >= 0 ? { from: m, to: blockEnd(m) } : undefined;
  const strays: Layout['strays'] = [];
  for (let i = 0; i < lines.length; i++) {
    if (main && i >= main.from && i < main.to) continue;
    if (ownedBy(lines[i], key)) {
      const to = blockEnd(i);
      strays.push({ from: i, to });
      i = to - 1;
    }
  }
  return { lines, main, strays, rootLine: root >= 0 ? root + 1 : undefined };
}

const offsets = (lines: TomlLine[], r: { from: number; to: number }): Range => ({
  start: lines[r.from].start,
  end: r.to > r.from ? lines[r.to - 1].end : lines[r.from].start,
});

/**
 * Replaces ranges (non-overlapping) in one pass: the kept pieces and the replacements joined once, because
 * splicing one edit at a time copies the whole file per edit (quadratic in a file of many stray blocks).
 */
export function splice(text: string, edits: (Range & { with: string })[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const e of [...edits].sort((a, b) => a.start - b.start)) {
    parts.push(text.slice(at, e.start), e.with);
    at = e.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

function checked(text: string, key: string, file: string): Layout {
  if (!isValidKey(key))
    throw new TeamError(
      file,
      l10n.t('invalid agent key {0}: use 1-64 letters, digits, "_" or "-", starting with a letter or digit', JSON.stringify(key)),
    );
  const l = layout(text, key);
  if (l.rootLine !== undefined) {
    throw new TeamError(
      file,
      l10n.t('[{0}] is written as a dotted key or inline table, not a [{0}] section; rewrite it as a section by hand to edit it here', key),
      {
        line: l.rootLine,
        field: `[${key}]`,
      },
    );
  }
  return l;
}

/** The new text with only agent.key's section changed; a new key is appended at the end. */
export function upsertAgentSection(text: string, agent: TeamAgent, file = 'team.toml'): string {
  const l = checked(text, agent.key, file);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const body = serializeAgent(agent, eol, file);
  const strays = l.strays.map((r) => ({ ...offsets(l.lines, r), with: '' }));
  if (l.main) return splice(text, [{ ...offsets(l.lines, l.main), with: body }, ...strays]);
  const rest = splice(text, strays);
  if (rest === '') return body;
  const ended = /\r?\n$/.test(rest) ? rest : rest + eol;
  return (/(^|\n)[ \t]*\r?\n$/.test(ended) ? ended : ended + eol) + body;
}

/** The text without key's section (and the comment block right above it); unchanged if there is none. */
export function removeAgentSection(text: string, key: string, file = 'team.toml'): string {
  const l = checked(text, key, file);
  const { lines } = l;
  const edits = l.strays.map((r) => ({ ...offsets(lines, r), with: '' }));
  if (l.main) {
    let { from, to } = l.main;
    let c = from;
    while (c > 0 && lines[c - 1].kind === 'comment') c--;
    // A comment block that starts the file is the file's own preamble, not this agent's.
    if (c > 0) from = c;
    // Take one side's blank lines, so the neighbours keep a single separation rather than a doubled one.
    if (to === lines.length || lines[to].kind === 'blank') while (from > 0 && lines[from - 1].kind === 'blank') from--;
    if (from === 0) while (to < lines.length && lines[to].kind === 'blank') to++;
    edits.push({ ...offsets(lines, { from, to }), with: '' });
  }
  return splice(text, edits);
}

/**
 * Saves one agent's section into the file. Refuses a file that does not parse now (it is the user's half-done
 * edit, never ours to clobber) and a result that would not read back as exactly this agent. With `checkFrom`
 * (the workspace folder, when the workspace chose the file) it refuses what TeamRegistry.load refuses: a link
 * on the way there or out of the workspace, so a save never lands outside it.
 */
export function writeAgentSection(file: string, agent: TeamAgent, opts: { checkFrom?: string } = {}): void {
  const refused = opts.checkFrom === undefined ? undefined : workspaceTeamRefusal(file, opts.checkFrom);
  if (refused) throw new TeamError(file, l10n.t('{0}; nothing was written', refused));
  const { target, text, mode } = readForRewrite(file);
  let before: ParsedTeam;
  try {
    before = parseTeam(text, file);
  } catch (e) {
    if (!(e instanceof TeamError)) throw e;
    throw new TeamError(file, l10n.t('{0} (not saving [{1}] over a file that does not load: fix this first)', e.problem, agent.key), {
      line: e.line,
      field: e.field,
    });
  }
  const out = upsertAgentSection(text, agent, file);
  let after: ParsedTeam;
  try {
    after = parseTeam(out, file);
  } catch (e) {
    if (!(e instanceof TeamError)) throw e;
    throw new TeamError(file, l10n.t('{0} (in the [{1}] being saved; nothing was written)', e.problem, agent.key), { field: e.field });
  }
  const json = (v: unknown): string =>
    JSON.stringify(v, (_k, x: unknown) =>
      isPlainTable(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
    );
  const others = (agents: TeamAgent[]): string => json(agents.filter((a) => a.key !== agent.key));
  const saved = after.agents.find((a) => a.key === agent.key);
  if (!saved || json(saved) !== json(normalize(agent)) || others(after.agents) !== others(before.agents)) {
    throw new TeamError(file, l10n.t('[{0}] would not read back as saved (a value TOML cannot hold?); nothing was written', agent.key), {
      field: `[${agent.key}]`,
    });
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  writeFileAtomic(target, out, mode);
}

/**
 * The file to replace (through a symlink, as dotfile managers keep it, so the rename replaces the real file and
 * not the link), its text and mode. Read as a regular file of at most TEAM_FILE_MAX bytes, like the registry.
 */
function readForRewrite(file: string): { target: string; text: string; mode?: number } {
  try {
    const target = fs.realpathSync(file);
    const text = readRegularFile(target, { max: TEAM_FILE_MAX }).toString('utf8');
    return { target, text, mode: fs.statSync(target).mode & 0o7777 };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT') return { target: file, text: '' };
    const why = e instanceof FileReadError ? e.message : String(err.code ?? err.message);
    throw new TeamError(file, l10n.t('cannot read the file ({0}); nothing was written', why));
  }
}

/** The agent as parseTeam would return it: only its known fields, every step with a `with`. */
function normalize(agent: TeamAgent): TeamAgent {
  const n: Record<string, unknown> = { key: agent.key };
  for (const f of SCALAR_FIELDS) n[f] = agent[f];
  n.dispatch_steps = agent.dispatch_steps.map((s) => ({ tool: s.tool, with: s.with ?? {} }));
  return n as unknown as TeamAgent;
}

// ---- serializing ----------------------------------------------------------------------------------------------

/** One section in a fixed, readable form: header, fields in schema order, then each step with an inline `with`. */
export function serializeAgent(agent: TeamAgent, eol = '\n', file = 'team.toml'): string {
  const k = agent.key;
  const out = [`[${k}]`];
  for (const f of SCALAR_FIELDS) {
    const v = agent[f];
    if (v !== undefined) out.push(`${f} = ${tomlValue(v, `[${k}].${f}`, file)}`);
  }
  agent.dispatch_steps.forEach((s, i) => {
    const at = `[${k}].dispatch_steps[${i + 1}]`;
    out.push(
      `[[${k}.dispatch_steps]]`,
      `tool = ${tomlValue(s.tool, `${at}.tool`, file)}`,
      `with = ${tomlValue(s.with ?? {}, `${at}.with`, file)}`,
    );
  });
  return out.join(eol) + eol;
}

const isPlainTable = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

// Tables and arrays are written inline by hand: stringify would turn a table into a [section] and an array of
// tables into [[blocks]]. Leaves go through stringify, which knows TOML's escaping and number forms.
function tomlValue(v: unknown, field: string, file: string): string {
  if (Array.isArray(v)) return v.length ? `[ ${v.map((x, i) => tomlValue(x, `${field}[${i + 1}]`, file)).join(', ')} ]` : '[]';
  if (isPlainTable(v)) {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    return entries.length
      ? `{ ${entries.map(([key, x]) => `${tomlKey(key)} = ${tomlValue(x, `${field}.${key}`, file)}`).join(', ')} }`
      : '{}';
  }
  if (v === null || v === undefined || typeof v === 'function' || typeof v === 'symbol') {
    throw new TeamError(file, l10n.t('TOML has no way to write {0}; remove it or give it a value', v === null ? 'null' : typeof v), {
      field,
    });
  }
  const s = stringify({ v });
  return s.slice('v = '.length).replace(/\n$/, '');
}

const tomlKey = (k: string): string => (/^[A-Za-z0-9_-]+$/.test(k) ? k : stringify({ [k]: 0 }).replace(/ = 0\n$/, ''));
