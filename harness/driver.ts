/**
 * Runs one scenario: mock server + isolated home + the real CLI in a real PTY, plays the steps,
 * and writes the recording folder:
 *
 *   session.cast         asciinema v2 ([t,"o",…] output, [t,"i",…] input, [t,"x","<code>"] exit)
 *   expected.json        [{t_from, t_to, state, agent, cue, accept?, note?}] resolved from the scenario's anchors
 *   marks.jsonl          named moments of the run
 *   meta.json            scenario, versions, sizes, exit, marks, problems, collected files
 *   mock-requests.jsonl  every request the mock saw (auth redacted) + serve events
 *   mock-script.json     the scripted turns
 *   hooks.jsonl / events.jsonl (OpenCode)   hook / plugin / extension (pi) payloads with t_cast and after_recording
 *   transcript.jsonl (Claude) / rollout.jsonl (Codex) / storage.json (OpenCode) / gemini-session.jsonl / pi-session.jsonl
 *   term-replies.jsonl   what the emulated terminal answered to the CLI's queries
 *   final-screen.txt     the rendered screen at the end of the recording
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createMock } from './agentControls';
import { nonLoopbackConnects, sampleRemoteEndpoints } from './loopbackGuard';
import { type AgentHome, type AgentName, codexPackagesCache, findRunProcesses, killRunProcesses, prepareHome } from './homes';
import { type ExpectedSegment, HARNESS_ID, type Mark, resolveSegments } from './anchors';
import type { MockServer } from './mock/common';
import { playSteps } from './playSteps';
import { type ExitInfo, PtyRun, sleep } from './ptyRun';
import { writeOutputs } from './runOutputs';
import { snapshotSessionLogs } from './sessionLogs';
import type { Scenario } from './scenario';

export { type ExpectedSegment, HARNESS_ID, type Mark, resolveSegments };

export interface RunOptions {
  scenario: Scenario;
  outDir: string;
  agentsDir?: string;
  verbose?: boolean;
  /** Keep the /tmp run directory (home, project) after the run. */
  keepRunDir?: boolean;
  /**
   * Run the CLI under `strace -f -e trace=connect` and report every non-loopback connect() (verifies
   * that nothing leaves the machine; DNS lookups show up as connects to the resolver). Slows the CLI a bit.
   */
  strace?: boolean;
  /** Overwrite an output folder that this harness did not write (e.g. a hand-made recording). */
  force?: boolean;
  /** Every output chunk as it arrives (seconds since spawn): live tests feed a detector with it. */
  onOutput?: (data: string, t: number) => void;
  /** The process ended. */
  onExit?: (exitCode: number, t: number) => void;
  /** The agent's home is ready, before the CLI starts: add settings, hooks or environment (live hook tests). */
  onHome?: (home: AgentHome) => void;
  /** The CLI was spawned in its PTY (its pid stands in for a terminal's shell). */
  onSpawn?: (pid: number) => void;
}

export interface RunResult {
  scenario: string;
  agent: AgentName;
  outDir: string;
  duration: number;
  problems: string[];
  exit?: ExitInfo;
  expected: ExpectedSegment[];
}

export async function runScenario(opts: RunOptions): Promise<RunResult> {
  const sc = opts.scenario;
  const out = opts.outDir;
  claimOutDir(out, !!opts.force);
  const problems: string[] = [];
  const dbg = (s: string) => opts.verbose && process.stderr.write(`[${sc.agent}/${sc.id}] ${s}\n`);
  fs.writeFileSync(path.join(out, 'mock-script.json'), JSON.stringify(sc.mock, null, 1));
  const mock = createMock(sc.agent, sc, path.join(out, 'mock-requests.jsonl'), !!opts.verbose);
  await mock.listen();
  const home = homeFor(sc, mock, opts);
  dbg(`run dir ${home.runDir}, mock ${mock.url}`);
  const straceFile = path.join(home.runDir, 'strace.txt');
  const run = spawnRun(sc, home, opts, {
    castPath: path.join(out, 'session.cast'),
    straceFile: opts.strace ? straceFile : undefined,
    debug: dbg,
  });
  const netSeen = new Set<string>();
  const netTimer = setInterval(() => sampleRemoteEndpoints(home.runId, netSeen), 1000);

  const { aborted } = await playSteps({ run, scenario: sc, mock, problems });
  // The tail: what the CLI does after the last step is part of the recording.
  if (!run.exitInfo) await Promise.race([sleep(aborted ? 1000 : (sc.tailMs ?? 3000)), run.exited]);
  else await sleep(300);
  const endT = run.now();
  run.mark('recording ended');
  const finalScreen = run.stopRecording();
  snapshotSessionLogs(home);

  const exitAfter = await run.hangUp();
  sampleRemoteEndpoints(home.runId, netSeen);
  clearInterval(netTimer);
  const killed = await stopEverything(sc.agent, home, problems);
  run.dispose();
  await mock.close();

  if (opts.strace) for (const c of nonLoopbackConnects(straceFile)) netSeen.add(`connect ${c}`);
  const expected = writeOutputs({
    scenario: sc,
    run,
    home,
    mock,
    out,
    endT,
    finalScreen,
    exitAfter,
    problems,
    remote: [...netSeen],
    killed,
    keepRunDir: !!opts.keepRunDir,
    strace: !!opts.strace,
  });
  if (!opts.keepRunDir) await removeRunDir(home);
  return { scenario: sc.id, agent: sc.agent, outDir: out, duration: endT, problems, exit: run.exitInfo ?? exitAfter, expected };
}

