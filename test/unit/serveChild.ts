// `agent-lens serve` as a watched child: its stderr, its peak RSS sampled from /proc, and a kill when it hangs or
// grows past a bound, so a regression that freezes or balloons the hub fails its test instead of the machine.
import { type ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { send } from './handoffContract';

/** The dist folder under test: AGENT_LENS_DIST=/work/base/dist runs the same tests against another build. */
export const DIST = path.resolve(process.env.AGENT_LENS_DIST ?? 'dist');
export const CLI = path.join(DIST, 'cli.js');

export interface ServeChild {
  child: ChildProcess;
  stderr(): string;
  /** Peak resident memory seen so far, in MB. */
  peakMb(): number;
  /** Why the watchdog killed it, if it did. */
  killed(): string | undefined;
  /** Resolves with the first stderr text matching `re`; rejects when the child dies or `ms` pass first. */
  waitFor(re: RegExp, ms: number): Promise<RegExpMatchArray>;
  /** Port and token from the info file, once the hub listens. */
  info(ms?: number): Promise<{ port: number; token: string }>;
  stop(): Promise<void>;
}

function rssMb(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Starts serve with `args` (plus --info-file), killed past `limitMb` of RSS or after `lifeMs`. */
export function startServe(args: string[], infoFile: string, o: { limitMb?: number; lifeMs?: number } = {}): ServeChild {
  const w = runWatched(['serve', ...args, '--info-file', infoFile], o);
  return {
    ...w,
    info: async (ms = 20_000) => {
      await w.waitFor(/listening on 127\.0\.0\.1/, ms);
      return JSON.parse(fs.readFileSync(infoFile, 'utf8')) as { port: number; token: string };
    },
  };
}

/** Samples a child's RSS every 25 ms and kills it past `limitMb` or after `lifeMs`, remembering why. */
function watchdog(
  child: ChildProcess,
  limitMb: number,
  lifeMs: number,
): { peak(): number; why(): string | undefined; kill(reason: string): void } {
  let peak = 0;
  let why: string | undefined;
  const kill = (reason: string) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    why ??= reason;
    child.kill('SIGKILL');
  };
  const watch = setInterval(() => {
    const mb = rssMb(child.pid!);
    if (mb === undefined) return;
    peak = Math.max(peak, mb);
    if (mb > limitMb) kill(`RSS ${mb.toFixed(0)} MB passed ${limitMb} MB`);
  }, 25);
  const life = setTimeout(() => kill(`still running after ${lifeMs} ms`), lifeMs);
  child.on('exit', () => {
    clearInterval(watch);
    clearTimeout(life);
  });
  return { peak: () => Math.max(peak, rssMb(child.pid!) ?? 0), why: () => why, kill };
}

/** Runs the CLI with `argv` under the watchdog: killed past `limitMb` of RSS (default 300) or after `lifeMs` (30 s). */
export function runWatched(
  argv: string[],
  o: { limitMb?: number; lifeMs?: number; env?: NodeJS.ProcessEnv } = {},
): Omit<ServeChild, 'info'> & { exited: Promise<number | null> } {
  const child = spawn(process.execPath, [CLI, ...argv], { stdio: ['ignore', 'pipe', 'pipe'], env: o.env ?? process.env });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const dog = watchdog(child, o.limitMb ?? 300, o.lifeMs ?? 30_000);
  let err = '';
  const waiters = new Set<() => void>();
  const poke = () => waiters.forEach((w) => w());
  child.stderr!.on('data', (c: Buffer) => {
    if (err.length < 4 * 1024 * 1024) err += c.toString();
    poke();
  });
  child.stdout!.on('data', () => undefined);
  child.on('exit', poke);
  const dead = () => child.exitCode !== null || child.signalCode !== null;
  const waitFor = (re: RegExp, ms: number) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const m = re.exec(err);
        if (m) return done(() => resolve(m));
        if (dead())
          return done(() =>
            reject(
              new Error(`the CLI ended (${dog.why() ?? `exit ${child.exitCode ?? child.signalCode}`}) before ${re}: ${err.slice(-2000)}`),
            ),
          );
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`no ${re} within ${ms} ms (${dog.why() ?? 'still running'}): ${err.slice(-2000)}`))),
        ms,
      );
      const done = (f: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        f();
      };
      waiters.add(check);
      check();
    });
  const stop = async () => {
    if (dead()) return;
    child.kill('SIGTERM');
    const t = setTimeout(() => dog.kill('did not stop on SIGTERM'), 5000);
    await exited;
    clearTimeout(t);
  };
  return { child, stderr: () => err, peakMb: dog.peak, killed: dog.why, waitFor, exited, stop };
}

/** A request that gives up after `ms` (a hub frozen in a read never answers). */
export async function sendWithin(ms: number, ...args: Parameters<typeof send>): ReturnType<typeof send> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([send(...args), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every file and folder under `dir` with its kind, size, mode, mtime and (for files) contents: equal listings mean nothing changed. */
export function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const p = path.join(d, name);
      const st = fs.lstatSync(p);
      const kind = st.isSymbolicLink()
        ? `link:${fs.readlinkSync(p)}`
        : st.isDirectory()
          ? 'dir'
          : st.isFile()
            ? `file:${fs.readFileSync(p, 'utf8')}`
            : 'other';
      out.push(`${path.relative(dir, p)} ${st.mode.toString(8)} ${st.mtimeMs} ${kind}`);
      if (st.isDirectory() && !st.isSymbolicLink()) walk(p);
    }
  };
  walk(dir);
  return out;
}
