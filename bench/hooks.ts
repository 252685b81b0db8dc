/**
 * Hook reporting benchmark, printed (never asserted), with the real built reporter (`dist/agent-lens-report.js`,
 * from `node esbuild.mjs`) installed as on activation, a real hub on 127.0.0.1 and hook commands run the way
 * agents run them (`/bin/sh -c <command>`, the payload on stdin; wall time of the whole process):
 *  (1) a gated event with no wait open: one `test -e`, stdin drained, no Node started;
 *  (2) a reporting event, process start included, for Claude Code and Codex (the request is sent before the hook
 *      returns: the hub tells who sent it by the process holding the connection);
 *  (3) the hub's side: HookSource (mapping, attribution) into an AgentStore, per report, in process.
 */
import { repoRoot } from '../harness/repoRoot';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { recordingHooks } from '../harness/recordingLogs';
import { hookCommand } from '../src/integrations/commands';
import type { Report } from '../src/hooks/report';
import { installReporter } from '../src/integrations/reporter/reporterFiles';
import { REPORT_BODY_LIMIT, REPORT_PATH, type ReportingAgent } from '../src/hooks/wire';
import { writeDiscovery } from '../src/hub/discovery';
import { Hub } from '../src/hub/hub';
import { HookSource } from '../src/sources/hooks/hookSource';
import { AgentStore } from '../src/store/store';

type Print = (s: string) => void;

const GATED_RUNS = 50;
const REPORT_RUNS = 20;
const IN_PROCESS_REPORTS = 10_000;
const RECORDINGS = { 'claude-code': 'claude-code/04-bash-permission-approve', codex: 'codex/04-approval-approve' } as const;

/** One recorded payload of this event (the hook's stdin as the CLI wrote it). */
export function payloadOf(root: string, agent: keyof typeof RECORDINGS, event: string): Record<string, unknown> {
  const p = recordingHooks(path.join(root, 'test', 'fixtures', 'recordings', RECORDINGS[agent]), agent).find(
    (h) => h.payload.hook_event_name === event,
  )?.payload;
  if (!p) throw new Error(`no recorded ${agent} ${event}`);
  return p;
}

/** Runs a hook command as the agents do; resolves with the wall time of the whole `sh -c` process (ms). */
function runHook(command: string, stdin: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn('/bin/sh', ['-c', command], { env, stdio: ['pipe', 'ignore', 'ignore'] });
    p.on('error', reject);
    p.stdin.on('error', () => undefined);
    p.stdin.end(stdin);
    p.on('close', () => resolve(performance.now() - t0));
  });
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))];
}

export const ms = (xs: number[], digits = 1) => `p50 ${pct(xs, 50).toFixed(digits)} ms, p95 ${pct(xs, 95).toFixed(digits)} ms`;

interface Rig {
  env: NodeJS.ProcessEnv;
  reporter: string;
  /** performance.now() of each report the hub received. */
  arrivals: number[];
}

export async function waitFor(cond: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (!cond() && performance.now() < end) await new Promise((r) => setTimeout(r, 1));
  return cond();
}

/**
 * The gate, timed against an empty `sh -c exit` from this process, interleaved: the parent's side of starting a
 * process (fork of a large Node process) grows with what that process has mapped, here and in the agents alike.
 */
async function gated(print: Print, rig: Rig, root: string): Promise<void> {
  const cmd = hookCommand(rig.reporter, 'claude-code', true);
  const stdin = JSON.stringify(payloadOf(root, 'claude-code', 'PostToolUse'));
  for (let i = 0; i < 5; i++) await runHook(cmd, stdin, rig.env);
  const before = rig.arrivals.length;
  const times: number[] = [];
  const empty: number[] = [];
  for (let i = 0; i < GATED_RUNS; i++) {
    times.push(await runHook(cmd, stdin, rig.env));
    empty.push(await runHook('exit 0', '', rig.env));
  }
  const sent = rig.arrivals.length - before;
  const rss = (process.memoryUsage().rss / 1024 / 1024).toFixed(0);
  print(
    `             gated event, no wait open: ${ms(times, 2)} wall over ${GATED_RUNS} runs (goal ≤ 5 ms)${sent ? `; ${sent} reached the hub (expected none)` : ''}`,
  );
  print(
    `               of which starting any process from this one (an empty sh -c, RSS ${rss} MB): ${ms(empty, 2)}; the gate itself ≈ ${(pct(times, 50) - pct(empty, 50)).toFixed(2)} ms at p50`,
  );
}

/** Runs a reporting event REPORT_RUNS times; returns the hook's wall times and the times until the hub had each report. */
async function reporting(
  rig: Rig,
  agent: ReportingAgent,
  stdin: string,
): Promise<{ returned: number[]; received: number[]; lost: number }> {
  const cmd = hookCommand(rig.reporter, agent, false);
  const returned: number[] = [];
  const received: number[] = [];
  let lost = 0;
  for (let i = -2; i < REPORT_RUNS; i++) {
    const n = rig.arrivals.length;
    const t0 = performance.now();
    const wall = await runHook(cmd, stdin, rig.env);
    const arrived = await waitFor(() => rig.arrivals.length > n, 5000);
    if (i < 0) continue; // warm-up: page cache, the hub's first request
    returned.push(wall);
    if (arrived) received.push(rig.arrivals[n] - t0);
    else lost++;
  }
  return { returned, received, lost };
}

