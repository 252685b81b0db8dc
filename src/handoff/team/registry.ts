// team.toml, read: every problem becomes one line that says where and what to fix, and a registry that keeps
// the last good version so a half-typed hand edit never takes agents away.
import { Emitter, type Event } from '../../common/emitter';
import * as l10n from '@vscode/l10n';
import * as fs from 'fs';
import * as path from 'path';
import { parse, TomlError } from 'smol-toml';
import { FileReadError, readRegularFile } from '../../common/fsutil';
import { firstProblem } from '../paths';
import type { z } from 'zod';
import { describe, fieldName, isTable, type Path, problemOf, valueAt } from './problems';
import {
  DEPRECATED_FIELDS,
  type DispatchStep,
  isValidKey,
  SCALAR_FIELDS,
  scanToml,
  SECTION_FIELDS,
  sectionSchema,
  STEP_FIELDS,
  type TeamAgent,
  type TomlLine,
} from './schema';
import { type Logger } from '../../common/log';

/**
 * A problem with team.toml. The message is one line, `file:line: [key].field: problem`; indexes in field
 * paths count from 1, as a reader counts `[[key.dispatch_steps]]` blocks.
 */
export class TeamError extends Error {
  readonly file: string;
  readonly line?: number;
  readonly field?: string;
  /** The message without the location, for callers that re-word it. */
  readonly problem: string;
  constructor(file: string, problem: string, at: { line?: number; field?: string } = {}) {
    const where = at.line !== undefined ? `${file}:${at.line}` : file;
    super(`${where}: ${at.field ? `${at.field}: ` : ''}${problem}`.replace(/\r?\n/g, ' '));
    this.name = 'TeamError';
    this.file = file;
    this.line = at.line;
    this.field = at.field;
    this.problem = problem;
  }
}

export interface ParsedTeam {
  agents: TeamAgent[];
  warnings: string[];
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
export const TEAM_FILE_MAX = 256 * 1024;
/** Warnings listed one by one per file; the rest are counted in one line. */
export const WARNINGS_MAX = 20;

export function parseTeam(text: string, file: string): ParsedTeam {
  const doc = parseToml(text, file);
  const lines = scanToml(text);
  const lineOf = (key: string, p: Path): number | undefined => locate(lines, key, p);
  const agents: TeamAgent[] = [];
  const warnings: string[] = [];
  let hidden = 0;
  for (const [key, raw] of Object.entries(doc)) {
    const warn = (p: Path, what: string): void => {
      // Each warning looks its line up; past the cap a hostile file of endless unknown fields would make that quadratic.
      if (warnings.length >= WARNINGS_MAX) return void hidden++;
      const line = lineOf(key, p);
      warnings.push(`${file}${line !== undefined ? `:${line}` : ''}: ${fieldName(key, p)} ${what}`);
    };
    agents.push(parseSection(key, raw, file, (p) => lineOf(key, p), warn));
  }
  if (hidden) warnings.push(`${file}: ${hidden} more unknown or deprecated field${hidden === 1 ? '' : 's'} ignored`);
  // JS objects put integer-like keys first; the file's own order is what a reader expects back (looked up once per
  // agent, not per comparison).
  const headers = new Map<string, number>();
  lines.forEach((l, i) => {
    if (l.kind === 'header' && !l.array && l.keys?.length === 1 && !headers.has(l.keys[0])) headers.set(l.keys[0], i + 1);
  });
  const order = new Map(agents.map((a) => [a.key, headers.get(a.key) ?? lineOf(a.key, []) ?? Number.MAX_SAFE_INTEGER]));
  agents.sort((a, b) => order.get(a.key)! - order.get(b.key)!);
  return { agents, warnings };
}

/** The TOML document, or a TeamError saying where the syntax broke; a file far past any real one is refused first. */
function parseToml(text: string, file: string): Record<string, unknown> {
  // A registry is a few KB; the TOML parser is superlinear on some hostile shapes (long dotted keys).
  if (text.length > TEAM_FILE_MAX)
    throw new TeamError(
      file,
      l10n.t(
        "is {0} KB; a team.toml is read up to {1} KB: remove what is not an agent's section",
        (text.length / 1024).toFixed(0),
        TEAM_FILE_MAX / 1024,
      ),
    );
  try {
    return parse(text) as Record<string, unknown>;
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    const what = e.message.split('\n')[0].replace(/^Invalid TOML document:\s*/, '');
    throw new TeamError(file, l10n.t('TOML syntax error at column {0}: {1}; fix the syntax', e.column, what), { line: e.line });
  }
}

/** One agent's section, checked: unknown fields warned about, the first schema problem thrown with its line. */
function parseSection(
  key: string,
  raw: unknown,
  file: string,
  lineOf: (p: Path) => number | undefined,
  warn: (p: Path, what: string) => void,
): TeamAgent {
  if (!isValidKey(key)) {
    throw new TeamError(
      file,
      l10n.t('invalid agent key {0}: use 1-64 letters, digits, "_" or "-", starting with a letter or digit', JSON.stringify(key)),
      { line: lineOf([]), field: fieldName(key, []) },
    );
  }
  if (!isTable(raw)) {
    throw new TeamError(
      file,
      l10n.t("expected a table [{0}] describing one agent, got {1}; move it under an agent's section or remove it", key, describe(raw)),
      { line: lineOf([]), field: key },
    );
  }
  for (const f of Object.keys(raw)) {
    if ((DEPRECATED_FIELDS as readonly string[]).includes(f)) warn([f], 'is deprecated and ignored');
    else if (!SECTION_FIELDS.includes(f)) warn([f], `is not a known field and is ignored (known: ${SECTION_FIELDS.join(', ')})`);
  }
  const steps = raw.dispatch_steps;
  if (Array.isArray(steps)) {
    steps.forEach((s, i) => {
      if (!isTable(s)) return;
      for (const f of Object.keys(s))
        if (!STEP_FIELDS.includes(f))
          warn(['dispatch_steps', i, f], `is not a known step field and is ignored (known: ${STEP_FIELDS.join(', ')})`);
      // Copied into plain objects later, such a key would not survive (or would reach a prototype): refuse it by name.
      if (isTable(s.with) && Object.keys(s.with).some((k) => FORBIDDEN_KEYS.has(k))) {
        throw new TeamError(file, l10n.t('keys __proto__, constructor and prototype are not allowed in with; rename it'), {
          line: lineOf(['dispatch_steps', i, 'with']),
          field: fieldName(key, ['dispatch_steps', i, 'with']),
        });
      }
    });
  }
  const r = sectionSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new TeamError(file, problemOf(issue, valueAt(raw, issue.path), key), {
      line: lineOf(issue.path),
      field: fieldName(key, issue.path),
    });
  }
  return toAgent(key, r.data);
}

