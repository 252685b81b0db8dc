import { parseCommandLine } from './args';
import * as path from 'path';
import { FileReadError, readRegularFile } from '../common/fsutil';
import type { Board } from '../handoff/board';
import { BOARDS_PATH, DISPATCH_PATH, DOORBELL_PATH } from '../handoff/doorbell';
import { type SessionUsageJson, USAGE_PATH } from '../usage/route';
import { ClientError, hubFromEnv, request } from '../handoff/hubClient';
import { REPORT_BODY_LIMIT } from '../hooks/wire';
import { jsonLine as jsonText, printable } from '../common/printable';
import { serve } from './serve';
import { readNotifyFile } from '../notify/config';
import { NotifyFanout } from '../notify/fanout';
import { logTo } from '../common/log';

/** A usage or input problem: one line on stderr, exit 2. */
export class HandoffUsageError extends Error {}

type Flags = Record<string, string | true>;

function flags(argv: string[], known: Record<string, 'value' | 'switch'>): Flags {
  const options = Object.fromEntries(
    Object.entries(known).map(([name, kind]) => [name, { type: kind === 'value' ? ('string' as const) : ('boolean' as const) }]),
  );
  const { values } = parseCommandLine(argv, options, (m) => new HandoffUsageError(m));
  const out: Flags = {};
  for (const [name, v] of Object.entries(values)) if (typeof v === 'string' || v === true) out[name] = v;
  return out;
}

function need(f: Flags, name: string): string {
  const v = f[name];
  if (typeof v !== 'string' || !v) throw new HandoffUsageError(`--${name} is required`);
  return v;
}

export async function handoffCommand(cmd: string, argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  try {
    if (cmd === 'serve') return await runServe(argv, err);
    if (cmd === 'notify') return await notifyCommand(argv, out, err);
    if (cmd === 'task') return await task(argv, out, err);
    if (cmd === 'dispatch') return await dispatch(argv, out, err);
    if (cmd === 'status') return await status(argv, out);
    throw new HandoffUsageError(`unknown command "${cmd}"`);
  } catch (e) {
    if (e instanceof HandoffUsageError || e instanceof ClientError) {
      err(`agent-lens: ${printable(e.message)}`);
      return 2;
    }
    err(`agent-lens: ${printable((e as Error).message)}`);
    return 1;
  }
}

async function runServe(argv: string[], err: (s: string) => void): Promise<number> {
  const f = flags(argv, { root: 'value', team: 'value', workspace: 'value', port: 'value', 'info-file': 'value', notify: 'value' });
  const port = f.port === undefined ? undefined : Number(f.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535))
    throw new HandoffUsageError('--port needs a port number from 1 to 65535');
  const workspace = f.workspace === undefined ? undefined : need(f, 'workspace');
  const s = await serve({
    root: workspace && f.root === undefined ? undefined : need(f, 'root'),
    team: f.team as string | undefined,
    workspace,
    port,
    infoFile: need(f, 'info-file'),
    log: err,
    notify: f.notify === undefined ? undefined : notifySettings(need(f, 'notify')),
  });
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  await s.close();
  err('agent-lens serve: stopped');
  return 0;
}

function notifySettings(file: string): ReturnType<typeof readNotifyFile> {
  try {
    return readNotifyFile(file);
  } catch (e) {
    throw new HandoffUsageError(`--notify: ${(e as Error).message}`);
  }
}

/** `agent-lens notify test --notify FILE`: one test message per channel; a line per channel that failed. */
async function notifyCommand(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'test') throw new HandoffUsageError('usage: agent-lens notify test --notify FILE');
  const n = notifySettings(need(flags(rest, { notify: 'value' }), 'notify'));
  if (!n.channels.length) throw new HandoffUsageError('--notify: the file names no channel');
  const fanout = new NotifyFanout(
    n.channels,
    logTo((_level, msg) => err(msg)),
  );
  const failures = await fanout.test();
  for (const f of failures) err(`agent-lens: ${printable(f)}`);
  out(`${n.channels.length - failures.length} of ${n.channels.length} channel(s) sent the test message`);
  return failures.length ? 1 : 0;
}

/**
 * The hub's JSON as one line for stdout. JSON.stringify escapes C0 but leaves DEL, C1 and U+2028/2029 raw; they
 * are escaped too (still the same JSON), so what an agent sent cannot act on the terminal this is printed in.
 */
export function jsonLine(v: unknown): string {
  return jsonText(v);
}

