import * as l10n from '@vscode/l10n';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { writeFileAtomic } from '../../common/fsutil';
import { agentLensHome } from '../commands';
import { addHooks, type EventsAt, type HookEntry, InstallError, type InstallState, installedState, removeHooks } from './jsonHooks';
import { type OwnEntries, ownEntries } from './ownEntries';

/**
 * Installs into and uninstalls from one agent's JSON settings file on disk.
 *
 * Uninstalling right after installing gives back the original bytes exactly: before the first write we keep the
 * file's bytes as they were in `<file>.agent-lens-backup` (the user's own hooks included) and record the sha256
 * of what we wrote; at uninstall, a file still equal to that is replaced by the backup (or deleted, when there
 * was no file). A file someone changed in between gets the structural removal instead, which keeps their change.
 *
 * The backup sits beside the file, named after it: it is the user's data, so they find it where they look (and
 * can restore it by hand without Agent Lens), and it has the same owner and folder permissions as the original.
 * The bookkeeping (hashes, whether the file existed) is ours alone, so it stays in Agent Lens's home
 * (`<home>/installs/<sha256 of the path>.json`) instead of cluttering the agents' folders.
 */

export interface InstallOptions {
  /** For AGENT_LENS_HOME (where the install records live, and whose reporter our commands run). */
  env?: NodeJS.ProcessEnv;
  /** Commands this target writes: uninstall finds them even when the install record is gone. */
  commands?: readonly string[];
  /** Where the file keeps its events (./jsonHooks.ts): under `hooks` unless said. */
  at?: EventsAt;
}

/** Commands remembered per file: a few per event and reporter path; more can only come from a tampered record. */
const COMMANDS_KEPT = 256;

/** Merges tried when the agent keeps rewriting its settings under us; then we give up with a clear error. */
const MERGE_TRIES = 3;

/** The settings file changed between our read and our rename: merge again on what is there now. */
class ChangedMeanwhile extends Error {}

const recordSchema = z.object({
  v: z.literal(1),
  file: z.string(),
  /** Whether the file existed before our first write. */
  existed: z.boolean(),
  /** sha256 of the backup's bytes (the text to restore), when the file existed. */
  original: z.string().optional(),
  /** sha256 of the bytes we last wrote. */
  wrote: z.string(),
  /** Every hook command we wrote into the file, so an update and uninstall find them whatever their reporter path. */
  commands: z.array(z.string()).max(COMMANDS_KEPT).optional(),
  /** The file keeps its events at its top (./jsonHooks.ts `EventsAt`): uninstalling from the record alone must know. */
  at: z.literal('top').optional(),
});
type InstallRecord = z.infer<typeof recordSchema>;

const sha = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

export function backupPath(file: string): string {
  return `${file}.agent-lens-backup`;
}

export function recordPath(file: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(agentLensHome(env), 'installs', `${sha(path.resolve(file))}.json`);
}

/** The file's bytes, or undefined when it does not exist. */
export function readBytes(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InstallError(
      l10n.t('Cannot read {0} ({1}): check its permissions, then try again.', file, (e as NodeJS.ErrnoException).code ?? String(e)),
      file,
    );
  }
}

function decode(file: string, bytes: Buffer): string {
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes))
    throw new InstallError(l10n.t('{0} is not UTF-8 text: fix or move it, then install again.', file), file);
  return text;
}

/** A symlinked settings file (dotfiles repos) is edited where it points, so the link stays a link. */
function realTarget(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

function modeOf(file: string): number {
  return fs.statSync(file).mode & 0o7777;
}

function readRecord(file: string, env: NodeJS.ProcessEnv): InstallRecord | undefined {
  try {
    const r = recordSchema.safeParse(JSON.parse(fs.readFileSync(recordPath(file, env), 'utf8')));
    return r.success && r.data.file === path.resolve(file) ? r.data : undefined;
  } catch {
    return undefined;
  }
}

function writeRecord(file: string, env: NodeJS.ProcessEnv, r: Omit<InstallRecord, 'v' | 'file'>): void {
  const p = recordPath(file, env);
  fs.mkdirSync(path.dirname(p), { recursive: true, mode: 0o700 });
  writeFileAtomic(p, `${JSON.stringify({ v: 1, file: path.resolve(file), ...r })}\n`, 0o600);
}

function forget(file: string, env: NodeJS.ProcessEnv): void {
  fs.rmSync(recordPath(file, env), { force: true });
  fs.rmSync(backupPath(file), { force: true });
}

/** The backup still holds the text the record says it does. */
function backupIntact(file: string, r: InstallRecord): boolean {
  if (!r.existed) return true;
  const b = readBytes(backupPath(file));
  return !!b && sha(b) === r.original;
}

/** What counts as ours in `file`: the current home's commands, and every command the record says we wrote. */
function ownIn(env: NodeJS.ProcessEnv, r: InstallRecord | undefined, commands: readonly string[] = []): OwnEntries {
  return ownEntries([agentLensHome(env)], [...(r?.commands ?? []), ...commands]);
}

function remembered(r: InstallRecord | undefined, entries: readonly HookEntry[]): string[] {
  return [...new Set([...(r?.commands ?? []), ...entries.map((e) => e.command)])].slice(-COMMANDS_KEPT);
}

/**
 * Keeps what uninstall should restore: the file's bytes before this change, untouched (nothing is taken out, so
 * a hook we would wrongly take for ours is still in the backup). A file still exactly as we last wrote it keeps
 * the first install's backup (an update must not back up our own hooks). Entries of ours that an older install
 * left in the backup are taken out when it is restored.
 */
function takeBackup(file: string, bytes: Buffer | undefined, r: InstallRecord | undefined): Pick<InstallRecord, 'existed' | 'original'> {
  if (r && bytes !== undefined && sha(bytes) === r.wrote && backupIntact(file, r)) return { existed: r.existed, original: r.original };
  if (bytes === undefined) {
    fs.rmSync(backupPath(file), { force: true });
    return { existed: false };
  }
  writeFileAtomic(backupPath(file), bytes, modeOf(realTarget(file)));
  return { existed: true, original: sha(bytes) };
}

/** File-system failures (a folder we may not write) as InstallError, which the UI shows as they are. */
function guarded<T>(file: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof InstallError || !(e as NodeJS.ErrnoException).code) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new InstallError(
      l10n.t('Cannot change {0} ({1}): check that you may write {2}, then try again.', file, String(code), path.dirname(file)),
      file,
    );
  }
}

