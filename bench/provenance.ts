/**
 * What finding a report's sender costs the hub (src/hub/procNet.ts, src/hub/peer.ts), printed (never asserted):
 *  (1) one reading of the kernel's socket table for a connection (how many rows the machine has now);
 *  (2) PeerFinder.identify over real HTTP, per report, for the reporter's shape (the sender below the claimed
 *      agent), Codex's (a sender left behind in the agent's session: the session is searched) and a false claim
 *      (another session's process: everything it points at is searched, nothing found).
 * Before this check a report cost the hub only the mapping and the store (the "hub side" figure above).
 */
import { type ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import { Hub } from '../src/hub/hub';
import { type Claim, PeerFinder } from '../src/hub/peer';
import { SocketTable } from '../src/hub/procNet';

type Print = (s: string) => void;

const RUNS = 60;
type Case = 'below' | 'session' | 'false';

/** Sends RUNS requests, each on a new connection (as the reporter does), with the claim `{pid: argv}` and a case name. */
const SENDER = `
const http = require('http');
const [port, token, pid, kind, runs] = process.argv.slice(1);
(async () => {
  for (let i = 0; i < Number(runs); i++) {
    const body = JSON.stringify({ pid: Number(pid), kind });
    await new Promise((resolve) => {
      const req = http.request({ host: '127.0.0.1', port: Number(port), path: '/who', method: 'POST', agent: false, headers: { host: '127.0.0.1:' + port, authorization: 'Bearer ' + token, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => { res.resume(); res.on('end', resolve); });
      req.on('error', resolve);
      req.end(body);
    });
  }
})();
`;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? NaN;
}
const us = (xs: number[]) => `p50 ${(pct(xs, 50) * 1000).toFixed(0)} µs, p95 ${(pct(xs, 95) * 1000).toFixed(0)} µs`;

function ended(p: ChildProcess): Promise<void> {
  return new Promise((resolve) => (p.exitCode !== null ? resolve() : p.on('close', () => resolve())));
}

/** (1): the table, read as the hub reads it for a connection (an open one to the hub, found in tcp). */
async function tableReads(print: Print, port: number): Promise<void> {
  const client = await new Promise<net.Socket>((resolve) => {
    const c = net.connect(port, '127.0.0.1', () => resolve(c));
  });
  const times: number[] = [];
  let found = 0;
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    if (new SocketTable({ address: '127.0.0.1', port }).owner('127.0.0.1', client.localPort!)) found++;
    times.push(performance.now() - t0);
  }
  client.destroy();
  const rows = fs.readFileSync('/proc/net/tcp', 'latin1').split('\n').length - 2;
  print(
    `provenance : reading the socket table for a connection (${rows} TCP sockets on this machine now): ${us(times)}; found ${found}/200`,
  );
}

export async function benchProvenance(print: Print): Promise<void> {
  if (process.platform !== 'linux' || !fs.existsSync('/proc/net/tcp')) {
    print('provenance : no /proc/net/tcp here: reports stay unverified and nothing is read');
    return;
  }
  const hub = new Hub({ bodyLimit: 4096 });
  const finder = new PeerFinder();
  const times: Record<Case, number[]> = { below: [], session: [], false: [] };
  const outcomes: Record<Case, Record<string, number>> = { below: {}, session: {}, false: {} };
  hub.mount('/who', (body, conn) => {
    const claim = body as Claim & { kind: Case };
    const t0 = performance.now();
    const v = finder.identify(conn, claim);
    times[claim.kind].push(performance.now() - t0);
    outcomes[claim.kind][v.provenance] = (outcomes[claim.kind][v.provenance] ?? 0) + 1;
  });
  const port = await hub.listen();
  const others: ChildProcess[] = [];
  try {
    await tableReads(print, port);
    const args = (pid: number, kind: Case) => [String(port), hub.token, String(pid), kind, String(RUNS)];
    // The reporter's shape: the sender is a child of the claimed process (here, this one).
    await ended(spawn(process.execPath, ['-e', SENDER, ...args(process.pid, 'below')], { stdio: 'ignore' }));
    // Codex's: a shell session whose sender was left behind (reparented) while the claimed process runs on.
    const script = `sleep 60 & S=$!; (exec "$NODE" -e "$SENDER" ${port} ${hub.token} "$S" session ${RUNS} &); wait "$S"`;
    const shell = spawn('bash', ['-c', script], {
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, SENDER, NODE: process.execPath },
    });
    others.push(shell);
    const end = performance.now() + 60_000;
    while (times.session.length < RUNS && performance.now() < end) await new Promise((r) => setTimeout(r, 20));
    // A false claim: another session's process.
    const victim = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
    others.push(victim);
    await ended(spawn(process.execPath, ['-e', SENDER, ...args(victim.pid!, 'false')], { stdio: 'ignore' }));
    const line = (k: Case, what: string) =>
      `             ${what}: ${us(times[k])} over ${times[k].length} reports (${Object.entries(outcomes[k])
        .map(([o, n]) => `${n}× ${o}`)
        .join(', ')})`;
    print(line('below', 'finding the sender, the reporter below the claimed agent'));
    print(line('session', 'finding the sender, a Codex copy left in the agent’s session'));
    print(line('false', 'refusing a false claim (another session’s process)'));
    print(`             connections closed early: ${JSON.stringify(hub.cut)}`);
  } finally {
    for (const p of others) {
      try {
        process.kill(-p.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    await hub.close();
  }
}
