/**
 * `agent-lens-report <agent>`: run by an agent's hook with the hook's JSON on stdin. Its rules: never a
 * byte on stdout (some CLIs feed a hook's stdout to the model); exit 0 always; bounded time (3 s for its own
 * request; hooks are registered with timeout 10); credentials only from the environment (`AGENT_LENS_HUB`
 * names the discovery file). Every agent's reporter waits for its own request, Codex's too (Codex shows a hook
 * that runs over 300 ms as "Running hook"; a report takes ~0.1 s): the hub finds who sent a report by the
 * process holding its connection, and a copy that outlived the hook could no longer be traced to its agent.
 */
import * as fs from 'fs';
import * as path from 'path';
import { unsafeDirReason } from '../../common/fsutil';
import { readDiscovery } from '../../hub/discovery';
import { ancestry, post } from './client';
import { markerDir } from '../commands';
import { markerAction } from '../../hooks/mapping/mapReport';
import { REPORTING_AGENTS, type ReportingAgent } from '../../agents/hookEvents';
import { REPORT_BODY_LIMIT, TEXT_KEPT, type WireReport } from '../../hooks/wire';

const STDIN_LIMIT = 1024 * 1024;
/** Text kept per string field, tried in turn until the report fits the hub's limit (a report over it would be refused). */
const KEEP_STEPS = [TEXT_KEPT, 2000, 300, 40];
/** Fields kept per object: a payload of thousands of keys is not a hook's. */
const KEYS_KEPT = 200;
const REQUEST_MS = 3000;

async function main(argv: string[]): Promise<void> {
  const agent = argv[0] as ReportingAgent;
  const input = await readStdin();
  const hubFile = process.env.AGENT_LENS_HUB;
  const hub = readDiscovery(hubFile);
  if (!hub || !hubFile || !(REPORTING_AGENTS as readonly string[]).includes(agent)) return;
  const payload = parse(input);
  if (!payload) return;
  const report: WireReport = {
    v: 1,
    agent,
    at: performance.timeOrigin + performance.now(),
    pid: process.ppid,
    ancestry: ancestry(process.pid),
    payload,
  };
  setMarker(hubFile, process.ppid, markerAction(report));
  await post(hub, fitted(report, payload), REQUEST_MS);
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
 * Opens or clears `waiting/<agent pid>` beside the discovery file. The folders are checked first (ours alone:
 * real folders, our uid, not group/other-writable), and the marker is created with O_EXCL|O_NOFOLLOW, so a
 * symlink planted at its path is never followed: nothing is ever written or truncated anywhere else.
 */
function setMarker(hubFile: string, agentPid: number, action: 'open' | 'close'): void {
  const dir = markerDir(hubFile);
  const file = path.join(dir, String(agentPid));
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

main(process.argv.slice(2)).then(
  () => process.exit(0),
  () => process.exit(0),
);
