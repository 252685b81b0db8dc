/**
 * Notification benchmark, printed (never asserted): hook-reported dialogs in a real AgentStore, the notification
 * rule on the real scheduler (`notifyWaits`, as `agent-lens serve --notify` runs it) and the real channels, each
 * against a loopback server in this process — ntfy's JSON publish, a Slack-style webhook, and a command channel
 * running a tiny Node script that posts what it was given. For each of EVENTS waits, one at a time: the time from
 * the moment the wait became due (opened + delay) to each channel's request arriving, p50 / p95 / max; and this
 * process's CPU per event (the store, the rule, the fan-out, the HTTP client and the servers; not the command's
 * own Node process, which is its start-up time).
 */
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import { SILENT } from '../src/common/log';
import { realScheduler } from '../src/common/scheduler';
import { ChannelSchema } from '../src/notify/config';
import { NotifyFanout } from '../src/notify/fanout';
import { notifyWaits } from '../src/notify/fromStore';
import { AgentStore } from '../src/store/store';

type Print = (s: string) => void;

const EVENTS = 50;
/** Events first sent and not counted: the first loads fetch (undici) and warms the code paths. */
const WARMUP = 3;
const DELAY_S = 0.05;
const CHANNELS = ['ntfy', 'slack', 'command'] as const;
type Lane = (typeof CHANNELS)[number];

/** The command channel's program: posts its event to the loopback server, as a user's pager script would. */
const SCRIPT = `
const http = require('http');
const req = http.request(process.argv[2], { method: 'POST' }, (res) => res.resume());
req.end(process.env.AGENT_LENS_TITLE);
`;

/** A loopback server that notes when each request arrived (ms, on performance.timeOrigin + now), by channel. */
async function arrivals(): Promise<{ url: string; next(lane: Lane): Promise<number>; close(): Promise<void> }> {
  const waiting = new Map<Lane, (at: number) => void>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      const lane: Lane = req.url?.startsWith('/n/') ? 'ntfy' : req.url === '/slack' ? 'slack' : 'command';
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      waiting.get(lane)?.(at);
      waiting.delete(lane);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    next: (lane) => new Promise((r) => waiting.set(lane, r)),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function pct(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

/** One wait at a time through the store, the rule and the fan-out to `lanes`: latency per channel, CPU per event. */
async function round(lanes: readonly Lane[], script: string, srv: Awaited<ReturnType<typeof arrivals>>) {
  const channels = lanes.map((l) => ChannelSchema.parse({ ...channelOf(l, srv.url, script), minIntervalSeconds: 0 }));
  const store = new AgentStore();
  const fanout = new NotifyFanout(channels, SILENT);
  const waits = notifyWaits(store, fanout, realScheduler, { delaySeconds: () => DELAY_S, anywhere: true });
  const lat = new Map<Lane, number[]>(lanes.map((l) => [l, []]));
  let cpu = 0;
  try {
    for (let i = 0; i < WARMUP + EVENTS; i++) {
      const arrived = lanes.map((lane) => srv.next(lane));
      const opened = Date.now();
      const c0 = process.cpuUsage();
      store.observe({
        source: 'hook',
        at: opened,
        agent: 'claude-code',
        state: 'waiting',
        evidence: 'PermissionRequest',
        wait: { kind: 'permission', question: 'rm -rf build' },
        locator: { sessionId: `bench-${i}`, cwd: `/bench/e${i}` },
      });
      const at = await Promise.all(arrived);
      await fanout.settled();
      const c = process.cpuUsage(c0);
      if (i < WARMUP) continue;
      cpu += c.user + c.system;
      lanes.forEach((lane, j) => lat.get(lane)!.push(at[j] - (opened + DELAY_S * 1000)));
    }
  } finally {
    waits.dispose();
    fanout.dispose();
    store.dispose();
  }
  const line = (lane: Lane) => {
    const s = [...lat.get(lane)!].sort((a, b) => a - b);
    return `${lane} p50 ${pct(s, 50).toFixed(1)} ms, p95 ${pct(s, 95).toFixed(1)} ms, max ${s[s.length - 1].toFixed(1)} ms`;
  };
  return { lines: lanes.map(line).join('; '), cpuMs: cpu / EVENTS / 1000 };
}

/** Each channel's settings, pointed at the loopback server (the paths tell the server which channel spoke). */
function channelOf(lane: Lane, url: string, script: string): object {
  if (lane === 'ntfy') return { kind: 'ntfy', url: `${url}/n/agents` };
  if (lane === 'slack') return { kind: 'webhook', url: `${url}/slack`, format: 'slack' };
  return { kind: 'command', argv: [process.execPath, script, `${url}/cmd`] };
}

export async function benchNotify(print: Print): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-bench-notify-'));
  const script = path.join(dir, 'page-me.js');
  fs.writeFileSync(script, SCRIPT);
  const srv = await arrivals();
  try {
    const push = await round(['ntfy', 'slack'], script, srv);
    const all = await round(CHANNELS, script, srv);
    print(
      `notify     : wait due → request arrived, ${EVENTS} waits one at a time (after ${WARMUP} not counted), delay ${DELAY_S * 1000} ms, loopback servers`,
    );
    print(`             push channels only: ${push.lines}; CPU ${push.cpuMs.toFixed(2)} ms per event`);
    print(`             with a command channel (a Node script): ${all.lines}; CPU ${all.cpuMs.toFixed(2)} ms per event`);
    print(
      "             (CPU of this process: store, rule, fan-out, HTTP client and servers, the command's spawn; not the command's own process)",
    );
  } finally {
    await srv.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
