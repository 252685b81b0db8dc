/**
 * What the reporter and the answering hook share: reading the hook's stdin, the report as JSON within the hub's
 * limit, and the wait marker beside the discovery file. Neither ever writes to stdout from here.
 */
import * as fs from 'fs';
import * as path from 'path';
import { unsafeDirReason } from '../../common/fsutil';
import { ancestry } from './client';
import { markerDir, markerName } from '../commands';
import { markerAction, sessionIdOf } from '../../hooks/mapping/mapReport';
import { REPORTING_AGENTS, type ReportingAgent } from '../../agents/hookEvents';
import { REPORT_BODY_LIMIT, TEXT_KEPT, type WireReport } from '../../hooks/wire';

const STDIN_LIMIT = 1024 * 1024;
/** Text kept per string field, tried in turn until the report fits the hub's limit (a report over it would be refused). */
const KEEP_STEPS = [TEXT_KEPT, 2000, 300, 40];
/** Fields kept per object: a payload of thousands of keys is not a hook's. */
const KEYS_KEPT = 200;

/** The hook's report, ready to post (its wait marker set), or undefined when there is nothing to send. */
export async function readReport(
  agentArg: string | undefined,
  hubFile: string | undefined,
): Promise<{ body: string; report: WireReport } | undefined> {
  const agent = agentArg as ReportingAgent;
  // Read whole first, always: the agent writing it must never meet a closed pipe.
  const input = await readStdin();
  if (!hubFile || !(REPORTING_AGENTS as readonly string[]).includes(agent)) return undefined;
  const payload = parse(input);
  if (!payload) return undefined;
  const report: WireReport = {
    v: 1,
    agent,
    at: performance.timeOrigin + performance.now(),
    pid: process.ppid,
    ancestry: ancestry(process.pid),
    payload,
  };
  setMarker(hubFile, markerName(process.ppid, agent, sessionIdOf(report)), markerAction(report));
  return { body: fitted(report, payload), report };
}

function readStdin(): Promise<string> {
  return new Promise((resolve) => {
    if (process.stdin.isTTY) return resolve('');
    const chunks: Buffer[] = [];
    let size = 0;
    process.stdin.on('data', (c: Buffer) => {
      // Keep reading past the limit (the writer must not meet a closed pipe), but keep nothing more.
      if (size < STDIN_LIMIT) chunks.push(c);
      size += c.length;
    });
    process.stdin.on('end', () => resolve(size > STDIN_LIMIT ? '' : Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', () => resolve(''));
  });
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The report as JSON within the hub's limit: texts cut harder until it fits, at worst only the top-level scalars. */
function fitted(report: WireReport, payload: Record<string, unknown>): string {
  for (const keep of KEEP_STEPS) {
    const body = JSON.stringify({ ...report, payload: trim(payload, keep) });
    if (Buffer.byteLength(body) <= REPORT_BODY_LIMIT) return body;
  }
  const scalars = Object.fromEntries(
    Object.entries(payload)
      .slice(0, KEYS_KEPT)
      .filter(([, v]) => typeof v !== 'object')
      .map(([k, v]) => [k, typeof v === 'string' ? cut(v, 40) : v]),
  );
  return JSON.stringify({ ...report, payload: scalars });
}

/** A long text keeps its end: a reply's question is at its end. */
function cut(v: string, keep: number): string {
  return v.length > keep ? `…${v.slice(-keep)}` : v;
}

/** Long texts keep their end; nested objects keep their small fields. */
function trim(o: Record<string, unknown>, keep: number, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o).slice(0, KEYS_KEPT)) {
    if (typeof v === 'string') out[k] = cut(v, keep);
    else if (v && typeof v === 'object' && depth < 4)
      out[k] = Array.isArray(v)
        ? v
            .slice(0, 50)
            .map((x) =>
              x && typeof x === 'object' ? trim(x as Record<string, unknown>, keep, depth + 1) : typeof x === 'string' ? cut(x, keep) : x,
            )
        : trim(v as Record<string, unknown>, keep, depth + 1);
    else if (typeof v !== 'object') out[k] = v;
  }
  return out;
}

/**
 * Opens or clears `waiting/<name>` beside the discovery file (`name`: the agent's pid, on Windows its session:
 * src/hooks/markers.ts markerName). The folders are checked first (ours alone: real folders, our uid, not
 * group/other-writable), and the marker is created with O_EXCL|O_NOFOLLOW, so a symlink planted at its path is
 * never followed: nothing is ever written or truncated anywhere else.
 */
function setMarker(hubFile: string, name: string, action: 'open' | 'close'): void {
  const dir = markerDir(hubFile);
  const file = path.join(dir, name);
  try {
    if (unsafeDirReason(path.dirname(hubFile))) return;
    if (action === 'open') {
      try {
        fs.mkdirSync(dir, { mode: 0o700 });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return;
      }
    }
    if (unsafeDirReason(dir)) return;
    if (action === 'close') return fs.rmSync(file, { force: true }); // unlinks a planted link itself, not its target
    const c = fs.constants;
    // EEXIST: the marker is already there (or something planted is, which we leave alone).
    fs.closeSync(fs.openSync(file, c.O_WRONLY | c.O_CREAT | c.O_EXCL | (c.O_NOFOLLOW ?? 0), 0o600));
  } catch {
    /* a marker we cannot write costs a missed gated close; the screen still closes the wait */
  }
}
