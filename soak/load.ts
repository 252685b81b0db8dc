/**
 * Load (issue 11 item 3): the hub as `agent-lens serve` builds it, with 50 terminal sources replaying real
 * agent recordings at full output speed in the same process, while a separate client process sends hook
 * reports and doorbell traffic at a steady rate over real loopback HTTP. Afterwards: no report lost, each
 * session's reports arrived in the order sent, the heap stayed flat after warm-up, and the store, boards and
 * events logs match a ground truth computed from what was sent, fed in order into fresh instances.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HandoffService } from '../src/handoff/service';
import { HUB_ENV } from '../src/handoff/hubClient';
import { REPORT_BODY_LIMIT, REPORT_PATH } from '../src/hooks/wire';
import { writeDiscovery } from '../src/hub/discovery';
import { Hub } from '../src/hub/hub';
import { HookSource } from '../src/sources/hooks/hookSource';
import { AgentStore } from '../src/store/store';
import {
  type Arrivals,
  type Sent,
  arrival,
  compareBoards,
  compareEvents,
  compareSessions,
  compareTerminals,
  heapSlope,
} from './loadChecks';
import { LoadTerminals, loadRecordings } from './loadTerminals';
import { type Logger, logTo } from '../src/common/log';

const CLIENT = path.join(__dirname, 'load-client.js');
const HOOKS = path.resolve('test/fixtures/recordings/claude-code/04-bash-permission-approve/hooks.jsonl');
const AGENTS = Array.from({ length: 10 }, (_, i) => `a${i}`);

export interface LoadOptions {
  seconds: number;
  terminals: number;
  rate: number;
  sessions: number;
}

export interface LoadFigures {
  failed: number;
  sent: number;
  statuses: Record<string, number>;
  chars: number;
  casts: number;
  heapMb: number[];
  slopeMbPerMin: number;
}

/** A terminal that takes what dispatch types and says it was delivered: the steps are not what is measured. */
const finder = {
  find: async (a: { key: string }) => ({
    pid: 1,
    title: a.key,
    id: `term-${a.key}`,
    activate: async () => undefined,
    write: async () => undefined,
  }),
};

function handoff(root: string, hub: Hub, log: Logger): HandoffService {
  fs.mkdirSync(root, { recursive: true });
  const teamFile = path.join(root, 'team.toml');
  fs.writeFileSync(teamFile, AGENTS.map((k) => `[${k}]\nmode = "embedded"\nprocess = "${k}"\n`).join('\n'));
  return new HandoffService({
    root,
    teamFile,
    hub,
    hubFile: path.join(root, 'hub.json'),
    hubEnv: HUB_ENV,
    cli: 'agent-lens',
    finder,
    workspace: root,
    sleep: async () => undefined,
    log,
  });
}

function runClient(env: NodeJS.ProcessEnv): Promise<{ seconds: number; statuses: Record<string, number> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLIENT], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the load client exited ${code}: ${err.trim() || 'no message'}`));
      else resolve(JSON.parse(out.trim().split('\n').pop()!) as { seconds: number; statuses: Record<string, number> });
    });
  });
}

function heapMb(): number {
  (global as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

export async function runLoad(o: LoadOptions, print: (line: string) => void): Promise<LoadFigures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-load-'));
  const warnings: string[] = [];
  const log = logTo((l, m) => void (l === 'warn' && warnings.length < 20 && warnings.push(m)));
  const hub = new Hub({ bodyLimit: REPORT_BODY_LIMIT, log });
  const store = new AgentStore();
  const hooks = new HookSource(store, { terminalFor: () => undefined });
  // A running digest per session rather than the reports themselves, so the check does not grow the heap it samples.
  const arrived = new Map<string, Arrivals>();
  hub.mount(REPORT_PATH, (body) => {
    const id = String((body as { payload?: { session_id?: string } }).payload?.session_id);
    arrived.set(id, arrival(arrived.get(id), JSON.stringify(body)));
    return hooks.handle(body);
  });
  const service = handoff(path.join(dir, 'handoff'), hub, log);
  service.start();
  const port = await hub.listen();
  const hubFile = path.join(dir, 'hub.json');
  writeDiscovery(hubFile, { v: 1, port, token: hub.token, pid: process.pid });

  const recs = loadRecordings('test/fixtures/recordings');
  const terminals = new LoadTerminals(store, recs, o.terminals);
  const heap = [heapMb()];
  const every = Math.max(1000, (o.seconds * 1000) / 12);
  const sampler = setInterval(() => heap.push(heapMb()), every);
  const sentFile = path.join(dir, 'sent.jsonl');
  const client = await runClient({
    [HUB_ENV]: hubFile,
    LOAD_SECONDS: String(o.seconds),
    LOAD_RATE: String(o.rate),
    LOAD_SESSIONS: String(o.sessions),
    LOAD_AGENTS: AGENTS.join(','),
    LOAD_HOOKS: HOOKS,
    LOAD_SENT: sentFile,
  });
  clearInterval(sampler);
  heap.push(heapMb());
  terminals.stop();
  await terminals.done;
  // Let pending states commit on the real clock (the detector's longest settle is a few seconds).
  await new Promise((r) => setTimeout(r, 4000));

  const sent = fs
    .readFileSync(sentFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Sent);
  const problems: string[] = [];
  const bad = Object.entries(client.statuses).filter(([s]) => !s.startsWith('2'));
  if (bad.length) problems.push(`non-2xx answers: ${bad.map(([s, n]) => `${s}×${n}`).join(', ')}`);
  problems.push(
    ...compareSessions(sent, arrived, store),
    ...(await compareBoards(sent, service, path.join(dir, 'truth'))),
    ...compareEvents(sent, service),
    ...compareTerminals(terminals.results()),
  );
  const warm = heap.slice(Math.ceil(heap.length / 3));
  const slope = heapSlope(warm, every / 60_000);
  if (warm.length >= 3 && Math.max(...warm) - Math.min(...warm) > 16)
    problems.push(`heap grew ${(Math.max(...warm) - Math.min(...warm)).toFixed(1)} MB after warm-up`);
  for (const p of problems.slice(0, 20)) print(`  ✗ ${p}`);
  for (const w of warnings.slice(0, 5)) print(`  (warning logged: ${w})`);

  terminals.dispose();
  service.dispose();
  await hub.close();
  store.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
  const figures: LoadFigures = {
    failed: problems.length,
    sent: sent.length,
    statuses: client.statuses,
    chars: terminals.chars,
    casts: terminals.casts,
    heapMb: heap,
    slopeMbPerMin: slope,
  };
  print(
    `load: ${o.terminals} terminals replaying ${recs.length} real recordings at full speed (${(terminals.chars / 2 ** 20).toFixed(1)} MB of output, ${terminals.casts} sessions) + ${sent.length} hook/doorbell reports in ${client.seconds.toFixed(1)} s (${(sent.length / client.seconds).toFixed(0)}/s) over loopback HTTP; ` +
      `answers ${JSON.stringify(client.statuses)}; heap ${heap.map((h) => h.toFixed(0)).join(' → ')} MB (slope after warm-up ${slope.toFixed(2)} MB/min); ${problems.length ? `${problems.length} FAILED` : 'no report lost, order kept, store = ground truth'}`,
  );
  return figures;
}
