/**
 * The load run's ground truth: what was sent, fed in order into fresh instances of the same code, must be
 * what the loaded instances hold at the end — every report arrived once and in order, the store's sessions,
 * the boards and the events logs — and each terminal shows what its recording settles on when read alone.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { HandoffService } from '../src/handoff/service';
import { HUB_ENV } from '../src/handoff/hubClient';
import { REPORT_BODY_LIMIT } from '../src/hooks/wire';
import { Hub } from '../src/hub/hub';
import { HookSource } from '../src/sources/hooks/hookSource';
import { AgentStore } from '../src/store/store';
import type { SessionSummary } from '../src/store/types';
import { type Recording, settledState } from './loadTerminals';
import { SILENT } from '../src/common/log';

export type Sent =
  | { kind: 'hook'; report: { payload: { session_id: string } } }
  | { kind: 'dispatch'; agent: string; body: { agent: string; task_id: string; brief: string } }
  | { kind: 'event'; agent: string; body: { id: string; status: string; summary: string; report_path: null } };

/** How many reports of a session arrived, and a digest of them in arrival order. */
export interface Arrivals {
  n: number;
  digest: string;
}

export function arrival(prev: Arrivals | undefined, json: string): Arrivals {
  return {
    n: (prev?.n ?? 0) + 1,
    digest: createHash('sha256')
      .update(prev?.digest ?? '')
      .update(json)
      .digest('hex'),
  };
}

/** What a session shows, in the terms a user sees: state, source, and the open waits. */
function shown(s: SessionSummary | undefined): string {
  if (!s) return 'no session';
  return JSON.stringify({
    state: s.shown?.state,
    source: s.shown?.source,
    waits: s.waits.filter((w) => w.closedAt === undefined).map((w) => `${w.kind}:${w.question ?? ''}`),
  });
}

export function compareSessions(sent: Sent[], arrived: Map<string, Arrivals>, store: AgentStore): string[] {
  const problems: string[] = [];
  const bySession = new Map<string, Arrivals>();
  const truthStore = new AgentStore();
  const truth = new HookSource(truthStore, { terminalFor: () => undefined });
  for (const s of sent) {
    if (s.kind !== 'hook') continue;
    const id = s.report.payload.session_id;
    bySession.set(id, arrival(bySession.get(id), JSON.stringify(s.report)));
    void truth.handle(JSON.parse(JSON.stringify(s.report))); // recorded at once: no ancestryOf (Windows only)
  }
  for (const [id, want] of bySession) {
    const got = arrived.get(id);
    if (got?.n !== want.n) problems.push(`session ${id}: sent ${want.n} reports, ${got?.n ?? 0} arrived`);
    else if (got.digest !== want.digest) problems.push(`session ${id}: reports arrived out of the order sent, or changed`);
  }
  // Session keys are minted per store: match by the agent's own session id.
  const idOf = (s: SessionSummary) => s.agentSessionIds.join(',');
  const actual = new Map(store.sessions().map((s) => [idOf(s), s]));
  const expected = truthStore.sessions();
  if (expected.length < bySession.size) problems.push(`ground truth has ${expected.length} sessions for ${bySession.size} sent`);
  for (const want of expected) {
    const got = actual.get(idOf(want));
    if (shown(got) !== shown(want)) problems.push(`session ${idOf(want)}: the store shows ${shown(got)}, ground truth ${shown(want)}`);
  }
  truthStore.dispose();
  return problems;
}

