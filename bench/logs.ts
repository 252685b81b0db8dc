/**
 * Session-log tailing benchmark, printed (never asserted):
 *  (a) CPU per appended line through LogTailer + LineSplitter (+ a decoder), for real Claude transcript
 *      lines appended in bursts by a separate writer process, so the writer's own CPU is not counted.
 *      The layout is Claude's: `<root>/<project>/<session>.jsonl`, root depth 1. Every figure is this
 *      process's whole CPU (all threads), so it includes the watching;
 *  (b) memory and inotify watches for 1,000 watched log files; append-to-delivery latency.
 * Run under `node --expose-gc` for stable memory figures. About 20 s; bounded by timeouts (under a minute).
 */
import { spawn } from 'child_process';
import { watch } from 'chokidar';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LineSplitter } from '../src/jsonl/lines';
import { LogTailer } from '../src/sources/logs/tailer';

const MB = 1024 * 1024;
/** Transcript lines appended per pass: ~40 MB of real lines (they average ~4 KB). */
const LINES = 10_000;
const STREAM_FILES = 20;
/** Paced run: bursts 10 ms apart, with and without many idle sessions in the same folder. */
const PACED_LINES = 1500;
const SIBLINGS = 500;
const MEMORY_FILES = 1000;

type Print = (s: string) => void;
type Decode = (line: string) => unknown;

