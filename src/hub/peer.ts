import { hostPlatform } from '../common/platform';
import * as fs from 'fs';
import * as path from 'path';
import type { ConnectionFacts } from './connections';
import { procStatFields } from '../common/procStat';
import { ancestorsOf } from '../common/ancestors';

/**
 * Who is on the other end of a request, as the kernel says (Linux): the process that holds the client's socket
 * (`socket:[inode]` among its `/proc/<pid>/fd` links), searched among processes the request's own claim points
 * at, never the whole machine; then that process's real parents and session, read from `/proc`. The claim only
 * says where to look: if none of those processes holds the socket, the claim is false.
 */

/** What a report says about its sender: the agent process and that process's ancestors. */
export interface Claim {
  pid?: number;
  ancestry?: readonly number[];
  /** Sent from inside the agent process (a plugin): only where to look first, never believed. */
  inProcess?: boolean;
}

/** The sender as the kernel knows it. */
export interface Peer {
  pid: number;
  /** Its parent, grandparent, … (up to, not including, pid 1). */
  chain: number[];
  /** Its session: in a terminal, the shell that leads it (a VS Code terminal's shell is a session leader). */
  sid: number;
}

export type PeerVerdict =
  | { provenance: 'verified'; peer: Peer }
  /** `askable`: the kernel could have been asked (Linux with /proc) and this sender still escaped the check. */
  | { provenance: 'unverified'; why: string; askable: boolean }
  | { provenance: 'disproven'; why: string };

/** Bounded work per request: processes looked at, fd links read, /proc stat files read. */
export const PEER_BUDGET = { candidates: 64, links: 4096, stats: 4096, threads: 64 } as const;
const CHAIN_MAX = 64;

interface Stat {
  ppid: number;
  sid: number;
}

/** `/proc/<pid>/stat`: the command name is in parentheses and may contain `) `; fields follow the last one. */
export function parseStat(text: string): Stat | undefined {
  const f = procStatFields(text);
  const ppid = f?.field(4) ?? NaN;
  const sid = f?.field(6) ?? NaN;
  return Number.isInteger(ppid) && Number.isInteger(sid) ? { ppid, sid } : undefined;
}

/** One search: the budget left, and whether a process could not be read (then a miss proves nothing). */
class Search {
  links: number = PEER_BUDGET.links;
  stats: number = PEER_BUDGET.stats;
  candidates: number = PEER_BUDGET.candidates;
  blind = false;
  readonly looked = new Set<number>();
  /** Running processes whose descriptors were read. */
  checked = 0;

  constructor(
    readonly proc: string,
    readonly target: string,
  ) {}

  get spent(): boolean {
    return this.links <= 0 || this.stats <= 0 || this.candidates <= 0;
  }

  stat(pid: number): Stat | undefined {
    if (this.stats-- <= 0) return undefined;
    try {
      return parseStat(fs.readFileSync(path.join(this.proc, String(pid), 'stat'), 'latin1'));
    } catch {
      return undefined;
    }
  }

