/**
 * The load's other side (soak/load.ts starts it): a separate process that rings the hub at a steady rate
 * over real loopback HTTP, as agents' hooks and doorbells would — hook reports of `sessions` Claude Code
 * sessions (their real payloads, replayed in order) and doorbell traffic of registered agents (dispatch,
 * progress, done). Finds the hub through AGENT_LENS_HUB (never the token in argv); writes what it sent, in
 * order, to LOAD_SENT as JSON lines, then one summary line on stdout.
 */
import * as fs from 'fs';
import * as http from 'http';

const hub = JSON.parse(fs.readFileSync(process.env.AGENT_LENS_HUB!, 'utf8')) as { port: number; token: string };
const seconds = Number(process.env.LOAD_SECONDS ?? 60);
const perSecond = Number(process.env.LOAD_RATE ?? 200);
const sessions = Number(process.env.LOAD_SESSIONS ?? 50);
const agents = (process.env.LOAD_AGENTS ?? '').split(',').filter(Boolean);
const payloads = fs
  .readFileSync(process.env.LOAD_HOOKS!, 'utf8')
  .trim()
  .split('\n')
  .map((l) => (JSON.parse(l) as { payload: Record<string, unknown> }).payload)
  .filter((p) => p.hook_event_name !== 'SessionEnd');
const sent = fs.openSync(process.env.LOAD_SENT!, 'w');
const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
const statuses: Record<string, number> = {};

function post(path: string, body: unknown): Promise<number> {
  const data = JSON.stringify(body);
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: hub.port,
        path,
        method: 'POST',
        agent,
        headers: {
          host: `127.0.0.1:${hub.port}`,
          authorization: `Bearer ${hub.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(data),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(data);
  });
}

function count(status: number): void {
  statuses[status] = (statuses[status] ?? 0) + 1;
}

/**
 * One session's next hook: each session replays the recording's events in order, one in flight at a time;
 * a report that falls due while the previous one is in flight waits its turn, so the rate holds and order too.
 */
const hookStep = new Array<number>(sessions).fill(0);
const hookDue = new Array<number>(sessions).fill(0);
const hookBusy = new Array<boolean>(sessions).fill(false);
async function hook(s: number): Promise<void> {
  hookDue[s]++;
  if (hookBusy[s]) return;
  hookBusy[s] = true;
  while (hookDue[s] > 0) {
    hookDue[s]--;
    const p = { ...payloads[hookStep[s]++ % payloads.length], session_id: `load-session-${s}`, cwd: `/load/s${s}` };
    const report = { v: 1, agent: 'claude-code', at: Date.now(), payload: p };
    fs.writeSync(sent, `${JSON.stringify({ kind: 'hook', report })}\n`);
    count(await post('/v1/hooks', report));
  }
  hookBusy[s] = false;
}

/** One agent's next doorbell step: dispatch t<n>, three progress events, done, then the next task; queued as hooks are. */
const bell = agents.map(() => ({ n: 0, step: 0, due: 0, busy: false }));
async function ring(a: number): Promise<void> {
  const b = bell[a];
  b.due++;
  if (b.busy) return;
  b.busy = true;
  const key = agents[a];
  while (b.due > 0) {
    b.due--;
    if (b.step === 0) b.n++;
    const id = `${key}::t${b.n}`;
    const body =
      b.step === 0
        ? { agent: key, task_id: `t${b.n}`, brief: `load task ${b.n}` }
        : { id, status: b.step === 4 ? 'done' : 'progress', summary: `${key} t${b.n} step ${b.step}`, report_path: null };
    fs.writeSync(sent, `${JSON.stringify({ kind: b.step === 0 ? 'dispatch' : 'event', agent: key, body })}\n`);
    count(await post(b.step === 0 ? '/handoff/dispatch' : '/handoff', body));
    b.step = (b.step + 1) % 5;
  }
  b.busy = false;
}

async function main(): Promise<void> {
  const started = Date.now();
  const total = seconds * perSecond;
  let i = 0;
  const inflight = new Set<Promise<void>>();
  // A steady rate: each tick sends what the clock says is due, half hook reports, half doorbell traffic.
  while (i < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * perSecond));
    for (; i < due; i++) {
      const p = i % 2 === 0 || !agents.length ? hook((i >> 1) % sessions) : ring((i >> 1) % agents.length);
      inflight.add(p);
      void p.then(() => inflight.delete(p));
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(inflight);
  fs.closeSync(sent);
  agent.destroy();
  process.stdout.write(`${JSON.stringify({ seconds: (Date.now() - started) / 1000, statuses })}\n`);
}

void main();