export async function benchLogs(print: Print, decode?: Decode): Promise<void> {
  const corpus = loadCorpus();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-bench-logs-'));
  try {
    print(`logs       : ${corpus.source}`);
    const burst = makePlan(corpus.lines, LINES, STREAM_FILES);
    inMemory(print, burst, decode);
    const busy = { files: STREAM_FILES, siblings: 0, pauseMs: 1 };
    await stream(print, tmp, burst, { ...busy, label: 'busy, tailer + splitter' });
    await stream(print, tmp, burst, { ...busy, label: 'busy, + JSON.parse', decode: (l) => JSON.parse(l) });
    if (decode) await stream(print, tmp, burst, { ...busy, label: 'busy, + decoder', decode });
    // An agent appends a few lines per turn step, not hundreds per second: paced bursts show the
    // per-append cost, which must not grow with the number of old sessions in the folder (a watcher
    // that re-lists the folder on every event, as chokidar does, pays for each of them).
    const paced = makePlan(corpus.lines, PACED_LINES, 4);
    for (const siblings of [0, SIBLINGS])
      await stream(print, tmp, paced, { files: 4, siblings, pauseMs: 10, label: `paced, ${siblings} idle files beside` });
    await latency(print, tmp, corpus.lines);
    await memory(print, tmp);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

// ---- inputs ----------------------------------------------------------------------------------------

function loadCorpus(): { lines: string[]; source: string } {
  // Next to the repository: from dist/bench.js, or from the working directory when bundled elsewhere.
  const candidates = [path.resolve(__dirname, '..'), process.cwd()].map((r) =>
    path.resolve(r, '..', 'shared', 'recordings', 'claude-code'),
  );
  const dir = candidates.find((d) => fs.existsSync(d)) ?? candidates[0];
  const lines: string[] = [];
  if (fs.existsSync(dir)) {
    for (const s of fs.readdirSync(dir)) {
      const f = path.join(dir, s, 'transcript.jsonl');
      if (fs.existsSync(f))
        lines.push(
          ...fs
            .readFileSync(f, 'utf8')
            .split('\n')
            .filter((l) => l.trim()),
        );
    }
  }
  if (lines.length) {
    const avg = lines.reduce((n, l) => n + Buffer.byteLength(l), 0) / lines.length;
    return { lines, source: `${lines.length} real Claude transcript lines (avg ${avg.toFixed(0)} B) from ${dir}` };
  }
  // No recordings on this machine: transcript-shaped synthetic lines keep the bench runnable.
  const fake = Array.from({ length: 100 }, (_, i) =>
    JSON.stringify({ type: i % 2 ? 'assistant' : 'user', uuid: `u${i}`, message: { content: 'x'.repeat(200 + ((i * 997) % 4000)) } }),
  );
  return { lines: fake, source: `${fake.length} synthetic transcript-like lines (no recordings found at ${dir})` };
}

interface Plan {
  /** [file index, text] in append order; a burst is 1..12 lines, as an agent writes a turn. */
  bursts: [number, string][];
  lines: number;
  bytes: number;
}

function makePlan(corpus: string[], total: number, files: number): Plan {
  const bursts: [number, string][] = [];
  let lines = 0;
  let bytes = 0;
  for (let b = 0; lines < total; b++) {
    const k = Math.min(1 + ((b * 7) % 12), total - lines);
    const text = Array.from({ length: k }, (_, j) => corpus[(lines + j) % corpus.length] + '\n').join('');
    bursts.push([b % files, text]);
    lines += k;
    bytes += Buffer.byteLength(text);
  }
  return { bursts, lines, bytes };
}

// ---- (a) CPU per line ------------------------------------------------------------------------------

/** The pieces without I/O or watching, on the same bursts: splitting, JSON.parse, the decoder. */
function inMemory(print: Print, plan: Plan, decode: Decode | undefined): void {
  const chunks = plan.bursts.map(([, t]) => Buffer.from(t));
  for (const c of chunks) new LineSplitter().push(c); // warm-up: measure the optimised code, not the JIT
  const s = new LineSplitter();
  const lines: string[] = [];
  let c0 = process.cpuUsage();
  for (const c of chunks) for (const l of s.push(c)) lines.push(l);
  const perLine = (us: number) => `${(us / lines.length).toFixed(2)} µs/line`;
  const parts = [`splitter ${perLine(cpuUs(c0))}`];
  c0 = process.cpuUsage();
  for (const l of lines) JSON.parse(l);
  parts.push(`JSON.parse ${perLine(cpuUs(c0))}`);
  if (decode) {
    c0 = process.cpuUsage();
    for (const l of lines) decode(l);
    parts.push(`decoder ${perLine(cpuUs(c0))}`);
  }
  print(`in memory  : ${parts.join(', ')} (${lines.length} lines, no I/O)`);
}

/** The writer: a separate node process appending the planned bursts, pausing between them. */
const WRITER = `
const fs = require('fs');
const plan = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));
process.stdin.once('data', async () => {
  for (const [i, text] of plan.bursts) {
    fs.appendFileSync(plan.files[i], text);
    await new Promise((r) => setTimeout(r, plan.pauseMs));
  }
  process.exit(0);
});`;

interface StreamRun {
  label: string;
  /** Files the bursts go to. */
  files: number;
  /** Idle (old) session files in the same folder. */
  siblings: number;
  pauseMs: number;
  decode?: Decode;
}

async function stream(print: Print, tmp: string, plan: Plan, run: StreamRun): Promise<void> {
  const root = fs.mkdtempSync(path.join(tmp, 'stream-'));
  const dir = path.join(root, 'project');
  fs.mkdirSync(dir);
  const files = Array.from({ length: run.files }, (_, i) => path.join(dir, `session-${i}.jsonl`));
  files.forEach((f) => fs.writeFileSync(f, ''));
  const old = new Date(Date.now() - 7 * 24 * 3600 * 1000);
  for (let i = 0; i < run.siblings; i++) {
    const f = path.join(dir, `old-${i}.jsonl`);
    fs.writeFileSync(f, '{"type":"summary"}\n');
    fs.utimesSync(f, old, old);
  }
  let got = 0;
  const decode = run.decode;
  // Told by the consumer, not polled: a 10 ms polling timer would be most of the CPU of the paced runs.
  let allIn = () => {};
  const tailer = new LogTailer({
    roots: [{ dir: root, depth: 1, match: (f) => f.endsWith('.jsonl') && path.dirname(path.dirname(f)) === root }],
    onLines: (_f, lines) => {
      got += lines.length;
      if (decode) for (const l of lines) decode(l);
      if (got >= plan.lines) allIn();
    },
  });
  await tailer.start();
  const planFile = path.join(tmp, 'plan.json');
  fs.writeFileSync(planFile, JSON.stringify({ files, bursts: plan.bursts, pauseMs: run.pauseMs }));
  const child = spawn(process.execPath, ['-e', WRITER, planFile], { stdio: ['pipe', 'inherit', 'inherit'] });
  await new Promise((r) => child.once('spawn', r));
  const listings = countCalls('readdir');
  const lstats = countCalls('lstat');
  const t0 = Date.now();
  const c0 = process.cpuUsage();
  child.stdin.write('go\n');
  const done = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 8000);
    allIn = () => (clearTimeout(timer), resolve(true));
  });
  const us = cpuUs(c0);
  const secs = (Date.now() - t0) / 1000;
  const rescans = `folder listings during the run: ${listings.stop()} readdir, ${lstats.stop()} lstat`;
  child.kill();
  await tailer.dispose();
  fs.rmSync(root, { recursive: true, force: true });
  const rate = (plan.bytes / MB / secs).toFixed(1);
  print(
    `append path: ${run.label}: ${(us / got).toFixed(1)} µs CPU/line, ${(us / plan.bursts.length).toFixed(0)} µs/burst; ${got}/${plan.lines} lines in ${plan.bursts.length} bursts to ${run.files} files, ${(plan.bytes / MB).toFixed(1)} MB in ${secs.toFixed(1)} s (${rate} MB/s); ${rescans}${done ? '' : ' (TIMED OUT)'}`,
  );
}

