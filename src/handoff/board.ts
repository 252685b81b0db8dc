/**
 * One agent's handoff board and how doorbell events fold into it. Pure: the board store
 * persists what this returns.
 */
import * as l10n from '@vscode/l10n';

export const BOARD_STATES = ['idle', 'ready', 'in_progress', 'done', 'blocked', 'cancelled', 'error'] as const;
export type BoardState = (typeof BOARD_STATES)[number];

export const EVENT_STATUSES = ['done', 'progress', 'blocked', 'cancelled'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** done, blocked and cancelled end a task: they are idempotent and free the in-flight gate. */
export const TERMINAL_STATUSES: readonly EventStatus[] = ['done', 'blocked', 'cancelled'];

/** The eight places a dispatch can break: `error_point` on the board, the machine's name for it. */
export const ERROR_POINTS = [
  'not_registered',
  'workspace_not_folder',
  'brief_write_failed',
  'no_terminal',
  'capture_failed',
  'invalid_project',
  'artifact_folder_failed',
  'delivery_failed',
] as const;
export type ErrorPoint = (typeof ERROR_POINTS)[number];

/**
 * How `error_reason` names the point, for a person: the window shows it (the failure notice, the board's row), so in
 * its language; the CLI and `agent-lens serve`, which load no bundle, write it in English.
 */
export function errorPointText(point: ErrorPoint): string {
  switch (point) {
    case 'not_registered':
      return l10n.t('not registered');
    case 'workspace_not_folder':
      return l10n.t('workspace not a folder');
    case 'brief_write_failed':
      return l10n.t('brief write failed');
    case 'no_terminal':
      return l10n.t('no terminal to deliver to');
    case 'capture_failed':
      return l10n.t('process/terminal capture failed');
    case 'invalid_project':
      return l10n.t('invalid project name');
    case 'artifact_folder_failed':
      return l10n.t('artifact folder failed');
    case 'delivery_failed':
      return l10n.t('delivery step failed');
  }
}

export interface BoardEvent {
  id: string;
  status: EventStatus;
  /** One line, at most SUMMARY_MAX characters. */
  summary: string;
  report_path: string | null;
  /** Epoch ms the hub received it. */
  at: number;
  /** Where it came from: the HTTP doorbell, the CLI (same endpoint), or a ```handoff block printed in a terminal. */
  via: 'doorbell' | 'terminal';
}

export interface Board {
  agent: string;
  state: BoardState;
  task_id: string | null;
  last_event: BoardEvent | null;
  /** The latest progress of the current task (progress folds to the latest; a terminal event clears it). */
  progress: BoardEvent | null;
  /** "<error point>: <what failed>", only in state error. */
  error_reason: string | null;
  error_point: ErrorPoint | null;
  report_path: string | null;
  brief_path: string | null;
  /** Whether the dispatch's steps typed the message into a terminal: "submitted" only means the brief is on the board. */
  delivery: 'none' | 'pending' | 'delivered' | 'failed';
  /** Where it was delivered (terminal name or tmux pane). */
  delivered_to: string | null;
  updated_at: number;
}

export const SUMMARY_MAX = 500;
/** Far more than a summary of SUMMARY_MAX characters comes from, spaces and controls included. */
const SUMMARY_READ = 128 * SUMMARY_MAX;

export function idleBoard(agent: string, at: number): Board {
  return {
    agent,
    state: 'idle',
    task_id: null,
    last_event: null,
    progress: null,
    error_reason: null,
    error_point: null,
    report_path: null,
    brief_path: null,
    delivery: 'none',
    delivered_to: null,
    updated_at: at,
  };
}

/**
 * Summaries are one line (line breaks and control characters become spaces), hold no bidi control (an embedding,
 * override, isolate or mark could reverse what follows it wherever the summary is shown: they are dropped) and are
 * cut at SUMMARY_MAX characters. Only the first SUMMARY_READ characters are read: a bound on the work a client's
 * megabyte costs (replacing in megabytes costs more per byte: npm run bench).
 */
export function flattenSummary(s: string): string {
  const flat = s
    .slice(0, SUMMARY_READ)
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  const chars = Array.from(flat);
  return chars.length > SUMMARY_MAX ? chars.slice(0, SUMMARY_MAX).join('') : flat;
}

/** The task id of the first handshake: its progress event makes the board `ready`. */
export const HANDSHAKE_TASK = 'handshake';

/** A task is in flight while the board is in progress: another task id is refused until it ends (the in-flight gate). */
export function isInFlight(b: Board): boolean {
  return b.state === 'in_progress' && b.task_id !== null;
}

export type EventOutcome =
  /** The board moved. */
  | 'applied'
  /** A repeat of the terminal event that ended this task: answered 200, nothing changes. */
  | 'duplicate'
  /** Not this board's current task (a late event of an earlier round): last_event only. */
  | 'other-task'
  /** Progress after the task already ended: last_event only. */
  | 'after-end';

/** Folds one doorbell event of this agent into its board. */
export function applyEvent(b: Board, taskId: string, ev: BoardEvent): { board: Board; outcome: EventOutcome } {
  if (taskId !== b.task_id) return { board: { ...b, last_event: ev, updated_at: ev.at }, outcome: 'other-task' };
  const ended = b.state === 'done' || b.state === 'blocked' || b.state === 'cancelled';
  if (ended) {
    if (b.state === ev.status) return { board: b, outcome: 'duplicate' };
    return { board: { ...b, last_event: ev, updated_at: ev.at }, outcome: 'after-end' };
  }
  const report = ev.report_path ?? b.report_path;
  if (taskId === HANDSHAKE_TASK && ev.status === 'progress')
    return {
      board: { ...b, state: 'ready', last_event: ev, progress: ev, error_reason: null, error_point: null, updated_at: ev.at },
      outcome: 'applied',
    };
  if (ev.status === 'progress')
    return {
      board: {
        ...b,
        state: 'in_progress',
        last_event: ev,
        progress: ev,
        error_reason: null,
        error_point: null,
        report_path: report,
        updated_at: ev.at,
      },
      outcome: 'applied',
    };
  return {
    board: {
      ...b,
      state: ev.status,
      last_event: ev,
      progress: null,
      error_reason: null,
      error_point: null,
      report_path: report,
      updated_at: ev.at,
    },
    outcome: 'applied',
  };
}
