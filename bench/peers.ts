/**
 * Side by side with a peer: the detector's CPU over the real recordings against ccmanager's (4.2.3, from npm),
 * each run the way its product runs it. ccmanager writes every chunk into an @xterm/headless terminal with 5000
 * lines of scrollback and asks its agent's state detector every 100 ms (sessionManager.js: STATE_CHECK_INTERVAL_MS);
 * Agent Lens's TerminalDetector takes the same chunks with the command line VS Code's shell integration reports.
 * Both on the recording's own clock, synchronously (xterm's writeSync, as the detector's screen does), so only CPU
 * is compared: user + system time of this process, best of ROUNDS, all recordings of an agent back to back.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { Terminal } from '@xterm/headless';
import { TerminalDetector } from '../src/detect/detector';
import type { Cast } from '../src/formats/cast';

/**
 * ccmanager from the npm registry, unpacked beside the agent CLIs (.agents, git-ignored): not a dependency, as its
 * platform binaries (optional dependencies of the package) are not all on every registry, and `npm ci` then fails.
 * Its state detectors are plain ES modules that import nothing outside the package.
 */
const CCMANAGER = 'ccmanager@4.2.3';

type SessionState = 'idle' | 'busy' | 'waiting_input' | 'pending_auto_approval';
type StateDetectionStrategy = 'claude' | 'gemini' | 'codex' | 'opencode';
interface StateDetector {
  detectState(terminal: Terminal, current: SessionState): SessionState;
}
type CreateStateDetector = (strategy: StateDetectionStrategy) => StateDetector;

/** ccmanager's createStateDetector, unpacked on first use; undefined (and why) when it cannot be had. */
async function loadCcmanager(root: string): Promise<CreateStateDetector | string> {
  const dir = path.join(root, '.agents', 'peers', CCMANAGER.replace('@', '-'));
  const entry = path.join(dir, 'package', 'dist', 'services', 'stateDetector', 'index.js');
  try {
    if (!fs.existsSync(entry)) {
      fs.mkdirSync(dir, { recursive: true });
      const tgz = execFileSync('npm', ['pack', CCMANAGER, '--silent', '--pack-destination', dir], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .at(-1)!;
      execFileSync('tar', ['xzf', path.join(dir, tgz), '-C', dir]);
    }
    const mod = (await import(pathToFileURL(entry).href)) as { createStateDetector: CreateStateDetector };
    return mod.createStateDetector;
  } catch (e) {
    return `${CCMANAGER} could not be fetched from the npm registry (${(e as Error).message.split('\n')[0]})`;
  }
}

/** ccmanager's detection strategy for each agent it knows that has recordings here. */
const STRATEGY: Record<string, StateDetectionStrategy> = {
  'claude-code': 'claude',
  codex: 'codex',
  gemini: 'gemini',
  opencode: 'opencode',
};
const CHECK_MS = 100;
const SCROLLBACK = 5000;
const ROUNDS = 5;

export interface PeerRec {
  agent: string;
  cast: Cast;
  commandLine?: string;
}

type Print = (s: string) => void;

function cpuMs(run: () => void): number {
  const t0 = process.cpuUsage();
  run();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000;
}

/**
 * ccmanager: the terminal its session keeps, and its agent's detector every 100 ms of the recording; with
 * `detect` false, the terminal alone (what the emulator costs it, to tell its detector's own cost).
 */
function ccmanager(createStateDetector: CreateStateDetector, rec: PeerRec, detect = true, scrollback = SCROLLBACK): void {
  const term = new Terminal({ cols: rec.cast.cols, rows: rec.cast.rows, scrollback, allowProposedApi: true, logLevel: 'off' });
  const core = (term as unknown as { _core: { writeSync(data: string): void } })._core;
  const detector = createStateDetector(STRATEGY[rec.agent]);
  let state: SessionState = 'idle';
  let nextCheck = CHECK_MS / 1000;
  for (const ev of rec.cast.events) {
    for (; detect && nextCheck <= ev.t; nextCheck += CHECK_MS / 1000) state = detector.detectState(term, state);
    if (ev.code === 'o') core.writeSync(ev.data);
  }
  term.dispose();
}

/** Agent Lens: the detector as a terminal session runs it. */
function agentLens(rec: PeerRec): void {
  const det = new TerminalDetector({ cols: rec.cast.cols, rows: rec.cast.rows, commandLine: rec.commandLine, t: 0 });
  for (const ev of rec.cast.events) {
    if (ev.code === 'o') det.write(ev.data, ev.t);
    else det.advance(ev.t);
  }
  det.advance(rec.cast.duration + 2);
  det.dispose();
}

/** The best of ROUNDS CPU times of running `side` over every recording of the set. */
function best(set: readonly PeerRec[], side: (r: PeerRec) => void): number {
  let ms = Infinity;
  for (let round = 0; round < ROUNDS; round++)
    ms = Math.min(
      ms,
      cpuMs(() => set.forEach((r) => side(r))),
    );
  return ms;
}

/**
 * Prints, per agent and over all, each side's CPU and the ratio (Agent Lens ÷ ccmanager): whole, and net of the
 * terminal emulator both run (@xterm/headless: Agent Lens's without scrollback, ccmanager's with 5000 lines).
 */
export async function benchPeers(print: Print, recs: readonly PeerRec[], root: string): Promise<void> {
  const create = await loadCcmanager(root);
  if (typeof create === 'string') return print(`peers      : not measured: ${create}`);
  const mine = recs.filter((r) => STRATEGY[r.agent]);
  const theirs = (r: PeerRec) => ccmanager(create, r);
  const bare = (r: PeerRec) => ccmanager(create, r, false, 0);
  const theirsBare = (r: PeerRec) => ccmanager(create, r, false);
  // Compiled before anything is timed.
  for (const r of mine) [theirs, agentLens, bare, theirsBare].forEach((side) => side(r));
  print(
    `peers      : CPU over the same real recordings beside ccmanager 4.2.3's detectors, each as its product runs it (best of ${ROUNDS}); ratio = Agent Lens ÷ ccmanager, whole and net of the terminal emulator`,
  );
  const sum = { ours: 0, theirs: 0, oursNet: 0, theirsNet: 0 };
  for (const agent of [...new Set(mine.map((r) => r.agent))]) {
    const set = mine.filter((r) => r.agent === agent);
    const ours = best(set, agentLens);
    const their = best(set, theirs);
    const oursNet = Math.max(0, ours - best(set, bare));
    const theirsNet = Math.max(0, their - best(set, theirsBare));
    Object.assign(sum, {
      ours: sum.ours + ours,
      theirs: sum.theirs + their,
      oursNet: sum.oursNet + oursNet,
      theirsNet: sum.theirsNet + theirsNet,
    });
    print(
      `             ${agent.padEnd(12)} ${set.length} recordings: Agent Lens ${ours.toFixed(1)} ms (net ${oursNet.toFixed(1)}), ccmanager ${their.toFixed(1)} ms (net ${theirsNet.toFixed(1)}); ratio ${(ours / their).toFixed(2)}×, net ${(oursNet / theirsNet).toFixed(2)}×`,
    );
  }
  print(
    `             all          ratio ${(sum.ours / sum.theirs).toFixed(2)}×, net of the emulator ${(sum.oursNet / sum.theirsNet).toFixed(2)}× (goal ≤ 0.4×)`,
  );
}
