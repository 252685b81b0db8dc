import * as fs from 'fs';
import { writeFileAtomic } from '../fsutil';
import { applyEvent, type Board, type BoardEvent, type EventOutcome, idleBoard } from './board';
import { type HandoffPaths, isSafeSegment, splitEventId } from './paths';
import { quoted as quote } from '../printable';

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
/** Events without an `{agent}::` prefix, kept for the tree's warning row. */
const UNGROUPED_KEPT = 20;

/**
 * Every agent's board, persisted as `status.json` (written atomically on each change, so a reader never sees
 * a torn file) with every event appended to `events.jsonl`. Doorbell events arrive one at a time on the
 * event loop, so concurrent POSTs fold in arrival order and the board is always one consistent version.
 */
export class Boards {
  private readonly boards = new Map<string, Board>();
  private readonly listeners = new Set<(b: Board | undefined) => void>();
  readonly ungrouped: BoardEvent[] = [];

  constructor(
    readonly paths: HandoffPaths,
    private readonly opts: { now?: () => number; warn?: (msg: string) => void } = {},
  ) {}

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  /**
   * A restart: the hub's token changed, so nothing in flight can report to this run (seed 002 §7.5). Every
   * board on disk and every registered agent starts idle; briefs and reports stay as the record.
   */
  resetAll(registered: readonly string[]): void {
    const keys = new Set(registered.filter(isSafeSegment));
    try {
      for (const e of fs.readdirSync(this.paths.root, { withFileTypes: true })) if (e.isDirectory() && isSafeSegment(e.name) && fs.existsSync(this.paths.statusJson(e.name))) keys.add(e.name);
    } catch {
      /* no root yet */
    }
    for (const k of keys) this.put(idleBoard(k, this.now()), fs.existsSync(this.paths.agentDir(k)));
  }

  get(agent: string): Board {
    return this.boards.get(agent) ?? idleBoard(agent, this.now());
  }

  all(): Board[] {
    return [...this.boards.values()].sort((a, b) => a.agent.localeCompare(b.agent));
  }

  /** Called on every change: with the board that moved, or undefined for an event that grouped nowhere. */
  onChange(listener: (b: Board | undefined) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Sets a board (dispatch, errors, init) and writes its status.json. */
  set(board: Board, persist = true): Board {
    return this.put({ ...board, updated_at: this.now() }, persist);
  }

  /** Folds a doorbell event into its agent's board. Never drops it: even one the board ignores is logged. */
  receive(ev: IncomingEvent, via: BoardEvent['via']): Receipt {
    const event: BoardEvent = { ...ev, at: this.now(), via };
    const split = splitEventId(ev.id);
    if (!split || !isSafeSegment(split.agent)) {
      this.ungrouped.push(event);
      if (this.ungrouped.length > UNGROUPED_KEPT) this.ungrouped.shift();
      // Ids are the sender's: quoted and escaped, since warnings go to the log, the answer and the tree.
      const warning = split
        ? `event id ${quote(ev.id)}: ${quote(split.agent)} is not an agent key, so the event updates no board`
        : `event id ${quote(ev.id)} has no "{agent}::" prefix, so it updates no board: send "{agent}::{task_id}", e.g. ${quote(`claude::${ev.id}`)}`;
      this.warn(warning);
      this.notify();
      return { outcome: 'ungrouped', warning };
    }
    this.appendEvent(split.agent, event);
    const before = this.get(split.agent);
    const { board, outcome } = applyEvent(before, split.taskId, event);
    let warning: string | undefined;
    if (outcome === 'other-task') warning = `task ${quote(split.taskId)} is not ${split.agent}'s current task (${before.task_id ?? 'none'}): recorded as its last event, the board's state is unchanged`;
    if (outcome === 'after-end') warning = `task ${quote(split.taskId)} already ended (${before.state}): recorded as its last event, the board's state is unchanged`;
    if (warning) this.warn(warning);
    if (outcome !== 'duplicate') this.put(board, true);
    return { outcome, agent: split.agent, warning, board: this.get(split.agent) };
  }

  private put(board: Board, persist: boolean): Board {
    this.boards.set(board.agent, board);
    if (persist) {
      // The board still changes in memory when its file cannot be written (a link planted as the folder, a full disk).
      try {
        this.paths.ensure(this.paths.agentDir(board.agent));
        writeFileAtomic(this.paths.statusJson(board.agent), `${JSON.stringify(board, null, 2)}\n`);
      } catch (e) {
        this.warn(`could not save ${board.agent}'s board: ${(e as Error).message}`);
      }
    }
    for (const l of this.listeners) l(board);
    return board;
  }

  private notify(): void {
    for (const l of this.listeners) l(undefined);
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
      const c = fs.constants;
      const fd = fs.openSync(file, c.O_WRONLY | c.O_APPEND | c.O_CREAT | (c.O_NOFOLLOW ?? 0), 0o644);
      try {
        fs.writeSync(fd, `${JSON.stringify(event)}\n`);
      } finally {
        fs.closeSync(fd);
      }
    } catch (e) {
      this.warn(`could not append to ${agent}'s events log: ${(e as Error).message}`);
    }
  }

  private warn(msg: string): void {
    this.opts.warn?.(msg);
  }
}
