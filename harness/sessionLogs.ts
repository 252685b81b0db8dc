/** The session logs each agent leaves behind in its isolated home, saved beside a recording. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { AgentHome } from './homeBase';

function walk(dir: string, pred: (p: string) => boolean, acc: string[] = []): string[] {
  let ents: fs.Dirent[] = [];
  try {
    ents = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return acc;
  }
  for (const e of ents) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, pred, acc);
    else if (e.isFile() && pred(p)) acc.push(p);
  }
  return acc;
}

/** The JSON-lines session logs an agent keeps in its home, and the name they are saved under. */
function lineLogs(home: AgentHome): { files: string[]; base: string } | undefined {
  const h = home.home;
  switch (home.agent) {
    case 'claude-code':
      return { files: walk(path.join(h, '.claude', 'projects'), (p) => p.endsWith('.jsonl')), base: 'transcript' };
    case 'codex':
      return {
        files: walk(path.join(home.env.CODEX_HOME ?? path.join(h, '.codex'), 'sessions'), (p) => /rollout-.*\.jsonl$/.test(p)),
        base: 'rollout',
      };
    case 'pi':
      return { files: walk(path.join(h, '.pi', 'agent', 'sessions'), (p) => p.endsWith('.jsonl')), base: 'pi-session' };
    case 'gemini':
      return { files: walk(path.join(h, '.gemini', 'tmp'), (p) => /\/chats\/session-.*\.jsonl$/.test(p)), base: 'gemini-session' };
    case 'qwen':
      return { files: walk(path.join(h, '.qwen', 'projects'), (p) => /\/chats\/[^/]+\.jsonl$/.test(p)), base: 'qwen-session' };
    case 'copilot':
      return {
        files: walk(path.join(home.env.COPILOT_HOME ?? path.join(h, '.copilot'), 'session-state'), (p) => /\/events\.jsonl$/.test(p)),
        base: 'copilot-events',
      };
    case 'droid':
      return {
        files: walk(path.join(h, '.factory', 'sessions'), (p) => /\/sessions\/[^/]+\/[^/]+\.jsonl$/.test(p)),
        base: 'droid-session',
      };
    default:
      return undefined;
  }
}

/** Where a run's session logs are copied before the CLI is hung up. */
const snapshotDir = (home: AgentHome) => path.join(home.runDir, 'session-log-snapshot');

/**
 * Copies the session logs as they are before the CLI is hung up: Gemini deletes a session without resumable
 * content at exit (FACTS §9) — a cancelled or failed first turn — so what it wrote is saved from this copy.
 */
export function snapshotSessionLogs(home: AgentHome): void {
  const logs = lineLogs(home);
  if (!logs) return;
  const dir = snapshotDir(home);
  fs.mkdirSync(dir, { recursive: true });
  for (const f of logs.files) fs.copyFileSync(f, path.join(dir, encodeURIComponent(path.relative(home.home, f))));
}

/** The logs left at the end, and the snapshot's copy of each that the CLI deleted at exit. */
function survivingOrSnapshot(home: AgentHome, files: string[]): string[] {
  let saved: string[] = [];
  try {
    saved = fs.readdirSync(snapshotDir(home));
  } catch {
    return files;
  }
  const gone = saved.filter((n) => !files.includes(path.join(home.home, decodeURIComponent(n))));
  return [...files, ...gone.map((n) => path.join(snapshotDir(home), n))];
}

/** Where a saved log lived, as meta.json names it. */
function originalOf(home: AgentHome, f: string, rel: (s: string) => string): string {
  if (path.dirname(f) !== snapshotDir(home)) return rel(f);
  return `${rel(path.join(home.home, decodeURIComponent(path.basename(f))))} (deleted at exit; copied before)`;
}

/** Copy the session logs the CLI wrote during the run into the recording folder, under the names recordingLog() reads. */
export function collectSessionLogs(
  home: AgentHome,
  out: string,
  problems: string[],
): Array<{ path: string; size: number; saved_as?: string }> {
  const rel = (s: string) => s.split(home.home).join('$HOME');
  const res: Array<{ path: string; size: number; saved_as?: string }> = [];
  const lineLog = lineLogs(home);
  if (lineLog) {
    const files = survivingOrSnapshot(home, lineLog.files);
    files.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
    files.forEach((f, i) => {
      const name = i === 0 ? `${lineLog.base}.jsonl` : `${lineLog.base}-${i + 1}.jsonl`;
      fs.copyFileSync(f, path.join(out, name));
      fs.chmodSync(path.join(out, name), 0o644);
      res.push({ path: originalOf(home, f, rel), size: fs.statSync(f).size, saved_as: name });
    });
    if (!files.length) fs.writeFileSync(path.join(out, `${lineLog.base}.jsonl`), '');
  } else dumpSqliteStore(home, out, problems, res, rel);
  return res;
}

/**
 * OpenCode's and Kilo Code's (its fork's) SQLite store as `storage.json` (`kilo-storage.json`, with Kilo's `event`
 * table too; `replay --log` reads it as Kilo's by its `db`), with its own log of the run (`log/opencode.log` in Kilo's folder, where per-process logs
 * lie beside it).
 */
function dumpSqliteStore(
  home: AgentHome,
  out: string,
  problems: string[],
  res: Array<{ path: string; size: number; saved_as?: string }>,
  rel: (s: string) => string,
): void {
  const kilo = home.agent === 'kilocode';
  const app = kilo ? 'kilo' : 'opencode';
  const dataDir = path.join(home.env.XDG_DATA_HOME ?? path.join(home.home, '.local/share'), app);
  const db = path.join(dataDir, `${app}.db`);
  const logf = kilo
    ? [path.join(dataDir, 'log', 'opencode.log')].filter((f) => fs.existsSync(f))
    : walk(path.join(dataDir, 'log'), (p) => p.endsWith('.log'));
  if (logf[0]) {
    fs.writeFileSync(
      path.join(out, `${app}.log`),
      fs.readFileSync(logf[0], 'utf8').split(home.home).join('$HOME').split(home.runDir).join('$RUN'),
    );
  }
  if (!fs.existsSync(db)) return;
  const saved = kilo ? 'kilo-storage.json' : 'storage.json';
  const storage: Record<string, unknown> = { db: rel(db) };
  try {
    for (const table of kilo ? ['session', 'message', 'part', 'event'] : ['session', 'message', 'part'])
      storage[table] = tableRows(db, table);
    fs.writeFileSync(path.join(out, saved), JSON.stringify(storage, null, 1).split(home.home).join('$HOME') + '\n');
    res.push({ path: rel(db), size: fs.statSync(db).size, saved_as: saved });
  } catch (e) {
    problems.push(`${app} db not dumped (${String(e).slice(0, 120)}); install sqlite3 to get ${saved}`);
  }
}

/** A table's rows, oldest first, with each JSON `data` column parsed. */
function tableRows(db: string, table: string): Array<Record<string, unknown>> {
  const txt = execFileSync('sqlite3', ['-json', db, `SELECT * FROM ${table} ORDER BY rowid`], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const rows = (txt.trim() ? JSON.parse(txt) : []) as Array<Record<string, unknown>>;
  for (const r of rows)
    if (typeof r.data === 'string') {
      try {
        r.data = JSON.parse(r.data);
      } catch {
        /* keep */
      }
    }
  return rows;
}
