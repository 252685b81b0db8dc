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

/** Copy the session logs the CLI wrote during the run into the recording folder, under the names recordingLog() reads. */
export function collectSessionLogs(
  home: AgentHome,
  out: string,
  problems: string[],
): Array<{ path: string; size: number; saved_as?: string }> {
  const rel = (s: string) => s.split(home.home).join('$HOME');
  const res: Array<{ path: string; size: number; saved_as?: string }> = [];
  const save = (files: string[], base: string) => {
    files.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
    files.forEach((f, i) => {
      const name = i === 0 ? `${base}.jsonl` : `${base}-${i + 1}.jsonl`;
      fs.copyFileSync(f, path.join(out, name));
      fs.chmodSync(path.join(out, name), 0o644);
      res.push({ path: rel(f), size: fs.statSync(f).size, saved_as: name });
    });
    if (!files.length) fs.writeFileSync(path.join(out, `${base}.jsonl`), '');
  };
  if (home.agent === 'claude-code') {
    save(
      walk(path.join(home.home, '.claude', 'projects'), (p) => p.endsWith('.jsonl')),
      'transcript',
    );
  } else if (home.agent === 'codex') {
    save(
      walk(path.join(home.env.CODEX_HOME ?? path.join(home.home, '.codex'), 'sessions'), (p) => /rollout-.*\.jsonl$/.test(p)),
      'rollout',
    );
  } else if (home.agent === 'pi') {
    save(
      walk(path.join(home.home, '.pi', 'agent', 'sessions'), (p) => p.endsWith('.jsonl')),
      'pi-session',
    );
  } else if (home.agent === 'gemini') {
    // Gemini deletes a session without resumable content at exit (FACTS §9): then there is nothing to save.
    save(
      walk(path.join(home.home, '.gemini', 'tmp'), (p) => /\/chats\/session-.*\.jsonl$/.test(p)),
      'gemini-session',
    );
  } else {
    const dataDir = path.join(home.env.XDG_DATA_HOME ?? path.join(home.home, '.local/share'), 'opencode');
    const db = path.join(dataDir, 'opencode.db');
    const logf = walk(path.join(dataDir, 'log'), (p) => p.endsWith('.log'));
    if (logf[0]) {
      fs.writeFileSync(
        path.join(out, 'opencode.log'),
        fs.readFileSync(logf[0], 'utf8').split(home.home).join('$HOME').split(home.runDir).join('$RUN'),
      );
    }
    if (fs.existsSync(db)) {
      const storage: Record<string, unknown> = { db: rel(db) };
      try {
        for (const table of ['session', 'message', 'part']) {
          const txt = execFileSync('sqlite3', ['-json', db, `SELECT * FROM ${table} ORDER BY rowid`], {
            encoding: 'utf8',
            maxBuffer: 64 << 20,
          });
          const rows = (txt.trim() ? JSON.parse(txt) : []) as Array<Record<string, unknown>>;
          for (const r of rows)
            if (typeof r.data === 'string') {
              try {
                r.data = JSON.parse(r.data);
              } catch {
                /* keep */
              }
            }
          storage[table] = rows;
        }
        fs.writeFileSync(path.join(out, 'storage.json'), JSON.stringify(storage, null, 1).split(home.home).join('$HOME') + '\n');
        res.push({ path: rel(db), size: fs.statSync(db).size, saved_as: 'storage.json' });
      } catch (e) {
        problems.push(`opencode db not dumped (${String(e).slice(0, 120)}); install sqlite3 to get storage.json`);
      }
    }
  }
  return res;
}
