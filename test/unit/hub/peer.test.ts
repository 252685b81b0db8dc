/**
 * Finding a request's sender through the kernel (src/hub/peer.ts): real processes send real requests to a real
 * hub, each with a claim of where it comes from; the finder looks only where the claim points.
 */
import { needsLinuxKernel } from '../helpers';
import * as assert from 'assert';
import { type ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import { Hub } from '../../../src/hub/hub';
import { type Claim, parseStat, PeerFinder, type PeerVerdict } from '../../../src/hub/peer';

/**
 * POSTs each claim in turn on one raw connection, the next once the last response is in; prints its pid, the
 * statuses and the local ports used. A raw socket because Node's own Agent never reuses a connection whose server
 * announces `Keep-Alive: timeout=1` (the hub's), while any other client may.
 */
const SENDER = `
const net = require('net');
const [port, token, claims] = process.argv.slice(1);
const sock = net.connect(Number(port), '127.0.0.1');
let buf = '';
let waiting;
sock.on('data', (d) => { buf += d; const m = /^HTTP\\/1\\.1 (\\d+)[^]*?\\r\\n\\r\\n/.exec(buf); if (m && waiting) { buf = buf.slice(m[0].length); const w = waiting; waiting = undefined; w(Number(m[1])); } });
sock.on('close', () => { if (waiting) waiting('closed'); });
sock.on('connect', async () => {
  const out = [];
  for (const claim of JSON.parse(claims)) {
    if (claim.pid === 'self') claim.pid = process.pid;
    const body = JSON.stringify(claim);
    out.push(await new Promise((resolve) => {
      waiting = resolve;
      sock.write('POST /who HTTP/1.1\\r\\nhost: 127.0.0.1:' + port + '\\r\\nauthorization: Bearer ' + token + '\\r\\ncontent-type: application/json\\r\\ncontent-length: ' + Buffer.byteLength(body) + '\\r\\n\\r\\n' + body);
    }));
  }
  process.stdout.write(JSON.stringify({ pid: process.pid, out, port: sock.localPort }));
  sock.destroy();
});
`;

describe('peer: who sent a request, from the kernel, looking only where the claim points', function () {
  needsLinuxKernel();
  this.timeout(30_000);
  let hub: Hub;
  const finder = new PeerFinder();
  const verdicts: PeerVerdict[] = [];
  const others: ChildProcess[] = [];

  /** Runs a sender (a child of this process) with these claims; `parent` in a claim stands for this process. */
  const send = (claims: (Claim | { pid: 'self'; inProcess?: boolean })[]): Promise<{ pid: number; out: unknown[]; port: number }> =>
    new Promise((resolve, reject) => {
      const p = spawn(process.execPath, ['-e', SENDER, String(hub.port), hub.token, JSON.stringify(claims)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      p.stdout!.on('data', (d) => (out += d));
      p.on('error', reject);
      p.on('close', () => resolve(JSON.parse(out) as { pid: number; out: unknown[]; port: number }));
    });
  /** A process in a session of its own, as another terminal's agent would be. */
  const elsewhere = (): number => {
    const p = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    others.push(p);
    return p.pid!;
  };

  before(async () => {
    hub = new Hub({ bodyLimit: 4096 });
    hub.mount('/who', (body, conn) => void verdicts.push(finder.identify(conn, body as Claim)));
    await hub.listen();
  });
  beforeEach(() => (verdicts.length = 0));
  after(async () => {
    others.forEach((p) => p.kill('SIGKILL'));
    await hub?.close();
  });

  it('reads /proc/<pid>/stat after the last ")" (a command name may hold spaces and parentheses)', () => {
    assert.deepStrictEqual(parseStat('4242 (a) (b c) S 17 4242 4000 34816 4242 4194560'), { ppid: 17, sid: 4000 });
    assert.strictEqual(parseStat('garbage'), undefined);
  });

  it('a sender below the claimed process: verified, with its real parents and session', async () => {
    const s = await send([{ pid: process.pid, ancestry: [process.pid] }]);
    assert.deepStrictEqual(s.out, [204]);
    const [v] = verdicts;
    assert.strictEqual(v.provenance, 'verified');
    if (v.provenance !== 'verified') return;
    assert.strictEqual(v.peer.pid, s.pid);
    assert.strictEqual(v.peer.chain[0], process.pid, 'its parent is this process, as /proc says');
    assert.strictEqual(v.peer.sid, sessionOf(process.pid), 'and its session is this process’s');
  });

  it('a plugin inside the agent: the claimed process itself holds the socket', async () => {
    const s = await send([{ pid: 'self', inProcess: true }, { pid: 'self' }]);
    assert.deepStrictEqual(
      verdicts.map((v) => v.provenance === 'verified' && v.peer.pid),
      [s.pid, s.pid],
    );
  });

  it('a claim pointing at another session’s process and shell is disproven', async () => {
    const victim = elsewhere();
    await send([{ pid: victim, ancestry: [victim] }]);
    assert.deepStrictEqual(
      verdicts.map((v) => v.provenance),
      ['disproven'],
    );
  });

  it('a keep-alive connection keeps its sender: a later request claiming another tree is disproven', async () => {
    const victim = elsewhere();
    // A sibling in this session rather than the session's leader: under a CI runner the leader may have exited or
    // live outside this pid namespace (sid 0), and a claim of a process that is not there is rightly disproven.
    const sibling = spawn('sleep', ['30'], { stdio: 'ignore' });
    others.push(sibling);
    const s = await send([{ pid: process.pid }, { pid: victim, ancestry: [victim] }, { pid: process.ppid }, { pid: sibling.pid! }]);
    assert.deepStrictEqual(s.out, [204, 204, 204, 204]);
    assert.deepStrictEqual(
      verdicts.map((v) => v.provenance),
      ['verified', 'disproven', 'verified', 'verified'],
    );
  });

  it('unverified: no running process named, no claim, a socket not in the table, or no /proc to ask', async () => {
    await send([{ pid: 4_000_000, ancestry: [4_000_001] }, {}]);
    assert.deepStrictEqual(
      verdicts.map((v) => [v.provenance, v.provenance === 'unverified' && v.askable]),
      [
        ['unverified', true],
        ['unverified', true],
      ],
    );
    const conn = { remoteAddress: '127.0.0.1', remotePort: 1, localAddress: '127.0.0.1', localPort: hub.port, kernel: true };
    assert.deepStrictEqual(finder.identify(conn, { pid: process.pid }), {
      provenance: 'unverified',
      why: 'its connection is not in the kernel’s socket table (closed early?)',
      askable: true,
    });
    assert.deepStrictEqual(
      new PeerFinder('/proc', 'darwin').identify({ ...conn, owner: { inode: 1, uid: 0 } }, { pid: process.pid }).provenance,
      'unverified',
    );
    assert.strictEqual(
      new PeerFinder('/nonexistent').identify({ ...conn, owner: { inode: 1, uid: 0 } }, { pid: process.pid }).provenance,
      'unverified',
      'no /proc: nothing could be read',
    );
  });
});

/** The session a process is in: its leader's pid. */
function sessionOf(pid: number): number {
  return parseStat(fs.readFileSync(`/proc/${pid}/stat`, 'latin1'))!.sid;
}
