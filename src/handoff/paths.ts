import * as l10n from '@vscode/l10n';
import * as fs from 'fs';
import * as path from 'path';
import { isWindowsDeviceName } from '../common/paths';
import { hostPlatform } from '../common/platform';
import { quoted as quote } from '../common/printable';

/** A name that became a folder or file name would escape its root (`..`, slashes, an absolute path). */
export class PathError extends Error {}

/** Agent keys and task ids: letters, digits, `_`, `-` and inner dots, never `..`; they name folders and files. */
const SEGMENT = /^[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,62}[A-Za-z0-9_-])?$/;

export function isSafeSegment(s: string): boolean {
  // On Windows `con` or `nul.md` in any folder is a device, not a folder or file of ours.
  return SEGMENT.test(s) && !s.includes('..') && !(hostPlatform() === 'win32' && isWindowsDeviceName(s));
}

export function checkSegment(what: 'agent key' | 'task id', s: string): string {
  if (isSafeSegment(s)) return s;
  // One whole sentence per kind of name: a translation words "agent key" and "task id" in its own grammar.
  throw new PathError(
    what === 'agent key'
      ? l10n.t(
          'agent key {0} is not allowed: use letters, digits, "-", "_" and inner dots (1–64 characters, no "..", no slashes)',
          quote(s),
        )
      : l10n.t('task id {0} is not allowed: use letters, digits, "-", "_" and inner dots (1–64 characters, no "..", no slashes)', quote(s)),
  );
}

/** Where one agent's handoff files live under the handoff root. */
export class HandoffPaths {
  readonly root: string;
  /**
   * Where the check for links starts: the root itself when the user chose it (it may be a link of theirs),
   * else the workspace folder, since a repository can commit `.agent-lens` or `.agent-lens/handoff` as a link.
   */
  readonly checkFrom: string;

  constructor(root: string, opts: { checkFrom?: string } = {}) {
    this.root = path.resolve(root);
    this.checkFrom = path.resolve(opts.checkFrom ?? root);
  }

  agentDir(agent: string): string {
    return path.join(this.root, checkSegment('agent key', agent));
  }
  /** `dir` (one of the folders above), created as needed, refused when a part of it is a link (realDirUnder). */
  ensure(dir: string): string {
    return realDirUnder(this.checkFrom, dir, this.root);
  }
  /** Whether `dir` exists with every part from checkFrom down a real folder; nothing is created. */
  isRealDir(dir: string): boolean {
    return firstProblem(this.checkFrom, dir) === undefined;
  }
  /**
   * What start says about the root, reading only: why nothing can be written under it (a link or a file on
   * the way from the workspace folder), or where a root the user chose really is when a link leads there.
   */
  rootCheck(): { refused?: string; resolvesTo?: string } {
    if (this.checkFrom !== this.root) {
      const p = firstProblem(this.checkFrom, this.root);
      return p && p.kind !== 'missing' ? { refused: refusal(p, this.checkFrom, this.root) } : {};
    }
    try {
      const real = fs.realpathSync(this.root);
      return real !== this.root ? { resolvesTo: real } : {};
    } catch {
      return {}; // not created yet
    }
  }
  readMd(agent: string): string {
    return path.join(this.agentDir(agent), 'read.md');
  }
  memoryMd(agent: string): string {
    return path.join(this.agentDir(agent), 'memory.md');
  }
  statusJson(agent: string): string {
    return path.join(this.agentDir(agent), 'status.json');
  }
  /** Every doorbell event, one JSON line each: no event is ever dropped, even one the board ignores. */
  eventsLog(agent: string): string {
    return path.join(this.agentDir(agent), 'events.jsonl');
  }
  briefsDir(agent: string): string {
    return path.join(this.agentDir(agent), 'briefs');
  }
  reportsDir(agent: string): string {
    return path.join(this.agentDir(agent), 'reports');
  }
  brief(agent: string, taskId: string): string {
    return path.join(this.briefsDir(agent), `${checkSegment('task id', taskId)}-brief.md`);
  }
  report(agent: string, taskId: string): string {
    return path.join(this.reportsDir(agent), `${checkSegment('task id', taskId)}-report.md`);
  }

  /**
   * A report path an agent names in a doorbell event, if it is inside that agent's reports/ folder (relative
   * paths are read from the agent's folder); anything else is refused, so a link in the board never opens a file
   * elsewhere. The check is made twice: on the path as written, and on its real path, so a symlink the agent
   * planted (a link inside reports/, or reports/ itself replaced by a link) cannot lead outside.
   */
  reportPathFor(agent: string, given: string): string {
    const reports = this.reportsDir(agent);
    const p = path.resolve(this.agentDir(agent), given);
    const refuse = (why: string) =>
      new PathError(l10n.t('report_path {0} {1}: write the report to the path the brief names (under {2})', quote(given), why, reports));
    if (!isStrictlyInside(reports, p)) throw refuse(l10n.t("is outside the agent's reports folder"));
    if (hostPlatform() === 'win32' && isWindowsDeviceName(path.basename(p))) throw refuse(l10n.t('names a Windows device, not a file'));
    // The root may itself sit behind a link the user chose (e.g. /tmp on macOS); below it, nothing may be a link out.
    let realReports: string;
    let real: string;
    try {
      realReports = path.join(realPrefix(this.root), agent, 'reports');
      real = realPrefix(p);
    } catch (e) {
      throw refuse(l10n.t('cannot be resolved ({0})', String((e as NodeJS.ErrnoException).code ?? (e as Error).message)));
    }
    if (!isStrictlyInside(realReports, real))
      throw refuse(l10n.t("leads outside the agent's reports folder through a symbolic link (to {0})", quote(real)));
    return p;
  }
}

