/**
 * The kernel's TCP table, read from text captured on Linux (test/fixtures/procnet): `tcp.txt` and `tcp6.txt`
 * are /proc/net/tcp and tcp6 as they were while a server listened on 127.0.0.1 with three clients connected
 * (IPv4; IPv4-mapped IPv6; IPv4 from uid 65534), `expected.json` what the capturing process knew of them. The
 * rows of other programs' connections are kept; most TIME_WAIT rows were dropped to keep the file small.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { clientSockets, ipv4FromHex, mappedIpv4FromHex, SocketTable } from '../../../src/hub/procNet';
import { FIXTURES } from '../helpers';

const DIR = path.join(FIXTURES, 'procnet');
const TCP = fs.readFileSync(path.join(DIR, 'tcp.txt'), 'latin1');
const TCP6 = fs.readFileSync(path.join(DIR, 'tcp6.txt'), 'latin1');
interface End {
  port: number;
  inode: number;
}
const E = JSON.parse(fs.readFileSync(path.join(DIR, 'expected.json'), 'utf8')) as {
  server: { address: string; port: number };
  uid: number;
  v4: End;
  mapped: End;
  otherUser: End & { uid: number };
};

describe('/proc/net/tcp: the client ends of connections to the hub, from real captured text', () => {
  it('finds each IPv4 client by its port: its socket inode and owner, this user’s and another user’s', () => {
    const got = clientSockets(TCP, E.server, true);
    assert.deepStrictEqual(got.get(`127.0.0.1:${E.v4.port}`), { inode: E.v4.inode, uid: E.uid });
    assert.deepStrictEqual(got.get(`127.0.0.1:${E.otherUser.port}`), { inode: E.otherUser.inode, uid: 65534 });
  });

  it('lists only client ends: not the listening socket, not the server’s own accepted sockets, not other servers’ clients', () => {
    const got = clientSockets(TCP, E.server, true);
    assert.deepStrictEqual(
      [...got.keys()].sort(),
      [`127.0.0.1:${E.v4.port}`, `127.0.0.1:${E.otherUser.port}`].sort(),
      'the mapped client is in tcp6',
    );
    const rows = TCP.split('\n').filter((l) => l.includes(`:${E.server.port.toString(16).toUpperCase()} `));
    assert.ok(rows.length >= 5, 'the capture has the listener and both ends of the connections');
    assert.strictEqual(clientSockets(TCP, { address: '127.0.0.1', port: E.server.port + 1 }, true).size, 0);
    assert.strictEqual(clientSockets(TCP, { address: '127.0.0.2', port: E.server.port }, true).size, 0);
  });

  it('finds a client that connected through ::ffff:127.0.0.1 in tcp6', () => {
    assert.deepStrictEqual(clientSockets(TCP6, E.server, true).get(`127.0.0.1:${E.mapped.port}`), { inode: E.mapped.inode, uid: E.uid });
  });

  it('skips rows without an owner (TIME_WAIT, inode 0), headers, torn and garbled lines', () => {
    const fields = (l: string) => l.trim().split(/\s+/);
    const timeWait = TCP.split('\n').filter((l) => fields(l)[3] === '06' && fields(l)[9] === '0');
    assert.ok(timeWait.length > 0, 'the capture has TIME_WAIT rows');
    // Each as if its remote end were the hub: still nobody's socket.
    for (const l of timeWait) {
      const [hex, port] = fields(l)[2].split(':');
      assert.strictEqual(clientSockets(l, { address: ipv4FromHex(hex, true)!, port: Number.parseInt(port, 16) }, true).size, 0, l);
    }
    const row = TCP.split('\n').find((l) => l.includes(` ${E.v4.inode} `))!;
    const torn = [
      row.slice(0, 60),
      row.replace(/^\s*\d+:/, 'xx:'),
      row.replace(' 0100007F:', ' 0100007G:'),
      row.replace(/ \d+ 2 /, ' -1 2 '),
    ].join('\n');
    assert.strictEqual(clientSockets(torn, E.server, true).size, 0);
    assert.strictEqual(clientSockets('', E.server, true).size, 0);
  });

  it('reads addresses in the host’s byte order; only IPv4-mapped IPv6 addresses are taken', () => {
    assert.strictEqual(ipv4FromHex('0100007F', true), '127.0.0.1');
    assert.strictEqual(ipv4FromHex('7F000001', false), '127.0.0.1');
    assert.strictEqual(ipv4FromHex('0100007', true), undefined);
    assert.strictEqual(mappedIpv4FromHex('0000000000000000FFFF00000100007F', true), '127.0.0.1');
    assert.strictEqual(mappedIpv4FromHex('00000000000000000000FFFF7F000001', false), '127.0.0.1');
    assert.strictEqual(mappedIpv4FromHex('00000000000000000000000001000000', true), undefined, '::1 is not IPv4');
  });

  it('one reading per table, as far as lookups need, tcp6 only when needed; an unreadable table is no table', () => {
    const proc = fs.mkdtempSync(path.join(os.tmpdir(), 'al-procnet-'));
    try {
      fs.mkdirSync(path.join(proc, 'net'));
      fs.writeFileSync(path.join(proc, 'net', 'tcp'), TCP);
      fs.writeFileSync(path.join(proc, 'net', 'tcp6'), TCP6);
      const t = new SocketTable(E.server, proc);
      assert.ok(t.readable);
      assert.deepStrictEqual(t.owner('127.0.0.1', E.v4.port), { inode: E.v4.inode, uid: E.uid });
      assert.deepStrictEqual(t.owner('::ffff:127.0.0.1', E.mapped.port), { inode: E.mapped.inode, uid: E.uid });
      assert.strictEqual(t.owner('127.0.0.2', E.v4.port), undefined, 'the address must match too');
      t.close();
      // Read in pages: a table longer than one page still gives every row, whatever the page boundaries cut.
      const long = [TCP.split('\n')[0], ...Array.from({ length: 200 }, () => TCP.split('\n').slice(1, -1)).flat()].join('\n');
      fs.writeFileSync(path.join(proc, 'net', 'tcp'), `${long}\n`);
      const t2 = new SocketTable(E.server, proc);
      assert.deepStrictEqual(t2.owner('127.0.0.1', E.otherUser.port), { inode: E.otherUser.inode, uid: 65534 });
      t2.close();
      fs.rmSync(path.join(proc, 'net', 'tcp'));
      assert.strictEqual(new SocketTable(E.server, proc).readable, false);
    } finally {
      fs.rmSync(proc, { recursive: true, force: true });
    }
  });

  it('stays linear on a hostile table (long lines, many spaces, many rows)', () => {
    const row = TCP.split('\n').find((l) => l.includes(` ${E.v4.inode} `))!;
    const big = [`${' '.repeat(200_000)}x`, `${':'.repeat(100_000)} `, ...Array.from({ length: 20_000 }, () => row)].join('\n');
    const t0 = performance.now();
    assert.strictEqual(clientSockets(big, E.server, true).size, 1);
    const ms = performance.now() - t0;
    assert.ok(ms < 2000, `${ms.toFixed(0)} ms`);
    console.log(`      ${(big.length / 1e6).toFixed(1)} MB of table read in ${ms.toFixed(0)} ms`);
  });
});