/** Counts calls to `fs/promises`'s `name` until `stop` (chokidar's readdirp looks its functions up per listing). */
function countCalls(name: string): { stop(): number } {
  // The module object itself: an `import * as` namespace is read-only.
  const o = require('fs/promises') as Record<string, unknown>;
  const orig = o[name] as (...a: unknown[]) => unknown;
  let n = 0;
  try {
    o[name] = (...a: unknown[]) => (n++, orig(...a));
  } catch {
    return { stop: () => NaN }; // not patchable here: reported as NaN
  }
  return {
    stop: () => {
      o[name] = orig;
      return n;
    },
  };
}

// ---- (b) latency and memory ------------------------------------------------------------------------

/** Append → onLines, for appends well apart and for appends right after a delivery. */
async function latency(print: Print, tmp: string, corpus: string[]): Promise<void> {
  const dir = fs.mkdtempSync(path.join(tmp, 'latency-'));
  const f = path.join(dir, 'session.jsonl');
  fs.writeFileSync(f, '');
  let got = 0;
  const tailer = new LogTailer({ roots: [{ dir, depth: 0, match: () => true }], onLines: (_f, l) => (got += l.length) });
  await tailer.start();
  const apart: number[] = [];
  const close: number[] = [];
  for (let i = 0; i < 60; i++) {
    const t = process.hrtime.bigint();
    fs.appendFileSync(f, corpus[i % corpus.length] + '\n');
    if (!(await waitFor(() => got > i, 2000, 0))) break;
    (i % 2 ? close : apart).push(Number(process.hrtime.bigint() - t) / 1e6);
    await sleep(i % 2 ? 70 : 5);
  }
  await tailer.dispose();
  print(
    `latency    : append → onLines: ${quantiles(apart)} for appends 70 ms apart; ${quantiles(close)} for appends 5 ms after a delivery`,
  );
}

function quantiles(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(s.length * p))]?.toFixed(1);
  return `p50 ${q(0.5)} ms, max ${q(1)} ms`;
}