/** What is wrong on the way down to a folder: it leaves the base, or a part is missing, a link or no folder. */
export interface PathProblem {
  kind: 'outside' | 'missing' | 'link' | 'not-folder';
  at: string;
}

const leaves = (rel: string): boolean => rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);

/** The first part of `dir` below `base` that is missing, a link or not a folder (lstat only; nothing is created). */
export function firstProblem(base: string, dir: string): PathProblem | undefined {
  const rel = path.relative(base, dir);
  if (leaves(rel)) return { kind: 'outside', at: dir };
  let cur = base;
  for (const part of rel.split(path.sep).filter(Boolean)) {
    cur = path.join(cur, part);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(cur);
    } catch {
      return { kind: 'missing', at: cur };
    }
    if (st.isSymbolicLink()) return { kind: 'link', at: cur };
    if (!st.isDirectory()) return { kind: 'not-folder', at: cur };
  }
  return undefined;
}

/** The error for a problem on the way from `base` to a handoff folder under `root`: which part, and what to do. */
export function refusal(p: PathProblem, base: string, root: string): string {
  if (p.kind === 'outside' && base === root) return l10n.t('{0} is not inside the handoff root {1}', p.at, root);
  if (p.kind === 'outside')
    return l10n.t(
      '{0} is not inside {1}: a handoff root the workspace chose must be in its folder; set agentLens.handoff.root in your user settings (serve: --root) to use another place',
      p.at,
      base,
    );
  if (base === root) {
    return l10n.t(
      '{0} is {1}: Agent Lens writes handoff files only into real folders under {2}; remove it',
      p.at,
      p.kind === 'link' ? l10n.t('a symbolic link') : l10n.t('not a folder'),
      root,
    );
  }
  let to = '';
  try {
    to = p.kind === 'link' ? l10n.t(' (to {0})', fs.readlinkSync(p.at)) : '';
  } catch {
    /* gone since the lstat: the name is what matters */
  }
  const what = p.kind === 'link' ? l10n.t('a symbolic link{0}', to) : l10n.t('not a folder');
  return l10n.t(
    '{0} is {1}: the workspace {2} chose the handoff root {3}, so Agent Lens writes nothing through a link or file there; remove it, or set agentLens.handoff.root in your user settings (serve: --root) to a folder of your own',
    p.at,
    what,
    base,
    root,
  );
}

/**
 * Creates `dir` (inside `base`) as needed and returns it, refusing any part of it below `base` that is a
 * symbolic link or not a folder. The default root is inside the workspace, so a cloned repository could plant
 * `agent/ -> ~` or `briefs/ -> ~/.ssh`, or `.agent-lens -> ~` when the check starts at the workspace folder;
 * writing through such a link would put our files anywhere. `root` (default `base`) only words the error.
 */
export function realDirUnder(base: string, dir: string, root = base): string {
  const rel = path.relative(base, dir);
  if (leaves(rel)) throw new PathError(refusal({ kind: 'outside', at: dir }, base, root));
  fs.mkdirSync(base, { recursive: true });
  let cur = base;
  for (const part of rel.split(path.sep).filter(Boolean)) {
    cur = path.join(cur, part);
    try {
      fs.mkdirSync(cur);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const st = fs.lstatSync(cur);
    if (st.isSymbolicLink() || !st.isDirectory())
      throw new PathError(refusal({ kind: st.isSymbolicLink() ? 'link' : 'not-folder', at: cur }, base, root));
  }
  return dir;
}

function isStrictlyInside(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/**
 * The real path of `p`: its longest existing prefix resolved with realpath, the rest (not created yet) appended.
 * A link whose target is missing is no "not created yet": its target is unknown here, so it throws.
 */
export function realPrefix(p: string): string {
  const tail: string[] = [];
  let cur = path.resolve(p);
  for (;;) {
    try {
      return path.join(fs.realpathSync(cur), ...tail.reverse());
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      let dangling = false;
      try {
        dangling = fs.lstatSync(cur).isSymbolicLink();
      } catch {
        /* really missing: go up */
      }
      if (dangling) throw Object.assign(new Error(l10n.t('{0} is a link to a missing target', cur)), { code: 'EDANGLING' });
      const up = path.dirname(cur);
      if (up === cur) throw e;
      tail.push(path.basename(cur));
      cur = up;
    }
  }
}

/** `{agent}::{task_id}` split; undefined when the id has no `::` (such an event goes on no board). */
export function splitEventId(id: string): { agent: string; taskId: string } | undefined {
  const i = id.indexOf('::');
  if (i < 0) return undefined;
  return { agent: id.slice(0, i), taskId: id.slice(i + 2) };
}

/** The default task id, `MMDD-NN`: today's date and the next number not yet used among `taken`. */
export function nextTaskId(now: Date, taken: Iterable<string>): string {
  const day = `${String(now.getMonth() + 1).padStart(2, '0')}${String(now.getDate()).padStart(2, '0')}`;
  const used = new Set(taken);
  for (let n = 1; ; n++) {
    const id = `${day}-${String(n).padStart(2, '0')}`;
    if (!used.has(id)) return id;
  }
}
