/**
 * Usage from a long session log, printed (never asserted): ≥ 100 MB of one agent's real log lines, the usage of
 * each call made unique so nothing is folded away, read the way the extension reads it — in 64 KB chunks through
 * the line splitter, the decoder (with its usage book) and the store — with the CPU per line, the throughput, the
 * book's heap and its totals against the sum of what the lines carried.
 */
import * as fs from 'fs';
import * as path from 'path';
import { decoderFor, type LineLogAgent } from '../src/jsonl';
import { LineSplitter } from '../src/jsonl/lines';
import { logEventToObservation } from '../src/sources/logs/logSources';
import { AgentStore } from '../src/store/store';
import { UsageBook } from '../src/usage/book';
import { totalTokens } from '../src/common/usage';

const MB = 1024 * 1024;
const TARGET = 100 * MB;
const CHUNK = 64 * 1024;

type Print = (s: string) => void;

/** The recorded logs each agent's bench reads, and how a copy of a line is made a different call. */
const SOURCES: { agent: LineLogAgent; dir: string; file: string; unique: (line: string, n: number) => string }[] = [
  {
    agent: 'claude-code',
    dir: 'claude-code',
    file: 'transcript.jsonl',
    // A copy of a response keeps its message id and would be folded into the first: each copy gets its own.
    unique: (l, n) => l.replace(/"id":"msg_/g, `"id":"msg_${n}_`),
  },
  // Codex's totals are the session's own running figures: copies stay one session's totals.
  { agent: 'codex', dir: 'codex', file: 'rollout.jsonl', unique: (l) => l },
];

export function benchUsage(print: Print, root: string): void {
  for (const s of SOURCES) {
    const lines = corpus(path.join(root, 'test', 'fixtures', 'live', s.dir), s.file);
    if (!lines.length) {
      print(`usage      : ${s.agent}: no recorded logs under test/fixtures/live/${s.dir}`);
      continue;
    }
    run(print, s.agent, lines, s.unique);
  }
}

function corpus(dir: string, file: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const scenario of fs.readdirSync(dir).sort()) {
    const f = path.join(dir, scenario, file);
    if (fs.existsSync(f))
      out.push(
        ...fs
          .readFileSync(f, 'utf8')
          .split('\n')
          .filter((l) => l.trim()),
      );
  }
  return out;
}

/** One session's log of ≥ 100 MB, as 64 KB chunks: every line rewritten to one session id. */
function bigLog(lines: string[], unique: (line: string, n: number) => string): { chunks: Buffer[]; lines: number; bytes: number } {
  const parts: string[] = [];
  let bytes = 0;
  let n = 0;
  for (let copy = 0; bytes < TARGET; copy++)
    for (const l of lines) {
      const line = `${unique(l, copy)}\n`;
      parts.push(line);
      bytes += line.length;
      n++;
    }
  const all = Buffer.from(parts.join(''));
  const chunks: Buffer[] = [];
  for (let i = 0; i < all.length; i += CHUNK) chunks.push(all.subarray(i, i + CHUNK));
  return { chunks, lines: n, bytes: all.length };
}

function run(print: Print, agent: LineLogAgent, lines: string[], unique: (line: string, n: number) => string): void {
  const log = bigLog(lines, unique);
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  const book = new UsageBook();
  const store = new AgentStore();
  const decoder = decoderFor(agent, undefined, undefined, book);
  const splitter = new LineSplitter();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let seen = 0;
  for (const c of log.chunks)
    for (const line of splitter.push(c)) {
      seen++;
      for (const e of decoder.line(line)) {
        book.event(e);
        store.observe(logEventToObservation(e));
      }
    }
  const cpu = process.cpuUsage(c0);
  const secs = (performance.now() - t0) / 1000;
  const us = (cpu.user + cpu.system) / seen;
  gc();
  const heap = (process.memoryUsage().heapUsed - heap0) / 1024;
  const sessions = book.all();
  const tokens = sessions.reduce((n, s) => n + totalTokens(s.tokens), 0);
  const turns = sessions.reduce((n, s) => n + s.turns, 0);
  print(
    `usage      : ${agent}: ${(log.bytes / MB).toFixed(0)} MB, ${seen} lines read in 64 KB chunks in ${secs.toFixed(2)} s = ${us.toFixed(1)} µs/line CPU (goal ≤ 50), ${(log.bytes / MB / secs).toFixed(0)} MB/s; ${sessions.length} sessions, ${turns} turns, ${tokens} tokens; store + book heap ${heap.toFixed(0)} KB after (${problems(decoder.problems.total)})`,
  );
}

function problems(n: number): string {
  return n ? `${n} lines not read` : 'every line read';
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
