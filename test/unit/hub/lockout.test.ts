/**
 * Nobody without the token can keep reports out by holding the hub's connections: a socket that sends nothing is
 * closed about a second after it was accepted, and another local user's sockets (their owner in the kernel's
 * socket table) only get a small share of the cap. Real sockets, a real holder process as another user (root
 * only), and the built reporter (`node esbuild.mjs` first) sending a real report.
 */
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { post } from '../../../src/integrations/reporter/client';
import { REPORT_BODY_LIMIT, REPORT_PATH } from '../../../src/hooks/wire';
import { writeDiscovery } from '../../../src/hub/discovery';
import { Hub } from '../../../src/hub/hub';
import { onLinux } from '../../../src/common/platform';
import { ROOT } from '../helpers';
import { until } from '../victimTree';

/** Opens `n` sockets to the port and keeps them open without a byte; reopens each one the hub closes, 100 ms later. */
const HOLDER = `
const net = require('net');
const [port, n] = process.argv.slice(1).map(Number);
let made = 0;
let open = 0;
function hold() {
  made++;
  let connected = false;
  const s = net.connect(port, '127.0.0.1', () => { connected = true; open++; });
  s.on('error', () => undefined);
  s.on('close', () => { if (connected) open--; setTimeout(hold, 100); });
}
for (let i = 0; i < n; i++) hold();
setInterval(() => process.stdout.write(JSON.stringify({ made, open }) + '\\n'), 100);
`;

const PAYLOAD = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 'lockout', prompt: 'hello' });

describe('hub lock-out: idle sockets, and another user’s, cannot keep reports out', function () {
  this.timeout(60_000);
  let dir: string;
  let hub: Hub;
  let discovery: string;
  const arrivals: number[] = [];

  /** Runs the built reporter as a hook would; returns when it started. */
  const report = (): number => {
    const p = spawn(process.execPath, [path.join(ROOT, 'dist/agent-lens-report.js'), 'claude-code'], {
      env: { PATH: process.env.PATH, HOME: dir, AGENT_LENS_HUB: discovery },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    p.stdin.end(PAYLOAD);
    return performance.now();
  };
  /**
   * A report through the reporter's own client (src/integrations/reporter/client.ts post), timed from here: the reporter's
   * process start, which takes seconds on a busy machine, is not the hub's doing. Resolves with [status, ms].
   */
  const postReport = async (): Promise<[number | undefined, number]> => {
    const t0 = performance.now();
    const body = JSON.stringify({ v: 1, agent: 'claude-code', at: Date.now(), pid: process.pid, payload: JSON.parse(PAYLOAD) as unknown });
    const status = await post({ v: 1, port: hub.port, token: hub.token, pid: process.pid }, body, 3000);
    return [status, performance.now() - t0];
  };
  const cut = () => JSON.stringify((hub as { cut?: unknown }).cut ?? 'not counted');

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-lock-'));
    hub = new Hub({ bodyLimit: REPORT_BODY_LIMIT });
    arrivals.length = 0;
    hub.mount(REPORT_PATH, () => void arrivals.push(performance.now()));
    const port = await hub.listen();
    discovery = path.join(dir, 'hubs', 'w.json');
    writeDiscovery(discovery, { v: 1, port, token: hub.token, pid: process.pid });
  });
  afterEach(async () => {
    await hub.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('300 idle sockets: each is closed about a second after the hub accepted it; then reports get through', async () => {
    const accepted = new Map<net.Socket, number>();
    const lifetimes: number[] = [];
    hub.httpServer!.on('connection', (s: net.Socket) => {
      accepted.set(s, performance.now());
      s.on('close', () => lifetimes.push(performance.now() - accepted.get(s)!));
    });
    let closed = 0;
    const sockets = Array.from({ length: 300 }, () => {
      const s = net.connect(hub.port, '127.0.0.1');
      s.on('error', () => undefined);
      s.on('close', () => closed++);
      return s;
    });
    try {
      assert.ok(await until(() => closed === 300, 15_000), `${300 - closed} idle sockets still open after 15 s`);
      const longest = Math.max(...lifetimes);
      assert.ok(longest < 2000, `an idle socket stayed ${longest.toFixed(0)} ms after it was accepted`);
      const [status, ms] = await postReport();
      assert.strictEqual(status, 204);
      report();
      assert.ok(await until(() => arrivals.length === 2, 10_000), 'the reporter’s report arrived too');
      console.log(
        `      ${lifetimes.length} idle sockets accepted, each closed at most ${longest.toFixed(0)} ms later (cut: ${cut()}); then a report took ${ms.toFixed(0)} ms`,
      );
    } finally {
      sockets.forEach((s) => s.destroy());
    }
  });

  it('another user (uid 65534) holding 300 sockets, reopened as they are closed: a real report still gets through within 2 s', async function () {
    if (process.getuid?.() !== 0) {
      console.log(`      skipped: starting a process as another user (uid 65534) needs root; this runs as uid ${process.getuid?.()}`);
      this.skip();
    }
    // Another user's share is told by the owner in Linux's socket table: where the platform is forced, there is none.
    if (!onLinux()) this.skip();
    const holder = spawn(process.execPath, ['-e', HOLDER, String(hub.port), '300'], {
      uid: 65534,
      gid: 65534,
      cwd: '/',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let last = { made: 0, open: 0 };
    holder.stdout.on('data', (d: Buffer) => (last = JSON.parse(String(d).trim().split('\n').at(-1)!) as typeof last));
    try {
      assert.ok(await until(() => last.made >= 600, 10_000), `the holder kept reopening (made ${last.made})`);
      const [status, ms] = await postReport();
      assert.deepStrictEqual(status, 204, `no report while another user holds sockets (holder: ${JSON.stringify(last)}; cut: ${cut()})`);
      assert.ok(ms < 2000, `the report took ${ms.toFixed(0)} ms`);
      const sent = report();
      assert.ok(await until(() => arrivals.length === 2, 10_000), 'the reporter’s report arrived too');
      console.log(
        `      another user made ${last.made} connections (cut: ${cut()}); a report took ${ms.toFixed(0)} ms, the built reporter’s arrived ${(arrivals[1] - sent).toFixed(0)} ms after it started`,
      );
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
