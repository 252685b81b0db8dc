/**
 * Linear time on adversarial input: every parser and regex that reads outside input (terminal output, session
 * logs, recordings, team.toml, hook payloads, settings files, rc files, process lists), run over growing sizes.
 * A benchmark, not a timed test: it prints ns/byte per size and the ratio of the largest size's figure to the
 * smallest's, and marks "superlinear?" above 3; nothing is asserted, a loaded machine only blurs the figures.
 */
import { fileCases } from './linearFiles';
import { terminalCases } from './linearTerminal';

type Print = (s: string) => void;

/** One adversarial input shape through one real entry point. */
export interface LinearCase {
  name: string;
  /** Builds the input for about `bytes` bytes (untimed). `fresh` sets up per-run state (untimed) and returns the timed run. */
  make(bytes: number): { bytes: number; fresh(): () => unknown };
  /** Where the input's source caps the size (the reporter reads at most 1 MB of stdin). */
  maxBytes?: number;
  /** What bounds the input in practice, printed beside a superlinear figure so it can be weighed. */
  bound?: string;
}

export interface LinearResult {
  name: string;
  ok: boolean;
  /** ns per byte at each size run (undefined: not run). */
  nsPerByte: (number | undefined)[];
  ratio: number;
  /** Marked, but flat between the two largest sizes (up to 4 MB): a one-time step, not growth. */
  step: boolean;
  seconds: number;
  /** Growth exponent between the two largest sizes run (1: linear, 2: quadratic). */
  exponent: number;
  /** The cost of a run on one unit of input, taken off each figure (µs). */
  fixedUs: number;
  note?: string;
}

const KB = 1024;
const SIZES = [16 * KB, 64 * KB, 256 * KB, 1024 * KB, 4096 * KB];
const REPS = 3;
const WINDOW = 128 * KB;
const WINDOW_MS = 5;
/** Runs per timing of the one-unit input that measures the fixed cost. */
const FIXED_RUNS = 32;
/** A run this long already says enough: the rest of its repetitions would only spend the time budget. */
const LONG_RUN_MS = 300;
/** No single run is started that is predicted to take longer than this; a quadratic case stops instead of hanging. */
const RUN_CAP_MS = 1000;
/** The confirming run at the top size, predicted as linear, may take this long. */
const CONFIRM_CAP_MS = 2000;
/** The 4 MB size only where the 1 MB run was cheap. */
const CHEAP_MS = 40;
const SUPERLINEAR = 3;
const FLOOR_NS = 0.2;
/**
 * At or under this many ns/byte at the largest size run, 4 MB costs under 40 ms: whatever the ratio says, the
 * smallest sizes' figures were near zero after the fixed cost came off, and that is what made it large.
 */
const CHEAP_NS = 10;
/** Growth exponent between the two largest sizes at or under which a high ratio is a one-time step. */
const STEP_EXPONENT = 1.25;
const GC_FROM = 256 * KB;

/**
 * A full collection costs ~6 ms here whatever the size; before every timing that would be most of the budget. Small
 * timings leave little garbage and best of three absorbs a scavenge, so only large inputs get a clean heap.
 */
function gc(bytes: number): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g && bytes >= GC_FROM) g();
}

/**
 * Runs `k` prepared runs back to back; the mean CPU time (user + system, all of this process's threads, so
 * the GC's too) per run, and the first error thrown. CPU rather than wall time: on a shared two-core machine
 * another process's work would otherwise land in the figures as growth.
 */
async function timed(runs: (() => unknown)[]): Promise<{ ms: number; error?: string }> {
  let error: string | undefined;
  const t0 = process.cpuUsage();
  for (const run of runs) {
    try {
      const r = run();
      if (r instanceof Promise) await r;
    } catch (e) {
      error ??= `${(e as Error).name}: ${(e as Error).message.slice(0, 60)}`;
    }
  }
  const used = process.cpuUsage(t0);
  return { ms: (used.user + used.system) / 1e3 / runs.length, error };
}

/**
 * Best of REPS, gc before each. A small, fast input is run `k` times per timing (fresh state for each, made
 * untimed), so that a timing spans WINDOW bytes or WINDOW_MS: one run of 16 KB can be a few µs, within the noise of
 * a shared machine. `k` comes from an untimed first run, so a slow case is not repeated.
 */
