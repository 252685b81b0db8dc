/**
 * What Agent Lens's commands are given, resolved in one place. A command runs from a tree row (a click or its
 * inline menu passes the row), from a notification's button or a script (an id), or from the palette (nothing);
 * each command takes any of these, so no menu can hand it something it cannot read.
 */
import type { TreeRow } from '../views/treeRow';

/** A row, an id, or nothing. */
export type RowOrId = Pick<TreeRow, 'terminalId' | 'waitId'> | string | undefined;

function isRow(arg: unknown): arg is Pick<TreeRow, 'terminalId' | 'waitId'> {
  return typeof arg === 'object' && arg !== null && !Array.isArray(arg);
}

/** The wait a command acts on: a row's wait, or the id given. */
export function waitIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  return isRow(arg) && typeof arg.waitId === 'string' ? arg.waitId : undefined;
}

/** The terminal a command acts on: a row's terminal, or the id given. */
export function terminalIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  return isRow(arg) && typeof arg.terminalId === 'string' ? arg.terminalId : undefined;
}
