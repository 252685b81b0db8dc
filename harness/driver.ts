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
import * as pty from '@lydell/node-pty';
import { QUIT, createMock, keyBytes } from './agentControls';
import { nonLoopbackConnects, sampleRemoteEndpoints } from './loopbackGuard';
import { collectSessionLogs } from './sessionLogs';
import {
  AGENT_VERSIONS,
  type AgentHome,
  type AgentName,
  codexPackagesCache,
  findRunProcesses,
  killRunProcesses,
  prepareHome,
} from './homes';
import { type ExpectedSegment, HARNESS_ID, type Mark, resolveSegments } from './anchors';
import type { Scenario, Step } from './scenario';
import { type CastEvent, type CastHeader, createTerm, screenTimeline } from './screen';

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
  exit?: { t: number; exitCode: number; signal?: number };
  expected: ExpectedSegment[];
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const r3 = (x: number) => Math.round(x * 1000) / 1000;

export async function runScenario(opts: RunOptions): Promise<RunResult> {
  const sc = opts.scenario;
  const agent = sc.agent;
  const cols = sc.cols ?? 120;
  const rows = sc.rows ?? 35;
  const out = opts.outDir;
  if (fs.existsSync(out) && fs.readdirSync(out).length && !opts.force) {
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
  const problems: string[] = [];
  const marks: Mark[] = [];
  const verbose = !!opts.verbose;
  const dbg = (s: string) => verbose && process.stderr.write(`[${agent}/${sc.id}] ${s}\n`);

  fs.writeFileSync(path.join(out, 'mock-script.json'), JSON.stringify(sc.mock, null, 1));
  const mock = createMock(agent, sc, path.join(out, 'mock-requests.jsonl'), verbose);
  await mock.listen();

  const home: AgentHome = prepareHome(agent, {
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
  dbg(`run dir ${home.runDir}, mock ${mock.url}`);

  // ------------------------------------------------------------ PTY + screen + cast
  const castPath = path.join(out, 'session.cast');
  const castFd = fs.openSync(castPath, 'w');
  const t0 = Date.now();
  const now = () => r3((Date.now() - t0) / 1000);
  const header: CastHeader = {
    version: 2,
    width: cols,
    height: rows,
    timestamp: Math.floor(t0 / 1000),
    env: { TERM: home.env.TERM ?? 'xterm-256color', SHELL: home.env.SHELL ?? '/bin/bash' },
    title: `${agent} ${sc.id}`,
  };
  fs.writeSync(castFd, `${JSON.stringify(header)}\n`);
  const events: CastEvent[] = [];
  let recording = true;
  const castEvent = (kind: 'o' | 'i' | 'x', data: string) => {
    if (!recording) return;
    const ev: CastEvent = [now(), kind, data];
    events.push(ev);
    fs.writeSync(castFd, `${JSON.stringify(ev)}\n`);
  };
  const mark = (label: string, extra: Record<string, unknown> = {}) => {
    const m: Mark = { t: now(), label, ...extra };
    marks.push(m);
    dbg(`mark ${m.t} ${label}`);
    return m;
  };

  const replies: Array<[number, string]> = [];
  let p: pty.IPty | undefined;
  const ht = createTerm(cols, rows, (d) => {
    replies.push([now(), d]);
    try {
      p?.write(d);
    } catch {
      /* exited */
    }
  });

  let exitInfo: { t: number; exitCode: number; signal?: number } | undefined;
  let exitResolve: () => void = () => {};
  const exited = new Promise<void>((r) => (exitResolve = r));
  type Waiter = { check: () => boolean; resolve: () => void };
  let waiters: Waiter[] = [];
  const checkWaiters = () => {
    if (!waiters.length) return;
    waiters = waiters.filter((w) => {
      if (w.check()) {
        w.resolve();
        return false;
      }
      return true;
    });
  };

  const straceFile = path.join(home.runDir, 'strace.txt');
  const [cmd, cmdArgs] = opts.strace
    ? ['strace', ['-f', '-qq', '-e', 'trace=connect', '-o', straceFile, home.command, ...home.args]]
    : [home.command, home.args];
  p = pty.spawn(cmd, cmdArgs, {
    name: home.env.TERM ?? 'xterm-256color',
    cols,
    rows,
    cwd: home.cwd,
    env: home.env,
  });
  opts.onSpawn?.(p.pid);
  mark('spawned', {
    pid: p.pid,
    command: home.command.replace(path.dirname(path.dirname(path.dirname(home.command))), '…'),
    args: home.args,
  });
  p.onData((d) => {
    castEvent('o', d);
    opts.onOutput?.(d, now());
    ht.write(d);
    checkWaiters();
  });
  p.onExit(({ exitCode, signal }) => {
    exitInfo = { t: now(), exitCode, signal };
    opts.onExit?.(exitCode, exitInfo.t);
    castEvent('x', String(exitCode));
    mark('exited', { exitCode, signal });
    exitResolve();
    checkWaiters();
  });

  const netSeen = new Set<string>();
  const netTimer = setInterval(() => sampleRemoteEndpoints(home.runId, netSeen), 1000);

  const waitFor = (check: () => boolean, timeoutMs: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (check()) return resolve(true);
      const w: Waiter = {
        check,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        waiters = waiters.filter((x) => x !== w);
        resolve(false);
      }, timeoutMs);
      waiters.push(w);
    });

  const write = (data: string) => {
    if (exitInfo) return;
    castEvent('i', data);
    p!.write(data);
  };

  const appCursor = () => !!(ht.term.modes as { applicationCursorKeysMode?: boolean }).applicationCursorKeysMode;

  // ------------------------------------------------------------ steps
  const runStep = async (s: Step): Promise<boolean> => {
    switch (s.do) {
      case 'type': {
        if (s.mark) mark(s.mark, { text: s.text });
        if (s.charDelayMs) {
          for (const ch of s.text) {
            write(ch);
            await sleep(s.charDelayMs);
          }
        } else write(s.text);
        return true;
      }
      case 'enter':
        if (s.mark) mark(s.mark);
        write('\r');
        return true;
      case 'key': {
        if (s.mark) mark(s.mark, { key: s.key });
        for (let i = 0; i < (s.times ?? 1); i++) {
          write(keyBytes(s.key, appCursor()));
          if ((s.times ?? 1) > 1) await sleep(120);
        }
        return true;
      }
      case 'wait':
        await sleep(s.ms);
        if (s.mark) mark(s.mark);
        return true;
      case 'mark':
        if (s.mark) mark(s.mark);
        return true;
      case 'waitText':
      case 'waitGone': {
        const want = s.do === 'waitText';
        const ok = await waitFor(() => s.re.test(ht.screenText()) === want, s.timeoutMs ?? 30_000);
        if (ok) {
          mark(s.mark ?? `${want ? 'saw' : 'gone'} ${String(s.re)}`);
          return true;
        }
        problems.push(`${s.do} ${String(s.re)} timed out after ${s.timeoutMs ?? 30_000} ms${s.mark ? ` (${s.mark})` : ''}`);
        mark(`timeout ${String(s.re)}`);
        return !!s.optional;
      }
      case 'waitRequests': {
        const ok = await mock.waitAgentRequests(s.count, s.timeoutMs ?? 30_000);
        if (ok) {
          mark(s.mark ?? `agent request #${s.count}`);
          return true;
        }
        problems.push(`waitRequests ${s.count} timed out (got ${mock.agentRequests})`);
        return !!s.optional;
      }
      case 'waitExit': {
        const ok = await Promise.race([exited.then(() => true), sleep(s.timeoutMs ?? 15_000).then(() => false)]);
        if (ok) {
          if (s.mark) mark(s.mark);
          return true;
        }
        problems.push(`process did not exit within ${s.timeoutMs ?? 15_000} ms`);
        return !!s.optional;
      }
      case 'quit': {
        if (s.mark) mark(s.mark);
        for (const q of QUIT[agent]) await runStep(q);
        return true;
      }
    }
  };

  const deadline = t0 + (sc.timeoutMs ?? 240_000);
  let aborted = false;
  for (const s of sc.steps) {
    if (Date.now() > deadline) {
      problems.push('scenario timeout');
      aborted = true;
      break;
    }
    if (exitInfo && s.do !== 'waitExit' && s.do !== 'wait' && s.do !== 'mark') {
      problems.push(`process exited before step ${JSON.stringify({ ...s, re: 're' in s ? String(s.re) : undefined })}`);
      aborted = true;
      break;
    }
    const ok = await runStep(s);
    if (!ok) {
      aborted = true;
      break;
    }
  }
  // tail
  if (!exitInfo) await Promise.race([sleep(aborted ? 1000 : (sc.tailMs ?? 3000)), exited]);
  else await sleep(300);
  const endT = now();
  mark('recording ended');
  const finalScreen = ht.screenText();
  recording = false;
  fs.closeSync(castFd);

  // ------------------------------------------------------------ teardown
  let exitAfter: typeof exitInfo;
  if (!exitInfo) {
    try {
      p.kill('SIGHUP'); // like closing the terminal tab
    } catch {
      /* gone */
    }
    await Promise.race([exited, sleep(4000)]);
    exitAfter = exitInfo;
    if (!exitInfo) {
      try {
        p.kill('SIGKILL');
      } catch {
        /* gone */
      }
      await Promise.race([exited, sleep(1000)]);
      exitAfter = exitInfo;
    }
  }
  sampleRemoteEndpoints(home.runId, netSeen);
  clearInterval(netTimer);
  if (agent === 'codex') {
    // give the daemon a moment to write SessionEnd hooks, then stop it (it outlives the TUI)
    await sleep(1500);
  } else await sleep(800);
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
  ht.dispose();
  await mock.close();

  // ------------------------------------------------------------ outputs
  const rel = (s: string) => s.split(home.home).join('$HOME').split(home.runDir).join('$RUN');
  // marks
  fs.writeFileSync(path.join(out, 'marks.jsonl'), marks.map((m) => JSON.stringify(m)).join('\n') + '\n');
  fs.writeFileSync(path.join(out, 'term-replies.jsonl'), replies.map((r) => JSON.stringify(r)).join('\n') + (replies.length ? '\n' : ''));
  fs.writeFileSync(path.join(out, 'final-screen.txt'), finalScreen.replace(/\s+$/, '') + '\n');
  // mock log: add t_cast
  const mockLog = path.join(out, 'mock-requests.jsonl');
  const mockLines = fs
    .readFileSync(mockLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const o = JSON.parse(l) as Record<string, unknown>;
      if (typeof o.wall === 'string') o.t_cast = r3((Date.parse(o.wall) - t0) / 1000);
      return JSON.stringify(o);
    });
  fs.writeFileSync(mockLog, mockLines.join('\n') + '\n');
  const unknownPaths = mock.entries.filter((e) => e.kind === 'unknown').map((e) => `${e.method} ${e.path}`);
  // hooks / plugin events
  const hookLines = fs.existsSync(home.hooksLog)
    ? fs
        .readFileSync(home.hooksLog, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          try {
            const o = JSON.parse(l) as Record<string, unknown>;
            const at = Number(o.logged_at_ms);
            o.t_cast = r3((at - t0) / 1000);
            o.after_recording = (o.t_cast as number) > endT;
            return JSON.stringify(o).split(home.runDir).join('$RUN');
          } catch {
            return l;
          }
        })
    : [];
  const hooksFile = agent === 'opencode' ? 'events.jsonl' : 'hooks.jsonl';
  fs.writeFileSync(path.join(out, hooksFile), hookLines.join('\n') + (hookLines.length ? '\n' : ''));
  // session logs
  const sessionLogs = collectSessionLogs(home, out, problems);

  // expected states
  const frames = screenTimeline(header, events);
  const { segments, problems: anchorProblems } = resolveSegments(sc.expect, {
    frames,
    marks,
    exitT: exitInfo && exitInfo.t <= endT ? exitInfo.t : undefined,
    endT,
    agent,
  });
  problems.push(...anchorProblems);
  fs.writeFileSync(path.join(out, 'expected.json'), JSON.stringify(segments, null, 1) + '\n');

  if (opts.strace) for (const c of nonLoopbackConnects(straceFile)) netSeen.add(`connect ${c}`);
  const remote = [...netSeen];
  if (remote.length) {
    const msg = `non-loopback sockets seen: ${remote.join(', ')}`;
    if (agent === 'opencode') sc.notes = [...(sc.notes ?? []), msg];
    else problems.push(msg);
  }
  const meta = {
    harness: HARNESS_ID,
    scenario: sc.id,
    agent,
    agent_version: AGENT_VERSIONS[agent],
    description: sc.description,
    command: rel(home.command),
    args: home.args,
    cols,
    rows,
    recorded_at: new Date(t0).toISOString(),
    cast_start_epoch_ms: t0,
    recording_end_t: endT,
    exit: exitInfo ? { ...exitInfo, during_recording: exitInfo.t <= endT } : (exitAfter ?? null),
    end_action: exitInfo && exitInfo.t <= endT ? 'process exited' : 'SIGHUP (terminal closed) after recording ended',
    markers: marks,
    problems,
    notes: sc.notes ?? [],
    env: Object.fromEntries(
      Object.entries(home.env)
        .filter(([k]) => !/KEY|TOKEN|SECRET/i.test(k))
        .map(([k, v]) => [k, rel(v)]),
    ),
    permission_mode_setting: agent === 'claude-code' ? (sc.permissionMode ?? 'default') : undefined,
    mock: { protocol: mock.handler.name, requests: mock.entries.length, agent_requests: mock.agentRequests, unknown_paths: unknownPaths },
    terminal_replies: replies.length,
    session_logs: sessionLogs,
    killed_processes: killed.map((k) => ({ pid: k.pid, cmdline: rel(k.cmdline) })),
    run_dir: opts.keepRunDir ? home.runDir : undefined,
    network_check: {
      method: opts.strace ? 'strace connect() + /proc socket sampling' : '/proc socket sampling every 1 s',
      non_loopback: remote,
    },
  };
  fs.writeFileSync(path.join(out, 'meta.json'), JSON.stringify(meta, null, 1) + '\n');
  if (!opts.keepRunDir) {
    fs.rmSync(home.runDir, { recursive: true, force: true });
    // a process that was still exiting may have re-created files: once more after the stragglers are gone
    await killRunProcesses(home.runId, 500);
    fs.rmSync(home.runDir, { recursive: true, force: true });
  }
  return { scenario: sc.id, agent, outDir: out, duration: endT, problems, exit: exitInfo ?? exitAfter, expected: segments };
}
