/**
 * Crash safety (issue 11 item 2): a writer process (soak/crashWriter.ts) writes status.json, briefs, the
 * events log, read.md, team.toml or a Claude Code settings file through Agent Lens's own code as fast as it can,
 * and is killed with SIGKILL at a random moment; then every file must be the old or the new version and a
 * restart must recover (soak/crashChecks.ts). Prints the figures; returns whether every run passed.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { type CrashKind, KINDS, seed } from './crashFixtures';
import { checkCrash, tempsUnder } from './crashChecks';

const WRITER = path.join(__dirname, 'crash-writer.js');

/** Starts a writer, lets it write for `ms` after it says ready, then SIGKILLs it. */
function killWriter(kind: CrashKind, dir: string, ms: number): Promise<{ early?: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, kind, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let killed = false;
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.once('data', () => {
      setTimeout(() => {
        killed = true;
        child.kill('SIGKILL');
      }, ms);
    });
    child.on('error', reject);
    // 'close', not 'exit': only then has all of its stderr been read.
    child.on('close', (code, signal) =>
      resolve(
        killed ? {} : { early: `the writer exited (${signal ?? `code ${code}`}) before it was killed: ${err.trim() || 'no message'}` },
      ),
    );
  });
}

export interface CrashFigures {
  runs: number;
  failed: number;
  byKind: Record<CrashKind, { runs: number; midWrite: number; left: number; restart: number }>;
}

export async function runCrash(runs: number, print: (line: string) => void, seedValue = Date.now()): Promise<CrashFigures> {
  let rnd = seedValue >>> 0;
  const next = (): number => (rnd = (Math.imul(rnd, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const byKind = Object.fromEntries(KINDS.map((k) => [k, { runs: 0, midWrite: 0, left: 0, restart: 0 }])) as CrashFigures['byKind'];
  const shown = new Set<string>();
  let failed = 0;
  const started = Date.now();
  for (let i = 0; i < runs; i++) {
    const kind = KINDS[i % KINDS.length];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `agent-lens-crash-${kind}-`));
    try {
      seed(kind, dir);
      // 0–40 ms of writing: from a kill in the first write to one deep in a long run of them.
      const r = await killWriter(kind, dir, Math.floor(next() * 40));
      const f = byKind[kind];
      f.runs++;
      if (tempsUnder(dir).length) f.midWrite++;
      const { left, restart } = await checkCrash(kind, dir);
      if (r.early) restart.unshift(r.early);
      if (left.length) f.left++;
      if (restart.length) f.restart++;
      if (left.length || restart.length) {
        failed++;
        for (const p of [...left, ...restart])
          if (!shown.has(`${kind}: ${p}`) && shown.size < 20) shown.add(`${kind}: ${p}`) && print(`    ✗ ${kind} run ${i}: ${p}`);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const secs = ((Date.now() - started) / 1000).toFixed(0);
  print(`  crash safety: ${runs} SIGKILLs in ${secs} s (seed ${seedValue}), ${failed} failed`);
  for (const k of KINDS) {
    const f = byKind[k];
    print(
      `    ${k.padEnd(9)} ${String(f.runs).padStart(5)} runs, ${String(f.midWrite).padStart(4)} killed between a temp file's open and its rename; torn or lost: ${f.left}; restart problems: ${f.restart}`,
    );
  }
  return { runs, failed, byKind };
}
