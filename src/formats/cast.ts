import * as l10n from '@vscode/l10n';
import { parseJson } from '../common/json';

/** One event of an asciinema recording, with an absolute time in seconds since the start. */
export interface CastEvent {
  t: number;
  code: string;
  data: string;
}

export interface Cast {
  version: 2 | 3;
  cols: number;
  rows: number;
  events: CastEvent[];
  /** Time of the last event. */
  duration: number;
  /** The header's `command` (v2) or `command` (v3), when the recorder kept it. */
  command?: string;
  /** The header's `timestamp`: epoch seconds of t = 0 (whole seconds in most recorders). */
  timestamp?: number;
}

/** A malformed recording: names the line and the problem, for a one-line CLI error. */
export class CastError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly problem: string,
  ) {
    super(`${file}:${line}: ${problem}`);
  }
}

function num(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/**
 * Parses asciinema v2 (absolute times, `width`/`height`) and v3 (intervals since the previous event,
 * `term.cols`/`term.rows`, `#` comment lines).
 */
export function parseCast(text: string, file = '<cast>'): Cast {
  const lines = text.split('\n');
  const { header, headerLine } = castHeader(lines, file);
  const version = header.version as 2 | 3;
  const { cols, rows } = castSize(header, version, file, headerLine);
  const events: CastEvent[] = [];
  let t = 0;
  for (let i = headerLine; i < lines.length; i++) {
    const raw = lines[i];
    if (raw.trim() === '' || (version === 3 && raw.startsWith('#'))) continue;
    const ev = castEvent(raw, file, i + 1);
    if (version === 2) {
      if (ev[0] + 1e-6 < t) throw new CastError(file, i + 1, l10n.t('event time {0} goes back before {1}', ev[0], t));
      t = ev[0];
    } else {
      t += ev[0];
    }
    events.push({ t, code: ev[1], data: ev[2] });
  }
  const command = typeof header.command === 'string' && header.command.trim() ? header.command : undefined;
  const timestamp = num(header.timestamp) && header.timestamp > 0 ? header.timestamp : undefined;
  return { version, cols: Math.floor(cols), rows: Math.floor(rows), events, duration: t, command, ...(timestamp ? { timestamp } : {}) };
}

/** The first non-empty line: a JSON object of version 2 or 3. */
function castHeader(lines: string[], file: string): { header: Record<string, unknown>; headerLine: number } {
  let header: Record<string, unknown> | undefined;
  let headerLine = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    headerLine = i + 1;
    try {
      header = parseJson(lines[i]) as Record<string, unknown>;
    } catch {
      throw new CastError(file, i + 1, l10n.t('the header is not JSON: an asciinema v2 or v3 file starts with a JSON object line'));
    }
    break;
  }
  if (!header || typeof header !== 'object' || Array.isArray(header))
    throw new CastError(file, headerLine || 1, l10n.t('no asciinema header object'));
  const version = header.version;
  if (version !== 2 && version !== 3)
    throw new CastError(
      file,
      headerLine,
      version === undefined
        ? l10n.t('the header has no "version": an asciinema v2 or v3 header starts {"version": 2, …}')
        : l10n.t('unsupported asciinema version {0} (2 and 3 are supported)', JSON.stringify(version)),
    );
  return { header, headerLine };
}

/** The terminal size: v2's `width`/`height`, v3's `term.cols`/`term.rows`. */
function castSize(header: Record<string, unknown>, version: 2 | 3, file: string, headerLine: number): { cols: number; rows: number } {
  const term = header.term as Record<string, unknown> | undefined;
  const cols = version === 2 ? header.width : term?.cols;
  const rows = version === 2 ? header.height : term?.rows;
  if (!num(cols) || !num(rows) || cols < 1 || rows < 1) {
    const what =
      version === 2 ? l10n.t('header needs numeric "width" and "height"') : l10n.t('header needs numeric "term.cols" and "term.rows"');
    throw new CastError(file, headerLine, what);
  }
  return { cols, rows };
}

/** One event line: `[time, code, data]`, time not negative. */
function castEvent(raw: string, file: string, line: number): [number, string, string] {
  let ev: unknown;
  try {
    ev = parseJson(raw);
  } catch {
    throw new CastError(file, line, l10n.t('event line is not JSON (expected [time, code, data])'));
  }
  if (!Array.isArray(ev) || ev.length < 3 || !num(ev[0]) || typeof ev[1] !== 'string' || typeof ev[2] !== 'string') {
    throw new CastError(file, line, l10n.t('event must be [time: number, code: string, data: string]'));
  }
  if (ev[0] < 0) throw new CastError(file, line, l10n.t('negative event time'));
  return [ev[0], ev[1], ev[2]];
}

/** `r` events carry "COLSxROWS". */
export function parseResize(data: string): { cols: number; rows: number } | undefined {
  const m = /^(\d+)x(\d+)$/.exec(data.trim());
  if (!m) return undefined;
  return { cols: Number(m[1]), rows: Number(m[2]) };
}
