import { hostPlatform } from '../common/platform';
import * as fs from 'fs';
import type * as net from 'net';
import * as path from 'path';
import { type SocketOwner, SocketTable } from './procNet';

/** What the hub knows about a request's connection, from the socket and the kernel, never from the request. */
export interface ConnectionFacts {
  /** The client's end (address and port) and ours, as the socket reports them. */
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly localAddress: string;
  readonly localPort: number;
  /** The client's socket in the kernel's table (Linux): its inode and owner; undefined when not listed. */
  readonly owner?: SocketOwner;
  /** The kernel's table could be read (Linux with /proc): an unlisted client then escaped a check that exists. */
  readonly kernel: boolean;
}

/** One connection's facts, one object for its life; the table is read for it only when asked (or when crowded). */
class Facts implements ConnectionFacts {
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly localAddress: string;
  readonly localPort: number;
  private placed: { owner?: SocketOwner; kernel: boolean } | undefined;

  constructor(
    s: net.Socket,
    private readonly place: () => void,
    private readonly askable: boolean,
  ) {
    this.remoteAddress = s.remoteAddress ?? '';
    this.remotePort = s.remotePort ?? 0;
    this.localAddress = s.localAddress ?? '';
    this.localPort = s.localPort ?? 0;
  }

  get owner(): SocketOwner | undefined {
    if (!this.placed) this.place();
    return this.placed?.owner;
  }

  /** Until placed (a connection that closed first) it is what the platform allows. */
  get kernel(): boolean {
    if (!this.placed) this.place();
    return this.placed?.kernel ?? this.askable;
  }

  settle(owner: SocketOwner | undefined, kernel: boolean): void {
    this.placed = { ...(owner ? { owner } : {}), kernel };
  }
}

export interface ConnectionLimits {
  /** Open connections at once, counted once each is placed (other users' share included). */
  maxConnections: number;
  /** A connection that has sent no byte this long after it was accepted is closed (an idle socket holds a slot). */
  firstByteMs: number;
  /** Open connections per other user (their sockets' owner in the kernel's table, Linux). */
  perOtherUser: number;
  /** Open connections of all other users together, so this user's clients always find a free slot. */
  otherUsers: number;
}

/** Why connections were closed early: for diagnostics and tests. */
export interface CutCounts {
  idle: number;
  /** Over another user's share, or all other users'. */
  otherUser: number;
  /** Over the cap. */
  full: number;
}

/** This user's connections (or everyone's, where the kernel's table cannot be read); another uid; an unlisted socket. */
type Bucket = 'own' | number | 'unlisted';

/**
 * Reading the kernel's table costs most of a millisecond (the kernel walks its whole socket hash); with few
 * connections open there is no share to keep, so it is read when a request needs its sender, or once this many
 * are open, at most once per READ_GAP_MS.
 */
const QUIET = 16;
const READ_GAP_MS = 25;

/**
 * Accepted connections, before any request: who owns each (one reading of the kernel's socket table for all
 * connections accepted since the last reading), the cap, the other users' share, and the first-byte deadline.
 * Only the hub's own user may fill the cap; anyone else, including a socket the table does not list, shares a
 * small part of it, so another user holding sockets open never locks this user's reporters out.
 */
export class ConnectionGuard {
  private readonly facts = new WeakMap<net.Socket, Facts>();
  private readonly pending = new Set<net.Socket>();
  private readonly counted = new Map<net.Socket, Bucket>();
  private readonly perBucket = new Map<Bucket, number>();
  private others = 0;
  private total = 0;
  private lastRead = -Infinity;
  private scheduled: NodeJS.Timeout | undefined;
  readonly cut: CutCounts = { idle: 0, otherUser: 0, full: 0 };

  /** Whether the kernel's table can be read here at all. */
  private readonly kernel: boolean;

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly ownUid: number | undefined = process.getuid?.(),
    private readonly proc = '/proc',
  ) {
    this.kernel = hostPlatform() === 'linux' && fs.existsSync(path.join(proc, 'net', 'tcp'));
  }

  accept(socket: net.Socket): void {
    this.facts.set(socket, new Facts(socket, () => this.pending.has(socket) && this.classify(), this.kernel));
    const idle = setTimeout(() => {
      if (socket.bytesRead > 0 || socket.destroyed) return;
      this.cut.idle++;
      socket.destroy();
    }, this.limits.firstByteMs);
    idle.unref();
    socket.once('close', () => {
      clearTimeout(idle);
      this.pending.delete(socket);
      this.release(socket);
    });
    this.pending.add(socket);
    if (this.pending.size + this.total > Math.min(QUIET, this.limits.maxConnections)) this.schedule();
  }

  /** One reading of the table for every connection accepted since the last one, no sooner than READ_GAP_MS after it. */
  private schedule(): void {
    if (this.scheduled) return;
    const wait = Math.max(0, this.lastRead + READ_GAP_MS - performance.now());
    this.scheduled = setTimeout(() => this.classify(), wait);
  }

  /** Stops the next reading (the hub closed). */
  dispose(): void {
    if (this.scheduled) clearTimeout(this.scheduled);
    this.scheduled = undefined;
  }

  /** The connection's facts (the table is read when its owner is first asked for, if it was not yet). */
  factsOf(socket: net.Socket): ConnectionFacts {
    let f = this.facts.get(socket);
    if (!f) this.facts.set(socket, (f = new Facts(socket, () => undefined, this.kernel)));
    return f;
  }

  private classify(): void {
    if (this.scheduled) clearTimeout(this.scheduled);
    this.scheduled = undefined;
    if (this.pending.size === 0) return;
    this.lastRead = performance.now();
    const sockets = [...this.pending].filter((s) => !s.destroyed);
    this.pending.clear();
    const first = sockets[0] && this.facts.get(sockets[0]);
    if (!first) return;
    const table = this.kernel ? new SocketTable({ address: first.localAddress, port: first.localPort }, this.proc) : undefined;
    try {
      for (const s of sockets) {
        const facts = this.facts.get(s)!;
        const owner = table?.readable ? table.owner(facts.remoteAddress, facts.remotePort) : undefined;
        facts.settle(owner, table?.readable ?? false);
        this.admit(s, !table?.readable || owner?.uid === this.ownUid ? 'own' : owner ? owner.uid : 'unlisted');
      }
    } finally {
      table?.close();
    }
  }

  /** Counts a connection, or closes it when the hub is full or its user (another one) is at their share. */
  private admit(socket: net.Socket, bucket: Bucket): void {
    const n = this.perBucket.get(bucket) ?? 0;
    const other = bucket !== 'own';
    if (this.total >= this.limits.maxConnections || (other && (n >= this.limits.perOtherUser || this.others >= this.limits.otherUsers))) {
      if (this.total >= this.limits.maxConnections) this.cut.full++;
      else this.cut.otherUser++;
      socket.destroy();
      return;
    }
    this.perBucket.set(bucket, n + 1);
    this.total++;
    if (other) this.others++;
    this.counted.set(socket, bucket);
  }

  private release(socket: net.Socket): void {
    const bucket = this.counted.get(socket);
    if (bucket === undefined) return;
    this.counted.delete(socket);
    this.total--;
    if (bucket !== 'own') this.others--;
    const n = (this.perBucket.get(bucket) ?? 1) - 1;
    if (n > 0) this.perBucket.set(bucket, n);
    else this.perBucket.delete(bucket);
  }
}
