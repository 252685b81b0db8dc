import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Cast } from '../src/formats/cast';
import { REPORTING_AGENTS, type ReportingAgent } from '../src/agents/hookEvents';
import type { Report } from '../src/hooks/report';

/** The session logs a recording folder keeps, as the recorders name them. */
const LOG_FILES = [
  'transcript.jsonl',
  'rollout.jsonl',
  'gemini-session.jsonl',
  'qwen-session.jsonl',
  'droid-session.jsonl',
  'copilot-events.jsonl',
  'storage.json',
];

/** The agent's session log saved beside a recording, if any (an empty transcript is none). */
export function recordingLog(dir: string): string | undefined {
  return LOG_FILES.map((n) => path.join(dir, n)).find((p) => fs.existsSync(p) && fs.statSync(p).size > 0);
}

/**
 * The wall-clock time (epoch ms) of a recording's t = 0, as each recorder kept it: the harness's
 * `meta.json`, the shared OpenCode recordings' `timeline.json`, a timed mark, or the header's whole seconds.
 */
export function castStartMs(dir: string, cast: Cast): number | undefined {
  const json = (f: string) =>
    fs.existsSync(path.join(dir, f)) ? (JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>) : {};
  const meta = json('meta.json');
  if (typeof meta.cast_start_epoch_ms === 'number') return meta.cast_start_epoch_ms;
  const timeline = json('timeline.json');
  if (typeof timeline.castStartEpochMs === 'number') return timeline.castStartEpochMs;
  const marks = path.join(dir, 'marks.jsonl');
  if (fs.existsSync(marks)) {
    for (const l of fs.readFileSync(marks, 'utf8').split('\n')) {
      const m = l.trim() ? (JSON.parse(l) as { t?: number; epoch_ms?: number }) : {};
      if (typeof m.epoch_ms === 'number' && typeof m.t === 'number') return m.epoch_ms - m.t * 1000;
    }
  }
  return cast.timestamp === undefined ? undefined : cast.timestamp * 1000;
}

/** One recorded hook payload in `agent-lens replay --hooks` form (epoch ms). */
export interface RecordedHook {
  at_ms: number;
  agent: string;
  payload: Record<string, unknown>;
}

/**
 * The hook payloads (Claude Code, Codex, Gemini CLI: `hooks.jsonl`) or plugin bus events (OpenCode:
 * `events.jsonl`) a recording logged, oldest first, in the form `agent-lens replay --hooks` reads.
 */
export function recordingHooks(dir: string, agent: string): RecordedHook[] {
  const out: RecordedHook[] = [];
  for (const name of ['hooks.jsonl', 'events.jsonl']) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as Record<string, unknown>;
      if (name === 'events.jsonl') {
        if (r.kind === 'event') out.push({ at_ms: r.ts as number, agent, payload: { type: r.type, properties: r.properties } });
      } else if (r.after_recording !== true) {
        out.push({ at_ms: (r.logged_at_ms ?? r.epoch_ms) as number, agent, payload: r.payload as Record<string, unknown> });
      }
    }
  }
  return out.sort((a, b) => a.at_ms - b.at_ms);
}

/** The recording's hook reports as the hub would have received them (none for an agent without hooks). */
export function recordedReports(dir: string, agent: string): Report[] {
  if (!(REPORTING_AGENTS as readonly string[]).includes(agent)) return [];
  return recordingHooks(dir, agent).map((h) => ({ v: 1, agent: agent as ReportingAgent, at: h.at_ms, payload: h.payload }));
}