async function best(input: ReturnType<LinearCase['make']>, notes: string[], reps = REPS): Promise<number> {
  const probe = input.fresh();
  gc(input.bytes);
  const first = await timed([probe]);
  const k = Math.max(1, Math.min(Math.floor(WINDOW / Math.max(input.bytes, 1)), Math.ceil(WINDOW_MS / Math.max(first.ms, 1e-3))));
  if (first.error && !notes.some((n) => n.startsWith('throws'))) notes.push(`throws ${first.error}`);
  // A single run that long is signal enough, and its repetitions would spend the time budget.
  if (k === 1 && first.ms > LONG_RUN_MS) return first.ms;
  let ms = k === 1 ? first.ms : Infinity;
  for (let rep = k === 1 ? 1 : 0; rep < reps; rep++) {
    const runs = Array.from({ length: k }, () => input.fresh());
    gc(input.bytes);
    ms = Math.min(ms, (await timed(runs)).ms);
  }
  return ms;
}

/** Growth in ns/byte over the last step, and over the one before where there is one: the smaller of the two, at least 1. */
function growthSoFar(runs: readonly { bytes: number; ms: number }[]): number {
  const per = runs.map((r) => r.ms / r.bytes);
  const steps = per.slice(1).map((x, i) => x / per[i]);
  return steps.length ? Math.max(1, Math.min(...steps.slice(-2))) : 1;
}

const ratioOf = (xs: (number | undefined)[]): number => {
  const run = xs.filter((x): x is number => x !== undefined);
  // Below the floor a figure is timer noise, and dividing by it would make any ratio huge.
  return run.length >= 2 ? run[run.length - 1] / Math.max(run[0], FLOOR_NS) : NaN;
};

async function measure(c: LinearCase, sizes: readonly number[], maxBytes: number, ladder: boolean): Promise<LinearResult> {
  const started = performance.now();
  const nsPerByte: (number | undefined)[] = sizes.map(() => undefined);
  const notes: string[] = [];
  // Compiled before anything is timed: the first run of a path also pays for the JIT.
  await timed([c.make(1).fresh(), c.make(sizes[0]).fresh()]);
  // What a run costs whatever the size (fresh state, an emulator's first write, a promise turn) would make the
  // small sizes look dear and hide growth: the run on one unit of the input is taken off every figure.
  const fixed = await best({ ...c.make(1), bytes: WINDOW / FIXED_RUNS }, []);
  const runs: { size: number; bytes: number; ms: number }[] = [];
  for (let i = 0; i < sizes.length; i++) {
    const size = sizes[i];
    if (size > Math.min(maxBytes, c.maxBytes ?? Infinity)) break;
    const prev = runs.at(-1);
    // The top size only where it is cheap, or to tell a one-time step (the data outgrowing a cache or the young
    // generation, flat above) from growth.
    if (ladder && i === sizes.length - 1 && prev && prev.ms > CHEAP_MS && !(ratioOf(nsPerByte) > SUPERLINEAR)) break;
    if (prev) {
      // Extrapolated with the growth seen so far (at least linear), so a quadratic case stops before it hangs: the
      // smaller of the last two steps' growth, so one figure a collection made low does not stop a linear case.
      const grown = growthSoFar(runs);
      // A confirming run at the top assumes no growth, or a step would always forbid the run that shows it; its
      // own cap keeps a case that does grow quadratically to one run of four times that.
      const confirming = ladder && i === sizes.length - 1;
      const predicted = prev.ms * (size / prev.bytes) * (confirming ? 1 : grown);
      if (predicted > (confirming ? CONFIRM_CAP_MS : RUN_CAP_MS)) {
        if (!ladder || i < sizes.length - 1) notes.push(`stopped before ${label(size)} (predicted ${(predicted / 1000).toFixed(0)} s)`);
        break;
      }
    }
    const input = c.make(size);
    // Best of REPS at every size: one timing of a megabyte input is at the mercy of where a major GC falls.
    const ms = await best(input, notes, REPS);
    nsPerByte[i] = (Math.max(0, ms - fixed) * 1e6) / input.bytes;
    runs.push({ size, bytes: input.bytes, ms });
  }
  const ratio = ratioOf(nsPerByte);
  const [a, b] = runs.slice(-2).map((r) => Math.max(r.ms - fixed, 1e-3));
  const exponent = runs.length >= 2 ? Math.log(b / a) / Math.log(runs[runs.length - 1].bytes / runs[runs.length - 2].bytes) : NaN;
  const stopped = notes.some((n) => n.startsWith('stopped'));
  const top = nsPerByte.filter((x): x is number => x !== undefined).at(-1) ?? 0;
  const cheap = ratio > SUPERLINEAR && top <= CHEAP_NS;
  if (cheap && !stopped) notes.push(`cheap at every size (≤ ${CHEAP_NS} ns/byte)`);
  const ok = !stopped && (!(ratio > SUPERLINEAR) || cheap);
  const step = !ok && !stopped && runs.length >= 2 && runs[runs.length - 1].size >= 4096 * KB && exponent <= STEP_EXPONENT;
  if (step) notes.push(`a step, not growth: flat from ${label(runs[runs.length - 2].size)} to ${label(runs[runs.length - 1].size)}`);
  if (!ok && !step && c.bound) notes.push(`bounded in practice: ${c.bound}`);
  const seconds = (performance.now() - started) / 1000;
  return {
    name: c.name,
    ok,
    step,
    nsPerByte,
    ratio,
    exponent,
    fixedUs: fixed * 1000,
    seconds,
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}

function label(bytes: number): string {
  return bytes >= 1024 * KB ? `${bytes / 1024 / KB} MB` : `${bytes / KB} KB`;
}

function cell(x: number | undefined): string {
  if (x === undefined) return '—'.padStart(8);
  return (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)).padStart(8);
}