/** The boards a fresh service reaches when it is given the same dispatches and events in the order sent. */
export async function compareBoards(sent: Sent[], service: HandoffService, truthRoot: string): Promise<string[]> {
  const hub = new Hub({ bodyLimit: REPORT_BODY_LIMIT });
  fs.mkdirSync(truthRoot, { recursive: true });
  const teamFile = path.join(truthRoot, 'team.toml');
  fs.copyFileSync(service.registry.file, teamFile);
  const finder = {
    find: async (a: { key: string }) => ({
      pid: 1,
      title: a.key,
      id: `term-${a.key}`,
      activate: async () => undefined,
      write: async () => undefined,
    }),
  };
  const truth = new HandoffService({
    root: truthRoot,
    teamFile,
    hub,
    hubFile: path.join(truthRoot, 'hub.json'),
    hubEnv: HUB_ENV,
    cli: 'agent-lens',
    finder,
    workspace: truthRoot,
    sleep: async () => undefined,
    log: SILENT,
  });
  truth.start();
  await hub.listen();
  for (const s of sent) {
    if (s.kind === 'dispatch') await truth.dispatch({ agent: s.body.agent, taskId: s.body.task_id, brief: s.body.brief });
    else if (s.kind === 'event') truth.ringLocal(s.body, 'doorbell');
  }
  const view = (b: ReturnType<HandoffService['boards']['get']>) =>
    JSON.stringify({
      state: b.state,
      task: b.task_id,
      last: b.last_event && [b.last_event.status, b.last_event.summary],
      progress: b.progress?.summary ?? null,
      delivery: b.delivery,
      error: b.error_reason,
    });
  const problems: string[] = [];
  for (const agent of service.agents().map((a) => a.key)) {
    const got = view(service.boards.get(agent));
    const want = view(truth.boards.get(agent));
    if (got !== want) problems.push(`board ${agent}: ${got}, ground truth ${want}`);
    const stored = JSON.parse(fs.readFileSync(service.paths.statusJson(agent), 'utf8')) as ReturnType<HandoffService['boards']['get']>;
    if (view(stored) !== got) problems.push(`status.json of ${agent} is not its board: ${view(stored)}`);
  }
  truth.dispose();
  await hub.close();
  return problems;
}

/** Every doorbell event is in its agent's events log, once, in the order sent. */
export function compareEvents(sent: Sent[], service: HandoffService): string[] {
  const problems: string[] = [];
  for (const agent of service.agents().map((a) => a.key)) {
    const want = sent
      .filter((s) => s.kind === 'event' && s.agent === agent)
      .map((s) => (s.kind === 'event' ? `${s.body.id} ${s.body.status} ${s.body.summary}` : ''));
    const file = service.paths.eventsLog(agent);
    const lines = [`${file}.1`, file].flatMap((f) =>
      fs.existsSync(f) ? fs.readFileSync(f, 'utf8').trim().split('\n').filter(Boolean) : [],
    );
    const got = lines
      .map((l) => JSON.parse(l) as { id: string; status: string; summary: string })
      .map((e) => `${e.id} ${e.status} ${e.summary}`);
    if (got.length !== want.length) problems.push(`events log of ${agent}: ${got.length} lines for ${want.length} events sent`);
    else if (got.some((g, i) => g !== want[i])) problems.push(`events log of ${agent}: not in the order sent`);
  }
  return problems;
}

export function compareTerminals(results: { id: string; rec: Recording; shown: { agent: string; state: string } }[]): string[] {
  const truth = new Map<string, { agent: string; state: string }>();
  const problems: string[] = [];
  for (const r of results) {
    const want = truth.get(r.rec.name) ?? settledState(r.rec);
    truth.set(r.rec.name, want);
    if (r.shown.agent !== want.agent || r.shown.state !== want.state)
      problems.push(
        `${r.id} (${r.rec.name}): shows ${r.shown.agent} ${r.shown.state}, read alone it settles on ${want.agent} ${want.state}`,
      );
  }
  return problems;
}

/** Least-squares slope of heap samples taken every `intervalMin` minutes, in MB per minute. */
export function heapSlope(samples: number[], intervalMin: number): number {
  const n = samples.length;
  if (n < 2 || intervalMin <= 0) return 0;
  const xs = samples.map((_, i) => i * intervalMin);
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = samples.reduce((a, b) => a + b, 0) / n;
  const num = xs.reduce((a, x, i) => a + (x - mx) * (samples[i] - my), 0);
  const den = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  return den ? num / den : 0;
}