/** The CLI started in its PTY, recorded from the first byte; the spawn is the run's first mark. */
function spawnRun(
  sc: Scenario,
  home: AgentHome,
  opts: RunOptions,
  o: { castPath: string; straceFile?: string; debug(s: string): void },
): PtyRun {
  const run = new PtyRun({
    home,
    cols: sc.cols ?? 120,
    rows: sc.rows ?? 35,
    title: `${sc.agent} ${sc.id}`,
    ...o,
    onOutput: opts.onOutput,
    onExit: opts.onExit,
  });
  opts.onSpawn?.(run.pid);
  run.mark('spawned', {
    pid: run.pid,
    command: home.command.replace(path.dirname(path.dirname(path.dirname(home.command))), '…'),
    args: home.args,
  });
  return run;
}

/** The output folder, emptied: refused when something else wrote it (no meta.json of this harness), unless forced. */
function claimOutDir(out: string, force: boolean): void {
  if (fs.existsSync(out) && fs.readdirSync(out).length && !force) {
    let ours = false;
    try {
      ours = (JSON.parse(fs.readFileSync(path.join(out, 'meta.json'), 'utf8')) as { harness?: string }).harness === HARNESS_ID;
    } catch {
      /* no meta */
    }
    if (!ours)
      throw new Error(`${out} exists and was not written by this harness (no meta.harness="${HARNESS_ID}"); pass force to overwrite`);
  }
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
}

/** The isolated home the CLI runs in, pointed at the mock. */
function homeFor(sc: Scenario, mock: MockServer, opts: RunOptions): AgentHome {
  const home = prepareHome(sc.agent, {
    baseUrl: mock.url,
    agentsDir: opts.agentsDir,
    files: sc.files,
    env: sc.env,
    args: sc.args,
    permissionMode: sc.permissionMode,
    untrusted: sc.untrusted,
    untrustedHooks: sc.untrustedHooks,
    firstStart: sc.firstStart,
    piExtensions: sc.piExtensions,
  });
  mock.vars.CWD = home.cwd;
  opts.onHome?.(home);
  return home;
}

/** Lets late hooks land, keeps Codex's package cache, then kills whatever of the run still lives. */
async function stopEverything(agent: AgentName, home: AgentHome, problems: string[]): Promise<{ pid: number; cmdline: string }[]> {
  // Codex's daemon outlives the TUI and writes its SessionEnd hooks late: give it a moment before it is stopped.
  await sleep(agent === 'codex' ? 1500 : 800);
  if (agent === 'codex') {
    const pk = path.join(home.home, '.codex', 'packages');
    const cache = codexPackagesCache();
    if (fs.existsSync(pk) && !fs.existsSync(cache)) {
      try {
        execFileSync('cp', ['-al', pk, cache]);
      } catch {
        /* ignore */
      }
    }
  }
  const killed = await killRunProcesses(home.runId);
  await sleep(300);
  if (findRunProcesses(home.runId).length) problems.push('processes of the run survived SIGKILL');
  return killed;
}

async function removeRunDir(home: AgentHome): Promise<void> {
  fs.rmSync(home.runDir, { recursive: true, force: true });
  // A process that was still exiting may have re-created files: once more after the stragglers are gone.
  await killRunProcesses(home.runId, 500);
  fs.rmSync(home.runDir, { recursive: true, force: true });
}