async function memory(print: Print, tmp: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(tmp, 'memory-'));
  const files: string[] = [];
  for (let p = 0; p < MEMORY_FILES / 20; p++) {
    const proj = path.join(dir, `project-${p}`);
    fs.mkdirSync(proj);
    for (let s = 0; s < 20; s++) files.push(path.join(proj, `session-${s}.jsonl`));
  }
  files.forEach((f, i) => fs.writeFileSync(f, `{"type":"user","i":${i},"pad":"${'z'.repeat(2000)}"}\n`));
  const bare = await chokidarAlone(dir);
  let got = 0;
  const base = mem();
  const watches0 = inotifyWatches();
  const tailer = new LogTailer({ roots: [{ dir, depth: 1, match: (f) => f.endsWith('.jsonl') }], onLines: (_f, l) => (got += l.length) });
  const t0 = Date.now();
  await tailer.start();
  const startMs = Date.now() - t0;
  const after = mem();
  const watches = inotifyWatches();
  const c0 = process.cpuUsage();
  files.forEach((f) => fs.appendFileSync(f, '{"type":"assistant"}\n'));
  await waitFor(() => got >= 2 * MEMORY_FILES, 8000);
  const perFile = cpuUs(c0) / MEMORY_FILES;
  const live = mem();
  await tailer.dispose();
  // fs.watch handles are freed by libuv close callbacks, after dispose resolves.
  await sleep(200);
  const disposed = mem();
  const mb = (n: number) => `${(n / MB).toFixed(1)} MB`;
  const delta = (n: number) => `${n < 0 ? '' : '+'}${mb(n)}`;
  print(
    `memory     : ${MEMORY_FILES} watched files: heap+external ${delta(after.heap - base.heap)} after start, ${delta(live.heap - base.heap)} after one append each (goal ≤ 20 MB); RSS ${mb(base.rss)} → ${mb(after.rss)} → ${mb(live.rss)}; ${delta(disposed.heap - base.heap)} after dispose${hasGc() ? '' : ' (run with --expose-gc for stable figures)'}`,
  );
  print(`             of which chokidar alone (as the tailer uses it: the root only, files ignored): ${delta(bare)}`);
  print(
    `             start() ${startMs} ms; inotify watches ${watches0 ?? '?'} → ${watches ?? '?'} (for ${MEMORY_FILES / 20 + 1} folders and ${MEMORY_FILES} files); one append to each file: ${perFile.toFixed(0)} µs CPU/file, writes included`,
  );
}

/** Heap+external of chokidar as the tailer runs it on `dir` (depth 1 - 1, every file ignored), to tell its share. */
async function chokidarAlone(dir: string): Promise<number> {
  const base = mem();
  const w = watch(dir, { depth: 0, ignoreInitial: false, persistent: true, ignored: (_p, s) => !!s && s.isFile() });
  w.on('addDir', () => undefined);
  await new Promise<void>((r) => w.once('ready', () => r()));
  const used = mem().heap - base.heap;
  await w.close();
  await sleep(200);
  return used;
}

// ---- helpers ---------------------------------------------------------------------------------------

function cpuUs(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return d.user + d.system;
}

function hasGc(): boolean {
  return typeof (globalThis as { gc?: unknown }).gc === 'function';
}

function mem(): { heap: number; rss: number } {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) {
    g();
    g();
  }
  const m = process.memoryUsage();
  return { heap: m.heapUsed + m.external, rss: m.rss };
}

/** Number of inotify watches this process holds (Linux; undefined elsewhere). */
function inotifyWatches(): number | undefined {
  try {
    let n = 0;
    for (const fd of fs.readdirSync('/proc/self/fd')) {
      let link = '';
      try {
        link = fs.readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        continue;
      }
      if (link === 'anon_inode:inotify') n += fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').split('\ninotify ').length - 1;
    }
    return n;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(cond: () => boolean, ms: number, pollMs = 10): Promise<boolean> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) return false;
    await (pollMs ? sleep(pollMs) : new Promise((r) => setImmediate(r)));
  }
  return true;
}
