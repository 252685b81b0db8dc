import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/**
 * Linux's table of TCP sockets (`/proc/net/tcp`, and `tcp6` for IPv6 sockets, where a client that connected
 * to 127.0.0.1 through `::ffff:127.0.0.1` is listed): which socket inode and which user own the client's end
 * of a connection to the hub. The kernel writes this table; nothing a client sends can change it.
 */

/** The client's end of a connection as the kernel lists it. */
export interface SocketOwner {
  /** The socket's inode: a process holding it has `socket:[inode]` among its `/proc/<pid>/fd` links. */
  inode: number;
  /** The user that created the socket. */
  uid: number;
}

/** The hub's end of the connection: the table is searched for the socket whose remote end is this. */
export interface ServerEnd {
  address: string;
  port: number;
}

/** The table's client ends of connections to one server end, by the client's `address:port`. */
export type ClientSockets = Map<string, SocketOwner>;

/** A busy machine lists ~150 bytes per socket: 4 MiB is ~28,000 sockets, bounded work for one lookup. */
export const TABLE_BYTES_READ = 4 * 1024 * 1024;

const LISTEN = '0A';
const TIME_WAIT = '06';

/** `0100007F` → `127.0.0.1`: the kernel prints the 32-bit address as a number in the host's byte order. */
export function ipv4FromHex(hex: string, littleEndian: boolean): string | undefined {
  if (hex.length !== 8 || !/^[0-9A-Fa-f]{8}$/.test(hex)) return undefined;
  const bytes = [0, 2, 4, 6].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return (littleEndian ? bytes.reverse() : bytes).join('.');
}

/** An IPv6 address from tcp6: only IPv4-mapped ones (`::ffff:a.b.c.d`) are read; others cannot reach the hub. */
export function mappedIpv4FromHex(hex: string, littleEndian: boolean): string | undefined {
  if (hex.length !== 32) return undefined;
  const marker = littleEndian ? 'FFFF0000' : '0000FFFF';
  if (hex.slice(0, 16) !== '0000000000000000' || hex.slice(16, 24).toUpperCase() !== marker) return undefined;
  return ipv4FromHex(hex.slice(24), littleEndian);
}

/**
 * The client ends of connections to `server` in one table's text: rows whose remote end is the server's
 * address and port, not listening, with an owner (an inode of 0 is a socket no process holds any more).
 * Fields are split on spaces (the kernel pads with spaces only), so no pattern can backtrack.
 */
export function clientSockets(text: string, server: ServerEnd, littleEndian = os.endianness() === 'LE'): ClientSockets {
  const out: ClientSockets = new Map();
  // Most rows are other connections, or ours waiting out TIME_WAIT: only rows whose remote end (the address
  // before the state) is the server's port, in another state, are split.
  const tag = `:${server.port.toString(16).toUpperCase().padStart(4, '0')} `;
  for (const line of text.split('\n')) {
    const at = line.lastIndexOf(tag) + tag.length;
    if (at < tag.length || line[at + 2] !== ' ' || line.startsWith(TIME_WAIT, at)) continue;
    const f = line.split(' ').filter((x) => x !== '');
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
    if (f.length < 10 || !/^\d+:$/.test(f[0]) || f[3] === LISTEN) continue;
    const local = endOf(f[1], littleEndian);
    const remote = endOf(f[2], littleEndian);
    if (!local || !remote || remote.port !== server.port || remote.address !== server.address) continue;
    const uid = Number(f[7]);
    const inode = Number(f[9]);
    if (!Number.isSafeInteger(uid) || !Number.isSafeInteger(inode) || inode <= 0) continue;
    out.set(`${local.address}:${local.port}`, { inode, uid });
  }
  return out;
}

function endOf(field: string, littleEndian: boolean): ServerEnd | undefined {
  const colon = field.indexOf(':');
  if (colon < 0) return undefined;
  const hex = field.slice(0, colon);
  const port = parseInt(field.slice(colon + 1), 16);
  const address = hex.length === 8 ? ipv4FromHex(hex, littleEndian) : mappedIpv4FromHex(hex, littleEndian);
  return address !== undefined && Number.isInteger(port) ? { address, port } : undefined;
}

/** The kernel hands out such a table a page at a time, formatting each row as it goes (microseconds a row). */
const CHUNK = 4096;

/** One table file, read only as far as lookups need: a connection just accepted is as likely early as late in it. */
class TableFile {
  private fd: number | undefined;
  private rest = '';
  private bytes = 0;
  readonly rows: ClientSockets = new Map();

  constructor(
    file: string,
    private readonly server: ServerEnd,
  ) {
    try {
      this.fd = fs.openSync(file, 'r');
    } catch {
      this.fd = undefined;
    }
  }

  get opened(): boolean {
    return this.fd !== undefined || this.bytes > 0;
  }

  /** Reads on until `key` is listed or the table ends (or passes TABLE_BYTES_READ). */
  find(key: string): SocketOwner | undefined {
    const buf = Buffer.allocUnsafe(CHUNK);
    while (!this.rows.has(key) && this.fd !== undefined) {
      let n = 0;
      try {
        n = fs.readSync(this.fd, buf, 0, buf.length, null);
      } catch {
        n = 0;
      }
      this.bytes += n;
      const last = n <= 0 || this.bytes >= TABLE_BYTES_READ;
      const text = this.rest + buf.toString('latin1', 0, Math.max(n, 0));
      const cut = last ? text.length : text.lastIndexOf('\n') + 1;
      this.rest = text.slice(cut);
      for (const [k, v] of clientSockets(text.slice(0, cut), this.server)) this.rows.set(k, v);
      if (last) this.close();
    }
    return this.rows.get(key);
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * One reading of the tables, shared by every connection accepted before it began: tcp first, tcp6 only for a
 * client not in tcp. `readable` is false where there is no table (not Linux, no /proc). Close it when done.
 */
export class SocketTable {
  private readonly tcp: TableFile;
  private tcp6: TableFile | undefined;

  constructor(
    private readonly server: ServerEnd,
    private readonly proc = '/proc',
  ) {
    this.tcp = new TableFile(path.join(proc, 'net', 'tcp'), server);
  }

  get readable(): boolean {
    return this.tcp.opened;
  }

  /** The owner of the client's end `address:port` of a connection to the server, if the table lists it. */
  owner(address: string, port: number): SocketOwner | undefined {
    const key = `${address.startsWith('::ffff:') ? address.slice(7) : address}:${port}`;
    const found = this.tcp.find(key);
    if (found) return found;
    this.tcp6 ??= new TableFile(path.join(this.proc, 'net', 'tcp6'), this.server);
    return this.tcp6.find(key);
  }

  close(): void {
    this.tcp.close();
    this.tcp6?.close();
  }
}
