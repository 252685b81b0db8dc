/**
 * What a finished run leaves in its recording folder besides session.cast: marks, the terminal's replies, the
 * final screen, the mock's requests and the hooks on the cast's clock, the session logs, the expected states
 * resolved from the scenario's anchors, and meta.json.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ExpectedSegment, HARNESS_ID, resolveSegments } from './anchors';
import { AGENT_VERSIONS, type AgentHome } from './homes';
import type { MockServer } from './mock/common';
import { type ExitInfo, type PtyRun, r3 } from './ptyRun';
import type { Scenario } from './scenario';
import { screenTimeline } from './screen';
import { collectSessionLogs } from './sessionLogs';

export interface FinishedRun {
  scenario: Scenario;
  run: PtyRun;
  home: AgentHome;
  mock: MockServer;
  out: string;
  /** The cast's time when the recording ended. */
  endT: number;
  finalScreen: string;
  /** The exit that came after the recording ended (the hang-up), if any. */
  exitAfter: ExitInfo | undefined;
  problems: string[];
  /** Non-loopback sockets seen. */
  remote: string[];
  killed: { pid: number; cmdline: string }[];
  keepRunDir: boolean;
  strace: boolean;
}

const lines = (xs: readonly unknown[]): string =>
  xs.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('\n') + (xs.length ? '\n' : '');

/** Writes every output file but the cast; returns the expected states. */
export function writeOutputs(f: FinishedRun): ExpectedSegment[] {
  const { out, run } = f;
  fs.writeFileSync(path.join(out, 'marks.jsonl'), run.marks.map((m) => JSON.stringify(m)).join('\n') + '\n');
  fs.writeFileSync(path.join(out, 'term-replies.jsonl'), lines(run.replies));
  fs.writeFileSync(path.join(out, 'final-screen.txt'), f.finalScreen.replace(/\s+$/, '') + '\n');
  stampMockLog(path.join(out, 'mock-requests.jsonl'), run.t0);
  const hookLines = hookLinesOf(f);
  fs.writeFileSync(path.join(out, f.scenario.agent === 'opencode' ? 'events.jsonl' : 'hooks.jsonl'), lines(hookLines));
  const sessionLogs = collectSessionLogs(f.home, out, f.problems);
  const exitT = run.exitInfo && run.exitInfo.t <= f.endT ? run.exitInfo.t : undefined;
  const frames = screenTimeline(run.header, run.events);
  const { segments, problems } = resolveSegments(f.scenario.expect, {
    frames,
    marks: run.marks,
    exitT,
    endT: f.endT,
    agent: f.scenario.agent,
  });
  f.problems.push(...problems);
  fs.writeFileSync(path.join(out, 'expected.json'), JSON.stringify(segments, null, 1) + '\n');
  if (f.remote.length) {
    const msg = `non-loopback sockets seen: ${f.remote.join(', ')}`;
    if (f.scenario.agent === 'opencode') f.scenario.notes = [...(f.scenario.notes ?? []), msg];
    else f.problems.push(msg);
  }
  fs.writeFileSync(path.join(out, 'meta.json'), JSON.stringify(meta(f, sessionLogs), null, 1) + '\n');
  return segments;
}

/** The mock's request log, each request placed on the cast's clock (`t_cast`). */
function stampMockLog(file: string, t0: number): void {
  const stamped = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const o = JSON.parse(l) as Record<string, unknown>;
      if (typeof o.wall === 'string') o.t_cast = r3((Date.parse(o.wall) - t0) / 1000);
      return JSON.stringify(o);
    });
  fs.writeFileSync(file, stamped.join('\n') + '\n');
}

/** The hook (or plugin) payloads the run logged, on the cast's clock, marked when they came after the recording. */
function hookLinesOf(f: FinishedRun): string[] {
  if (!fs.existsSync(f.home.hooksLog)) return [];
  return fs
    .readFileSync(f.home.hooksLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      try {
        const o = JSON.parse(l) as Record<string, unknown>;
        o.t_cast = r3((Number(o.logged_at_ms) - f.run.t0) / 1000);
        o.after_recording = (o.t_cast as number) > f.endT;
        return JSON.stringify(o).split(f.home.runDir).join('$RUN');
      } catch {
        return l;
      }
    });
}

function meta(f: FinishedRun, sessionLogs: unknown): Record<string, unknown> {
  const { run, home, scenario: sc, mock } = f;
  const agent = sc.agent;
  const rel = (s: string) => s.split(home.home).join('$HOME').split(home.runDir).join('$RUN');
  const exitInfo = run.exitInfo;
  return {
    harness: HARNESS_ID,
    scenario: sc.id,
    agent,
    agent_version: AGENT_VERSIONS[agent],
    description: sc.description,
    command: rel(home.command),
    args: home.args,
    cols: run.header.width,
    rows: run.header.height,
    recorded_at: new Date(run.t0).toISOString(),
    cast_start_epoch_ms: run.t0,
    recording_end_t: f.endT,
    exit: exitInfo ? { ...exitInfo, during_recording: exitInfo.t <= f.endT } : (f.exitAfter ?? null),
    end_action: exitInfo && exitInfo.t <= f.endT ? 'process exited' : 'SIGHUP (terminal closed) after recording ended',
    markers: run.marks,
    problems: f.problems,
    notes: sc.notes ?? [],
    env: Object.fromEntries(
      Object.entries(home.env)
        .filter(([k]) => !/KEY|TOKEN|SECRET/i.test(k))
        .map(([k, v]) => [k, rel(v)]),
    ),
    permission_mode_setting: agent === 'claude-code' ? (sc.permissionMode ?? 'default') : undefined,
    mock: {
      protocol: mock.handler.name,
      requests: mock.entries.length,
      agent_requests: mock.agentRequests,
      unknown_paths: mock.entries.filter((e) => e.kind === 'unknown').map((e) => `${e.method} ${e.path}`),
    },
    terminal_replies: run.replies.length,
    session_logs: sessionLogs,
    killed_processes: f.killed.map((k) => ({ pid: k.pid, cmdline: rel(k.cmdline) })),
    run_dir: f.keepRunDir ? home.runDir : undefined,
    network_check: {
      method: f.strace ? 'strace connect() + /proc socket sampling' : '/proc socket sampling every 1 s',
      non_loopback: f.remote,
    },
  };
}