function fixedCell(us: number): string {
  return (us >= 1000 ? `${(us / 1000).toFixed(1)} ms` : `${us.toFixed(0)} µs`).padStart(8);
}

const flags = (r: LinearResult) => !r.ok && !r.step;

/**
 * A flagged case is measured twice more and stays flagged only if two of the three runs flag it: on this shared
 * two-core VM one run of the same code put a case at ×1.0 and the next at ×4.7 (memory reclaim makes a large
 * input's first touch dear at random), while a case that does grow flags every time. The run shown is a flagging
 * one if it stays flagged, else a clean one, with how many of the three flagged.
 */
async function confirmed(run: () => Promise<LinearResult>): Promise<LinearResult> {
  const first = await run();
  if (!flags(first)) return first;
  const runs = [first, await run()];
  if (flags(runs[1])) return { ...first, note: joinNote(first.note, 'flagged 2 of 2 runs') };
  runs.push(await run());
  const flagged = runs.filter(flags).length;
  const shown = flagged >= 2 ? runs.filter(flags).at(-1)! : runs.find((r) => !flags(r))!;
  return { ...shown, note: joinNote(shown.note, `flagged ${flagged} of 3 runs`) };
}

const joinNote = (a: string | undefined, b: string) => (a ? `${a}; ${b}` : b);

/** Runs every case and prints one table row per case as it finishes. `sizes` replaces the ladder (to look closer at one case). */
export async function benchLinear(
  print: Print,
  opts: { maxBytes?: number; only?: RegExp; sizes?: number[] } = {},
): Promise<LinearResult[]> {
  const maxBytes = opts.maxBytes ?? 4096 * KB;
  const sizes = (opts.sizes ?? SIZES).filter((s) => s <= maxBytes);
  const cases = [...terminalCases(), ...fileCases()].filter((c) => !opts.only || opts.only.test(c.name));
  const width = Math.max(...cases.map((c) => c.name.length));
  const started = performance.now();
  print(
    `linear     : ns/byte (CPU time) of adversarial inputs over growing sizes, best of ${REPS}, gc before each from ${label(GC_FROM)}${(globalThis as { gc?: unknown }).gc ? '' : ' (run with --expose-gc)'}, the cost of a run on one unit`,
  );
  print(
    `             of input (fixed) taken off; ratio = ns/byte at the largest size run ÷ at the smallest (> ${SUPERLINEAR}: superlinear?); exp = growth exponent`,
  );
  print(
    `             between the two largest sizes (1 linear, 2 quadratic); a case predicted to run over ${RUN_CAP_MS / 1000} s at the next size stops there`,
  );
  print(`             ${'case'.padEnd(width)} ${sizes.map((s) => label(s).padStart(8)).join(' ')}    ratio   exp    fixed`);
  const results: LinearResult[] = [];
  for (const c of cases) {
    const r = await confirmed(() => measure(c, sizes, maxBytes, !opts.sizes));
    results.push(r);
    const ratio = Number.isNaN(r.ratio) ? '—' : `×${r.ratio.toFixed(1)}`;
    const exp = Number.isNaN(r.exponent) ? '—' : r.exponent.toFixed(2);
    print(
      `             ${r.name.padEnd(width)} ${r.nsPerByte.map(cell).join(' ')} ${ratio.padStart(8)} ${exp.padStart(5)} ${fixedCell(r.fixedUs)}${r.ok ? '' : '  superlinear?'}${r.note ? `  (${r.note})` : ''}`,
    );
  }
  const flagged = results.filter((r) => !r.ok && !r.step);
  const steps = results.filter((r) => r.step).length;
  print(
    `             ${results.length} cases in ${((performance.now() - started) / 1000).toFixed(1)} s; ${steps} marked but flat at the top (a step); ${flagged.length ? `${flagged.length} superlinear?: ${flagged.map((r) => r.name).join('; ')}` : 'none superlinear'}`,
  );
  return results;
}
