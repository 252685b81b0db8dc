import * as l10n from '@vscode/l10n';
import type { z } from 'zod';
import { MODES } from './schema';

/** A field's place in an agent's section: names and (0-based) array indexes. */
export type Path = (string | number)[];

/*
 * How team.toml's problems are worded: one line a reader acts on, naming the field as they wrote it and what to
 * put there instead.
 */

export const isTable = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

export function valueAt(v: unknown, p: Path): unknown {
  for (const seg of p) v = isTable(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[seg] : undefined;
  return v;
}

export function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v instanceof Date) return l10n.t('a date');
  if (Array.isArray(v)) return l10n.t('an array');
  if (isTable(v)) return l10n.t('a table');
  return l10n.t('nothing');
}

const bare = (k: string): string => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k));
export const fieldName = (key: string, p: Path): string =>
  `[${bare(key)}]${p.map((s) => (typeof s === 'number' ? `[${s + 1}]` : `.${bare(s)}`)).join('')}`;

// Looked up when a problem is worded (not at load), so the window's language bundle applies.
function kindOf(expected: string): string | undefined {
  const kinds: Record<string, string> = {
    string: l10n.t('a string'),
    array: l10n.t('an array'),
    object: l10n.t('a table'),
    number: l10n.t('a number'),
    boolean: l10n.t('true or false'),
  };
  return kinds[expected];
}
function shapeOf(field: string, key: string): string | undefined {
  const shapes: Record<string, string> = {
    args: l10n.t('an array of strings like args = ["--model", "x"]'),
    with: l10n.t('a table like with = { ms = 500 }'),
    dispatch_steps: l10n.t('an array of steps, written as [[{0}.dispatch_steps]] blocks', key),
  };
  return shapes[field];
}
function hintOf(field: string): string | undefined {
  const hints: Record<string, string> = {
    mode: l10n.t('add mode = "…" (one of {0})', MODES.join(', ')),
    tool: l10n.t('add tool = "…" naming the tool this step runs'),
  };
  return hints[field];
}

export function problemOf(issue: z.ZodIssue, got: unknown, key: string): string {
  const last = issue.path[issue.path.length - 1];
  switch (issue.code) {
    case 'invalid_enum_value':
      return l10n.t('expected one of {0}, got {1}', issue.options.join(', '), describe(got));
    case 'invalid_type':
      if (issue.received === 'undefined') return l10n.t('missing: {0}', hintOf(String(last)) ?? l10n.t('add it'));
      return l10n.t('expected {0}, got {1}', shapeOf(String(last), key) ?? kindOf(issue.expected) ?? issue.expected, describe(got));
    case 'too_small':
      return l10n.t('must not be empty');
    default:
      return issue.message;
  }
}