  /** Whether `pid` holds the socket; its newest descriptors first (a report's connection is a recent one). */
  holds(pid: number): boolean {
    if (this.looked.has(pid) || this.spent) return false;
    this.looked.add(pid);
    this.candidates--;
    const dir = path.join(this.proc, String(pid), 'fd');
    let fds: string[];
    try {
      fds = fs.readdirSync(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.blind = true;
      return false;
    }
    this.checked++;
    fds.sort((a, b) => Number(b) - Number(a));
    for (const fd of fds) {
      if (this.links-- <= 0) return false;
      try {
        if (fs.readlinkSync(path.join(dir, fd)) === this.target) return true;
      } catch {
        /* closed meanwhile */
      }
    }
    return false;
  }

  /** The children of every thread of `pid` (`/proc/<pid>/task/*\/children`). */
  children(pid: number): number[] {
    const out: number[] = [];
    let tasks: string[];
    try {
      tasks = fs.readdirSync(path.join(this.proc, String(pid), 'task')).slice(0, PEER_BUDGET.threads);
    } catch {
      return out;
    }
    for (const t of tasks) {
      try {
        for (const c of fs.readFileSync(path.join(this.proc, String(pid), 'task', t, 'children'), 'latin1').split(' '))
          if (c && Number(c) > 0) out.push(Number(c));
      } catch {
        /* the thread ended */
      }
    }
    return out;
  }
}

/** The claimed process's descendants, nearest first, and the process itself (first for a plugin, else last). */
function inTree(s: Search, root: number, rootFirst: boolean): number | undefined {
  if (rootFirst && s.holds(root)) return root;
  const queue = s.children(root);
  for (let i = 0; i < queue.length && !s.spent; i++) {
    if (s.holds(queue[i])) return queue[i];
    if (queue.length < PEER_BUDGET.candidates) queue.push(...s.children(queue[i]));
  }
  return s.holds(root) ? root : undefined;
}

/** A process of the claimed process's session (a sender its parent left behind); newest pids first. */
function inSession(s: Search, sid: number): number | undefined {
  let pids: number[];
  try {
    pids = fs
      .readdirSync(s.proc)
      .filter((n) => /^\d+$/.test(n))
      .map(Number)
      .sort((a, b) => b - a);
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    if (s.spent) return undefined;
    if (s.looked.has(pid) || s.stat(pid)?.sid !== sid) continue;
    if (s.holds(pid)) return pid;
  }
  return undefined;
}

/** The session to search: the claimed process's, else that of the nearest claimed ancestor still running. */
function claimedSession(s: Search, claim: Claim): number | undefined {
  for (const pid of [claim.pid, ...(claim.ancestry ?? [])]) {
    if (pid === undefined) continue;
    const st = s.stat(pid);
    if (st) return st.sid > 0 ? st.sid : undefined;
  }
  return undefined;
}

function describePeer(s: Search, pid: number): Peer {
  const own = s.stat(pid);
  const chain = ancestorsOf((p) => (p === pid ? own?.ppid : s.stat(p)?.ppid), pid, { max: CHAIN_MAX });
  return { pid, chain, sid: own?.sid ?? 0 };
}

/**
 * Finds requests' senders. One finder per hub: what it found for a connection is kept for that connection's
 * later requests (a keep-alive client), which are then only checked against their claim.
 */
export class PeerFinder {
  private readonly found = new WeakMap<ConnectionFacts, Peer>();

  constructor(
    private readonly proc = '/proc',
    private readonly platform: NodeJS.Platform = hostPlatform(),
  ) {}

  identify(conn: ConnectionFacts, claim: Claim): PeerVerdict {
    const askable = this.platform === 'linux' && conn.kernel;
    if (!askable) return { provenance: 'unverified', why: 'the kernel cannot be asked who sent it here', askable: false };
    if (!conn.owner)
      return { provenance: 'unverified', why: 'its connection is not in the kernel’s socket table (closed early?)', askable };
    const s = new Search(this.proc, `socket:[${conn.owner.inode}]`);
    const known = this.found.get(conn);
    if (known) return this.sameSender(s, known, claim);
    if (claim.pid === undefined && !claim.ancestry?.length) return { provenance: 'unverified', why: 'it names no process', askable };
    let pid = claim.pid !== undefined ? inTree(s, claim.pid, claim.inProcess === true) : undefined;
    const sid = pid === undefined ? claimedSession(s, claim) : undefined;
    if (pid === undefined && sid !== undefined) pid = inSession(s, sid);
    if (pid === undefined) {
      if (s.spent || s.blind || s.checked === 0)
        return {
          provenance: 'unverified',
          why: s.spent ? 'the search ran out of budget' : 'the processes it names could not be read or no longer run',
          askable,
        };
      return { provenance: 'disproven', why: `none of the ${s.checked} processes its claim leads to holds its connection` };
    }
    const peer = describePeer(s, pid);
    this.found.set(conn, peer);
    return { provenance: 'verified', peer };
  }

  /** A later request on a connection whose sender is known: its claim must fit that sender. */
  private sameSender(s: Search, peer: Peer, claim: Claim): PeerVerdict {
    const pid = claim.pid;
    if (pid === undefined || pid === peer.pid || peer.chain.includes(pid) || s.stat(pid)?.sid === peer.sid)
      return { provenance: 'verified', peer };
    return {
      provenance: 'disproven',
      why: `its connection belongs to process ${peer.pid}, which is not process ${pid} nor below it nor in its session`,
    };
  }
}
