import { type Clock, wallClock } from '../common/scheduler';
import * as fs from 'fs';
import { Emitter, type Event } from '../common/emitter';
import { readRegularFile, writeFileAtomic } from '../common/fsutil';
import { applyEvent, type Board, type BoardEvent, type EventOutcome, idleBoard } from './board';
import { type HandoffPaths, isSafeSegment, splitEventId } from './paths';
import { quoted as quote } from '../common/printable';
import { type Logger } from '../common/log';

/** An event's fields once the doorbell validated them. */
export interface IncomingEvent {
  id: string;
  status: BoardEvent['status'];
  summary: string;
  report_path: string | null;
}

export interface Receipt {
  outcome: EventOutcome | 'ungrouped';
  agent?: string;
  /** What the sender and the user should know (shown in the answer, the log and the tree). */
  warning?: string;
  board?: Board;
}

/** The events log is rotated above this size (one old generation kept), so it cannot fill the disk. */
const EVENTS_LOG_MAX = 1024 * 1024;
/** Events without an `{agent}::` prefix (and those of unregistered keys past the cap), kept for the tree's warning row. */
const UNGROUPED_KEPT = 20;
/**
 * Boards of keys team.toml does not name: any token holder can invent keys, so they live in memory only, and
 * only this many; events of further unregistered keys are counted and dropped.
 */
export const UNREGISTERED_MAX = 32;
/** Registered agents whose status.json a restart rewrites; past them the reset stays in memory until each board next changes. */
const RESET_WRITES_MAX = 64;
/** A status.json is ours and a few KB; a larger one is not a board. */
const STATUS_MAX = 64 * 1024;

export interface BoardsOptions {
  clock?: Clock;
  log?: Logger;
  /**
   * Whether team.toml names this key. Only registered agents get a folder, status.json and events.jsonl;
   * unset, every key counts as registered (a Boards on its own, as the dispatcher's tests use it).
   */
  registered?: (key: string) => boolean;
}

/**
 * Every agent's board, persisted for registered agents as `status.json` (written atomically on each change, so
 * a reader never sees a torn file) with every event appended to `events.jsonl`. Doorbell events arrive one at a
 * time on the event loop, so concurrent POSTs fold in arrival order and the board is always one consistent version.
 */
export class Boards {
  private readonly boards = new Map<string, Board>();
  private readonly changes = new Emitter<Board | undefined>();
  /** Fires on every change: with the board that moved, or undefined for an event that grouped nowhere. */
  readonly onDidChange: Event<Board | undefined> = this.changes.event;
  /** Keys on the board while unregistered: what counts against UNREGISTERED_MAX. */
  private readonly unregistered = new Set<string>();
  readonly ungrouped: BoardEvent[] = [];
  /** Events of unregistered keys dropped because UNREGISTERED_MAX boards of such keys exist. */
  dropped = 0;

  constructor(
    readonly paths: HandoffPaths,
    private readonly opts: BoardsOptions = {},
  ) {}

  private isRegistered(agent: string): boolean {
    return this.opts.registered?.(agent) ?? true;
  }

  /**
   * A restart: the hub's token changed, so nothing in flight can report to this run. Every
   * board starts idle in memory; no folder under the root is listed, so planted folders cost nothing. So that
   * a reader of the files sees the reset too, a registered agent's status.json that does not read idle is
   * rewritten, if its folder is a real one (the first RESET_WRITES_MAX agents; the rest when they next change).
   * Briefs and reports stay as the record.
   */
  resetAll(registered: readonly string[]): void {
    this.boards.clear();
    this.unregistered.clear();
    const keys = [...new Set(registered.filter(isSafeSegment))];
    const at = (this.opts.clock ?? wallClock).now();
    for (const k of keys) this.boards.set(k, idleBoard(k, at));
    keys.slice(0, RESET_WRITES_MAX).forEach((k) => {
      if (this.paths.isRealDir(this.paths.agentDir(k)) && !this.readsIdle(k)) this.save(this.boards.get(k)!);
    });
    if (keys.length > RESET_WRITES_MAX)
      this.warn(
        `${keys.length} registered agents: the status.json of the first ${RESET_WRITES_MAX} was reset to idle at start, the others are idle in memory and their status.json is rewritten when their board next changes`,
      );
    this.notify();
  }

  private readsIdle(agent: string): boolean {
    try {
      const b = JSON.parse(readRegularFile(this.paths.statusJson(agent), { max: STATUS_MAX }).toString('utf8')) as Partial<Board>;
      return b.agent === agent && b.state === 'idle' && b.task_id === null;
    } catch {
      return false; // missing, torn, a link or not ours: rewritten as idle
    }
  }

  get(agent: string): Board {
    return this.boards.get(agent) ?? idleBoard(agent, (this.opts.clock ?? wallClock).now());
  }

  all(): Board[] {
    return [...this.boards.values()].sort((a, b) => a.agent.localeCompare(b.agent));
  }

  /** Sets a board (dispatch, errors, init) and writes its status.json (registered agents only). */
  set(board: Board, persist = true): Board {
    return this.put({ ...board, updated_at: (this.opts.clock ?? wallClock).now() }, persist);
  }