/**
 * A missing file is an empty registry: most people have no team yet. The file is read only as a regular file of
 * at most TEAM_FILE_MAX bytes: a link to one is followed (dotfile managers keep team.toml as a link), but a FIFO,
 * a device such as /dev/zero or a folder is refused before a byte is read, so a planted one cannot hang the read.
 */
export function readTeamFile(file: string): ParsedTeam {
  let text: string;
  try {
    text = readRegularFile(file, { max: TEAM_FILE_MAX, followLink: true }).toString('utf8');
  } catch (e) {
    if (!(e instanceof FileReadError)) throw e;
    if (e.code === 'ENOENT') return { agents: [], warnings: [] };
    if (e.code === 'EFBIG')
      throw new TeamError(
        file,
        l10n.t("is over {0} KB, the most a team.toml is read: remove what is not an agent's section", TEAM_FILE_MAX / 1024),
      );
    throw new TeamError(file, l10n.t('cannot read the file: {0}', e.message));
  }
  return parseTeam(text, file);
}

/**
 * Why a team file the workspace chose (its settings, or the default `.agent-lens/team.toml`) is not read: a
 * part of its folder from the workspace folder down is a link or not a folder, it lies outside the workspace,
 * or it is a link that leads out of it. Reads nothing but link and folder entries.
 */
export function workspaceTeamRefusal(file: string, workspace: string): string | undefined {
  const p = firstProblem(workspace, path.dirname(file));
  const fix = l10n.t('set agentLens.handoff.teamFile in your user settings (serve: --team) to use a registry elsewhere');
  if (p?.kind === 'outside') return l10n.t('is outside the workspace {0}, whose settings chose it: {1}', workspace, fix);
  if (p?.kind === 'link' || p?.kind === 'not-folder')
    return l10n.t(
      '{0} is {1}: the workspace {2} chose where team.toml is, so Agent Lens reads it only from real folders in it; remove it, or {3}',
      p.at,
      p.kind === 'link' ? l10n.t('a symbolic link') : l10n.t('not a folder'),
      workspace,
      fix,
    );
  if (p) return undefined; // not created yet: an empty registry
  try {
    if (!fs.lstatSync(file).isSymbolicLink()) return undefined;
    const real = fs.realpathSync(file);
    const rel = path.relative(fs.realpathSync(workspace), real);
    if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel))
      return l10n.t('is a symbolic link to {0}, outside the workspace {1}: remove the link, or {2}', real, workspace, fix);
  } catch {
    /* missing, or a dangling link: the read says so */
  }
  return undefined;
}

function toAgent(key: string, d: z.infer<typeof sectionSchema>): TeamAgent {
  const agent: Record<string, unknown> = { key };
  for (const f of SCALAR_FIELDS) if (d[f] !== undefined) agent[f] = d[f];
  agent.dispatch_steps = d.dispatch_steps.map((s): DispatchStep => ({ tool: s.tool, with: s.with }));
  return agent as unknown as TeamAgent;
}

// ---- where a field sits in the text -------------------------------------------------------------------------

const same = (a: string[] | undefined, b: string[]): boolean => !!a && a.length === b.length && a.every((x, i) => x === b[i]);

