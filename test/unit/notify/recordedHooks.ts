import * as fs from 'fs';
import * as path from 'path';
import { recordingHooks } from '../../../harness/recordingLogs';
import type { Report } from '../../../src/hooks/report';
import { HookSource } from '../../../src/sources/hooks/hookSource';
import type { AgentStore } from '../../../src/store/store';
import type { FakeScheduler } from '../fakeScheduler';
import { ROOT } from '../helpers';

/** A Claude Code 2.1.328 session recorded by the harness: its hook reports and when its states began. */
export interface RecordedSession {
  /** Epoch ms of the cast's t = 0. */
  t0: number;
  reports: Report[];
  /** The labelled states, on the cast's clock (seconds). */
  expected: { t_from: number; t_to: number; state: string }[];
}

export function recordedSession(name: string): RecordedSession {
  const dir = path.join(ROOT, 'test/fixtures/live/claude-code', name);
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as { cast_start_epoch_ms: number };
  const reports = recordingHooks(dir, 'claude-code').map((h): Report => ({ v: 1, agent: 'claude-code', at: h.at_ms, payload: h.payload }));
  const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as RecordedSession['expected'];
  return { t0: meta.cast_start_epoch_ms, reports, expected };
}

/**
 * Plays the reports into the store as `agent-lens serve` receives them: through the hook source and its mapping,
 * each at its recorded moment on the fake clock (timers due before it fire first), from no known terminal.
 */
export function playReports(reports: readonly Report[], store: AgentStore, sched: FakeScheduler): void {
  const hooks = new HookSource(store, { terminalFor: () => undefined, clock: sched });
  for (const r of reports) {
    sched.advance(Math.max(0, r.at - sched.now()));
    hooks.record(r);
  }
}

/** The hook event a report is. */
export const eventOf = (r: Report): unknown => r.payload.hook_event_name;