  /** Folds a doorbell event into its agent's board. Never drops a registered agent's event: even one the board ignores is logged. */
  receive(ev: IncomingEvent, via: BoardEvent['via']): Receipt {
    const event: BoardEvent = { ...ev, at: (this.opts.clock ?? wallClock).now(), via };
    const split = splitEventId(ev.id);
    if (!split || !isSafeSegment(split.agent)) {
      // Ids are the sender's: quoted and escaped, since warnings go to the log, the answer and the tree.
      const warning = split
        ? `event id ${quote(ev.id)}: ${quote(split.agent)} is not an agent key, so the event updates no board`
        : `event id ${quote(ev.id)} has no "{agent}::" prefix, so it updates no board: send "{agent}::{task_id}", e.g. ${quote(`claude::${ev.id}`)}`;
      this.warn(warning);
      return this.ungroup(event, warning);
    }
    const registered = this.isRegistered(split.agent);
    if (!registered && !this.roomFor(split.agent)) return this.drop(split.agent, event);
    if (registered) this.appendEvent(split.agent, event);
    const before = this.get(split.agent);
    const { board, outcome } = applyEvent(before, split.taskId, event);
    let warning: string | undefined;
    if (outcome === 'other-task')
      warning = `task ${quote(split.taskId)} is not ${split.agent}'s current task (${before.task_id ?? 'none'}): recorded as its last event, the board's state is unchanged`;
    if (outcome === 'after-end')
      warning = `task ${quote(split.taskId)} already ended (${before.state}): recorded as its last event, the board's state is unchanged`;
    if (warning) this.warn(warning);
    if (outcome !== 'duplicate') this.put(board, true);
    return { outcome, agent: split.agent, warning, board: this.get(split.agent) };
  }

  private ungroup(event: BoardEvent, warning: string): Receipt {
    this.ungrouped.push(event);
    if (this.ungrouped.length > UNGROUPED_KEPT) this.ungrouped.shift();
    this.notify();
    return { outcome: 'ungrouped', warning };
  }

  /** An event of one more unregistered key than UNREGISTERED_MAX: counted, kept with the ungrouped ones, warned about once. */
  private drop(agent: string, event: BoardEvent): Receipt {
    if (this.dropped++ === 0)
      this.warn(
        `boards of unregistered agents are kept in memory only, for at most ${UNREGISTERED_MAX} keys: events of further unregistered keys (first: ${quote(agent)}) are counted and dropped; register the agents you use in team.toml`,
      );
    return this.ungroup(
      { ...event, report_path: null },
      `${quote(agent)} is not in team.toml and ${UNREGISTERED_MAX} unregistered agents already have boards, so the event updates no board: register it in team.toml`,
    );
  }

  /** Whether an unregistered key may have a board: it has one, or fewer than UNREGISTERED_MAX such keys do. */
  private roomFor(agent: string): boolean {
    if (this.boards.has(agent) || this.unregistered.size < UNREGISTERED_MAX) return true;
    // Keys registered since they got a board no longer count.
    for (const k of this.unregistered) if (this.isRegistered(k)) this.unregistered.delete(k);
    return this.unregistered.size < UNREGISTERED_MAX;
  }

  private put(board: Board, persist: boolean): Board {
    if (!this.isRegistered(board.agent)) {
      // A dispatch refused for an unknown key also sets its board: held to the same cap, never written.
      if (!this.roomFor(board.agent)) return board;
      this.unregistered.add(board.agent);
      persist = false;
    }
    this.boards.set(board.agent, board);
    if (persist) this.save(board);
    this.changes.fire(board);
    return board;
  }

  private save(board: Board): void {
    // The board still changes in memory when its file cannot be written (a link planted as the folder, a full disk).
    try {
      this.paths.ensure(this.paths.agentDir(board.agent));
      writeFileAtomic(this.paths.statusJson(board.agent), `${JSON.stringify(board, null, 2)}\n`);
    } catch (e) {
      this.warn(`could not save ${board.agent}'s board: ${(e as Error).message}`);
    }
  }

  private notify(): void {
    this.changes.fire(undefined);
  }

  private appendEvent(agent: string, event: BoardEvent): void {
    try {
      const file = this.paths.eventsLog(agent);
      this.paths.ensure(this.paths.agentDir(agent));
      try {
        if (fs.lstatSync(file).size > EVENTS_LOG_MAX) fs.renameSync(file, `${file}.1`);
      } catch {
        /* first event */
      }
      // O_NOFOLLOW: a link planted as events.jsonl (say, to a shell rc file) is refused, never appended to.
      // O_NONBLOCK: a FIFO planted there fails the open (no reader) instead of blocking the event loop for good.
      const c = fs.constants;
      const fd = fs.openSync(file, c.O_WRONLY | c.O_APPEND | c.O_CREAT | (c.O_NOFOLLOW ?? 0) | (c.O_NONBLOCK ?? 0), 0o644);
      try {
        if (!fs.fstatSync(fd).isFile()) throw new Error(`${file} is not a regular file: remove it`);
        fs.writeSync(fd, `${JSON.stringify(event)}\n`);
      } finally {
        fs.closeSync(fd);
      }
    } catch (e) {
      this.warn(`could not append to ${agent}'s events log: ${(e as Error).message}`);
    }
  }

  private warn(msg: string): void {
    this.opts.log?.warn(msg);
  }
}