async function reportingEvents(print: Print, rig: Rig, root: string): Promise<void> {
  const claude = await reporting(rig, 'claude-code', JSON.stringify(payloadOf(root, 'claude-code', 'UserPromptSubmit')));
  const lost = (n: number) => (n ? `, ${n} never arrived` : '');
  print(
    `             reporting event, claude-code (sent before the hook returns): ${ms(claude.returned, 0)} wall over ${REPORT_RUNS} runs (goal ≤ 100 ms, process start included)${lost(claude.lost)}`,
  );
  const codex = await reporting(rig, 'codex', JSON.stringify(payloadOf(root, 'codex', 'UserPromptSubmit')));
  print(
    `             reporting event, codex (sent before the hook returns; Codex shows a hook over 300 ms): ${ms(codex.returned, 0)} wall over ${REPORT_RUNS} runs (goal ≤ 100 ms)${lost(codex.lost)}`,
  );
}

/** The recorded Claude turn (prompt, permission, tool, reply; no session end), as reports from one agent process, repeated. */
function inProcessReports(root: string, n: number): Report[] {
  const turn = recordingHooks(path.join(root, 'test', 'fixtures', 'recordings', RECORDINGS['claude-code']), 'claude-code').filter(
    (h) => h.payload.hook_event_name !== 'SessionEnd',
  );
  const span = turn.at(-1)!.at_ms - turn[0].at_ms + 1000;
  return Array.from({ length: n }, (_, i) => {
    const h = turn[i % turn.length];
    return {
      v: 1,
      agent: 'claude-code',
      at: h.at_ms + Math.floor(i / turn.length) * span,
      pid: process.pid,
      ancestry: [process.ppid],
      payload: h.payload,
    };
  });
}

function hubSide(print: Print, root: string): void {
  const reports = inProcessReports(root, IN_PROCESS_REPORTS);
  const timeIt = (deliver: (src: HookSource, r: Report) => unknown): number => {
    const store = new AgentStore();
    store.openTerminal('T1', 'bench');
    const src = new HookSource(store, { terminalFor: (pids) => (pids.includes(process.pid) ? 'T1' : undefined) });
    for (const r of reports.slice(0, 1000)) deliver(src, { ...r, at: r.at - 1e9 });
    const t0 = process.hrtime.bigint();
    for (const r of reports) deliver(src, r);
    const us = Number(process.hrtime.bigint() - t0) / 1000 / reports.length;
    store.dispose();
    return us;
  };
  // Best of three, interleaved: the first rounds also pay for compiling the path.
  let record = Infinity;
  let handle = Infinity;
  for (let round = 0; round < 3; round++) {
    record = Math.min(
      record,
      timeIt((src, r) => src.record(r)),
    );
    handle = Math.min(
      handle,
      timeIt((src, r) => src.handle(r)),
    );
  }
  print(
    `             hub side: HookSource.record → AgentStore ${record.toFixed(1)} µs per report; with the route's validation (handle) ${handle.toFixed(1)} µs; best of 3 rounds of ${IN_PROCESS_REPORTS} reports of a recorded Claude turn`,
  );
}

export async function benchHooks(print: Print): Promise<void> {
  const root = repoRoot();
  if (!root) {
    print('hooks      : dist/agent-lens-report.js not found above this script or the working directory: run node esbuild.mjs first');
    return;
  }
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-bench-hooks-'));
  const store = new AgentStore();
  store.openTerminal('T1', 'bench');
  const source = new HookSource(store, { terminalFor: (pids) => (pids.includes(process.pid) ? 'T1' : undefined) });
  const hub = new Hub({ bodyLimit: REPORT_BODY_LIMIT });
  const arrivals: number[] = [];
  hub.mount(REPORT_PATH, (b) => {
    arrivals.push(performance.now());
    return source.handle(b);
  });
  try {
    const port = await hub.listen();
    const discovery = path.join(home, 'hubs', 'bench.json');
    writeDiscovery(discovery, { v: 1, port, token: hub.token, pid: process.pid });
    const reporter = installReporter(home, path.join(root, 'dist', 'agent-lens-report.js'), { path: process.execPath, electron: false });
    const rig: Rig = { env: { PATH: process.env.PATH, HOME: home, AGENT_LENS_HUB: discovery }, reporter, arrivals };
    print(
      `hooks      : the built reporter (dist/agent-lens-report.js) run by /bin/sh -c as agents run hooks, node ${process.version}, hub on 127.0.0.1:${port}`,
    );
    await gated(print, rig, root);
    await reportingEvents(print, rig, root);
    const refused = [...hub.refused].map(([status, n]) => `${n}× ${status}`).join(', ');
    if (refused) print(`             hub refused: ${refused}`);
    hubSide(print, root);
  } finally {
    await hub.close();
    store.dispose();
    fs.rmSync(home, { recursive: true, force: true });
  }
}