/** Adds `entries` to `file` (created with its folder when missing). Returns whether the file changed. */
export function installInto(file: string, entries: readonly HookEntry[], opts: InstallOptions = {}): boolean {
  return guarded(file, () => retried(file, () => install(file, entries, opts.env ?? process.env, opts.at)));
}

/**
 * Runs a read-merge-write again when the file changed under it (an agent saving its settings while we merge):
 * the agent's change is kept and ours applied on top, instead of one of them silently lost.
 */
function retried(file: string, run: () => boolean): boolean {
  for (let i = 1; ; i++) {
    try {
      return run();
    } catch (e) {
      if (!(e instanceof ChangedMeanwhile)) throw e;
      if (i >= MERGE_TRIES)
        throw new InstallError(
          l10n.t(
            '{0} kept changing while Agent Lens merged its hooks into it ({1} tries), so it was left as it is: close the program writing it (the agent?), then try again.',
            file,
            MERGE_TRIES,
          ),
          file,
        );
    }
  }
}

/**
 * Writes `next` over `target` unless the file no longer holds `expected` (undefined: did not exist) right
 * before the rename. Content, not mtime: a write within the same timestamp tick would slip past an mtime test.
 * What remains is the microseconds between this check and the rename.
 */
function writeChecked(target: string, next: string | Buffer, mode: number, expected: Buffer | undefined): void {
  writeFileAtomic(target, next, mode, {
    beforeRename: () => {
      const now = readBytes(target);
      if (now === undefined ? expected !== undefined : expected === undefined || !now.equals(expected)) throw new ChangedMeanwhile(target);
    },
  });
}

function install(file: string, entries: readonly HookEntry[], env: NodeJS.ProcessEnv, at: EventsAt = 'hooks'): boolean {
  const target = realTarget(file);
  const bytes = readBytes(target);
  const before = bytes && decode(file, bytes);
  const r = readRecord(file, env);
  const next = addHooks(before, entries, file, ownIn(env, r), at);
  if (next === before) return false;
  const kept = takeBackup(file, bytes, r);
  if (bytes === undefined) fs.mkdirSync(path.dirname(target), { recursive: true });
  // A new settings file may come to hold API keys: this user's only (0600). An existing one keeps its mode.
  writeChecked(target, next, bytes === undefined ? 0o600 : modeOf(target), bytes);
  writeRecord(file, env, { ...kept, wrote: sha(next), commands: remembered(r, entries), ...(at === 'top' ? { at } : {}) });
  return true;
}

/**
 * The file is still ours as written: put the original back, to the byte unless it held entries of ours from
 * an install before the one that took the backup. False when the backup cannot be trusted.
 */
function restore(file: string, target: string, r: InstallRecord, current: Buffer, own: OwnEntries, at: EventsAt): boolean {
  if (!r.existed) {
    if (!readBytes(target)?.equals(current)) throw new ChangedMeanwhile(target);
    fs.rmSync(target, { force: true });
    return true;
  }
  const b = readBytes(backupPath(file));
  if (!b || sha(b) !== r.original) return false;
  const text = decode(file, b);
  const clean = removeHooks(text, file, own, at);
  writeChecked(target, clean === text ? b : clean, modeOf(target), current);
  return true;
}

/** Takes our hooks out of `file`. Returns whether the file changed. */
export function uninstallFrom(file: string, opts: InstallOptions = {}): boolean {
  return guarded(file, () => retried(file, () => uninstall(file, opts.env ?? process.env, opts.commands, opts.at)));
}

function uninstall(file: string, env: NodeJS.ProcessEnv, commands: readonly string[] | undefined, given: EventsAt | undefined): boolean {
  const target = realTarget(file);
  const bytes = readBytes(target);
  const r = readRecord(file, env);
  const at = given ?? r?.at ?? 'hooks';
  const own = ownIn(env, r, commands);
  let changed = false;
  if (bytes !== undefined && r && sha(bytes) === r.wrote && restore(file, target, r, bytes, own, at)) changed = true;
  else if (bytes !== undefined) {
    const text = decode(file, bytes);
    const next = removeHooks(text, file, own, at);
    if (next !== text) writeChecked(target, next, modeOf(target), bytes);
    changed = next !== text;
  }
  forget(file, env);
  return changed;
}

/** What of ours `file` holds; a missing file holds nothing. Throws InstallError for a file we cannot read. */
export function fileState(
  file: string,
  entries: readonly HookEntry[],
  env: NodeJS.ProcessEnv = process.env,
  at: EventsAt = 'hooks',
): InstallState {
  const bytes = readBytes(realTarget(file));
  return bytes === undefined ? 'absent' : installedState(decode(file, bytes), entries, file, ownIn(env, readRecord(file, env)), at);
}