/** 1-based line of a field of [key], else of the nearest enclosing header or definition. */
export function locate(lines: TomlLine[], key: string, p: Path): number | undefined {
  const blockKey = (from: number, field: string): number | undefined => {
    for (let i = from + 1; i < lines.length && lines[i].kind !== 'header'; i++)
      if (lines[i].kind === 'keyval' && lines[i].keys?.[0] === field) return i + 1;
    return undefined;
  };
  const header = lines.findIndex((l) => l.kind === 'header' && !l.array && same(l.keys, [key]));
  const fallback = (): number | undefined => {
    if (header >= 0) return header + 1;
    const root = lines.findIndex((l) => l.kind === 'header');
    const def = lines.findIndex((l, i) => l.kind === 'keyval' && l.keys?.[0] === key && (root < 0 || i < root));
    if (def >= 0) return def + 1;
    const any = lines.findIndex((l) => l.kind === 'header' && l.keys?.[0] === key);
    return any >= 0 ? any + 1 : undefined;
  };
  if (p.length === 0) return fallback();
  if (p[0] === 'dispatch_steps' && typeof p[1] === 'number') {
    let seen = -1;
    const at = lines.findIndex((l) => l.kind === 'header' && l.array && same(l.keys, [key, 'dispatch_steps']) && ++seen === p[1]);
    if (at >= 0) return (typeof p[2] === 'string' ? blockKey(at, p[2]) : undefined) ?? at + 1;
  }
  return (header >= 0 ? blockKey(header, String(p[0])) : undefined) ?? fallback();
}

// ---- the live registry --------------------------------------------------------------------------------------

export interface TeamRegistryOptions {
  log?: Logger;
  /**
   * The workspace folder, when the workspace chose this file (its settings or the default location): no link
   * from there down to the file's folder is followed (workspaceTeamRefusal). Unset: the user's own choice.
   */
  checkFrom?: string;
}

export class TeamRegistry {
  private good: TeamAgent[] = [];
  private err: TeamError | undefined;
  private readonly warned = new Set<string>();
  private readonly changes = new Emitter<void>();
  /** Fires when a watched reload changed what the registry holds. */
  readonly onDidChange: Event<void> = this.changes.event;

  constructor(
    readonly file: string,
    private readonly opts: TeamRegistryOptions = {},
  ) {}

  /** Re-reads the file. On error the last good agents stay in use and the error is returned (and kept). */
  load(): TeamError | undefined {
    try {
      const refused = this.opts.checkFrom === undefined ? undefined : workspaceTeamRefusal(this.file, this.opts.checkFrom);
      if (refused) throw new TeamError(this.file, refused);
      const { agents, warnings } = readTeamFile(this.file);
      this.good = agents;
      this.err = undefined;
      for (const w of warnings) this.warnOnce(w);
    } catch (e) {
      this.err = e instanceof TeamError ? e : new TeamError(this.file, l10n.t('could not load: {0}', String((e as Error).message)));
    }
    return this.err;
  }

  agents(): TeamAgent[] {
    return [...this.good];
  }

  /** The workspace folder links are checked from, when the workspace chose the file (pass it on to writeAgentSection). */
  get checkFrom(): string | undefined {
    return this.opts.checkFrom;
  }

  get(key: string): TeamAgent | undefined {
    return this.good.find((a) => a.key === key);
  }

  error(): TeamError | undefined {
    return this.err;
  }

  /**
   * Reloads on every change to the file, so a hand edit takes effect live. Watches the folder, not the file:
   * editors and atomic writers replace the file by rename, which a watch on the old inode would miss.
   */
  watch(): { dispose(): void } {
    const dir = path.dirname(this.file);
    const base = path.basename(this.file);
    let timer: NodeJS.Timeout | undefined;
    const fire = (): void => {
      timer = undefined;
      const before = this.snapshot();
      this.load();
      // Saves that change nothing (touch, same bytes) and events for the temp file beside it stay quiet.
      if (this.snapshot() !== before) this.changes.fire();
    };
    const schedule = (): void => {
      clearTimeout(timer);
      timer = setTimeout(fire, 100);
    };
    // A stat poll as well: it sees a file whose folder does not exist yet (most people create .agent-lens/team.toml
    // later), and folders fs.watch cannot follow (deleted and re-created, network file systems).
    const poll = (): void => schedule();
    fs.watchFile(this.file, { interval: 1000, persistent: false }, poll);
    let watcher: fs.FSWatcher | undefined;
    try {
      watcher = fs.watch(dir, { persistent: false }, (_event, name) => {
        if (name && name.toString() !== base) return;
        schedule();
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined; // the poll carries on
      });
    } catch {
      /* no folder yet: the poll sees it appear */
    }
    // The poll's baseline is taken asynchronously: an edit between the last load and that baseline would go
    // unseen, so look once more now.
    schedule();
    return {
      dispose: () => {
        clearTimeout(timer);
        watcher?.close();
        fs.unwatchFile(this.file, poll);
      },
    };
  }

  private snapshot(): string {
    return JSON.stringify([this.good, this.err?.message]);
  }

  private warnOnce(msg: string): void {
    if (this.warned.has(msg)) return;
    this.warned.add(msg);
    this.opts.log?.warn(msg);
  }
}