/** Prints the hub's answer: the JSON body on success (one line), its error on stderr otherwise. */
function answer(a: { status: number; body: unknown }, out: (s: string) => void, err: (s: string) => void): number {
  if (a.status >= 200 && a.status < 300) {
    const w = (a.body as { warning?: string } | undefined)?.warning;
    if (w) err(`agent-lens: warning: ${printable(w)}`);
    out(jsonLine(a.body));
    return 0;
  }
  const why = (a.body as { error?: string } | undefined)?.error;
  err(
    `agent-lens: the hub answered ${a.status}${why ? `: ${printable(String(why))}` : a.status === 403 ? ': wrong or missing token (the hub restarted? re-open the terminal or re-export AGENT_LENS_HUB)' : ''}`,
  );
  return 1;
}

async function task(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'report') {
    const f = flags(rest, { id: 'value', status: 'value', summary: 'value', report: 'value' });
    const id = need(f, 'id');
    const body = {
      id,
      status: need(f, 'status'),
      summary: need(f, 'summary'),
      report_path: typeof f.report === 'string' ? path.resolve(f.report) : null,
    };
    return answer(await request(hubFromEnv(), 'POST', DOORBELL_PATH, body), out, err);
  }
  if (sub === 'cancel') {
    const f = flags(rest, { id: 'value', reason: 'value' });
    return answer(
      await request(hubFromEnv(), 'POST', DOORBELL_PATH, {
        id: need(f, 'id'),
        status: 'cancelled',
        summary: need(f, 'reason'),
        report_path: null,
      }),
      out,
      err,
    );
  }
  throw new HandoffUsageError('use "agent-lens task report …" or "agent-lens task cancel …"');
}

async function dispatch(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const f = flags(argv, { agent: 'value', 'task-id': 'value', brief: 'value', message: 'value' });
  const file = need(f, 'brief');
  let brief: string;
  try {
    // A regular file (a link to one is fine: the user named it) no larger than the hub takes: a FIFO or a device
    // would block or never end.
    brief = readRegularFile(file, { max: REPORT_BODY_LIMIT, followLink: true }).toString('utf8');
  } catch (e) {
    throw new HandoffUsageError(
      `cannot read the brief: ${e instanceof FileReadError ? e.message : `${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`}`,
    );
  }
  const hub = hubFromEnv();
  return answer(
    await request(
      hub,
      'POST',
      DISPATCH_PATH,
      { agent: need(f, 'agent'), task_id: need(f, 'task-id'), brief, ...(typeof f.message === 'string' ? { message: f.message } : {}) },
      60_000,
    ),
    out,
    err,
  );
}

/** One line per session: terminal, agent, model, context fill, tokens, cost. The hub's text is escaped. */
function printSessions(sessions: readonly SessionUsageJson[], out: (s: string) => void): void {
  const p = (v: unknown) => printable(String(v));
  for (const s of sessions) {
    const t = s.tokens;
    const ctx = s.contextUsed !== null && s.contextWindow ? `${Math.round((s.contextUsed / s.contextWindow) * 100)}%` : '-';
    const cost = s.cost === null ? '-' : `$${s.cost.toFixed(2)}${s.costSource === 'estimated' ? ' (estimated)' : ''}`;
    out(
      `${p(s.terminal?.name ?? '-')}\t${p(s.agent)}\t${p(s.model ?? '-')}\tcontext ${ctx}\t${t.input + t.output + t.cacheRead + t.cacheWrite} tokens\t${cost}`,
    );
  }
}

async function status(argv: string[], out: (s: string) => void): Promise<number> {
  const f = flags(argv, { json: 'switch' });
  const a = await request(hubFromEnv(), 'GET', BOARDS_PATH);
  if (a.status !== 200) throw new Error(`the hub answered ${a.status}`);
  const body = a.body as { boards: Board[]; ungrouped: unknown[]; sessions?: SessionUsageJson[] };
  // A VS Code window's hub also tells each session's usage; `agent-lens serve` has none (404): no sessions then.
  const u = await request(hubFromEnv(), 'GET', USAGE_PATH);
  if (u.status === 200) body.sessions = (u.body as { sessions: SessionUsageJson[] }).sessions;
  if (f.json) {
    out(jsonLine(body));
    return 0;
  }
  printSessions(body.sessions ?? [], out);
  if (!body.boards.length) out('no boards yet');
  // Every field is the hub's (and, through it, what agents and dispatch requests sent): escaped, so a control
  // character in a task id or an error_reason cannot move the cursor or recolour this terminal.
  const p = (v: unknown) => printable(String(v));
  for (const b of body.boards)
    out(
      `${p(b.agent)}\t${p(b.state)}\t${p(b.task_id ?? '-')}\t${b.last_event ? `${p(b.last_event.status)}: ${p(b.last_event.summary)}` : '-'}${b.error_reason ? `\t${p(b.error_reason)}` : ''}`,
    );
  return 0;
}
