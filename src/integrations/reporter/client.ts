import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import type { Discovery } from '../../hub/discovery';
import { REPORT_PATH } from '../../hooks/wire';
import { hostPlatform } from '../../common/platform';
import { procStatFields } from '../../common/procStat';
import { ancestorsOf } from '../../common/ancestors';
import { chainOf, parseParents, PS_PARENTS_ARGS } from '../../common/psParents';

/**
 * The reporter's side of the wire, shared by the reporter script and the OpenCode plugin: find the hub,
 * post a report, name the process's ancestors. Never throws; never writes to stdout.
 */

/**
 * The process ids from `pid`'s parent upward: Linux walks /proc, macOS and the BSDs read one `ps -axo pid=,ppid=`
 * (a few ms, in a hook that runs once per event); Windows sends none.
 */
export function ancestry(pid: number, max = 64, platform: NodeJS.Platform = hostPlatform()): number[] {
  if (platform === 'win32') return [];
  if (platform !== 'linux') return chainOf(psParents(), pid, max);
  return ancestorsOf(parentOf, pid, { max });
}

/**
 * Every process's parent from `ps`, or none. Synchronous like the rest of the report's making; bounded in time
 * and output; its stdout is captured and its stderr dropped, so nothing reaches the hook's own stdout (which the
 * agent reads as the hook's answer).
 */
function psParents(): Map<number, number> {
  try {
    const text = execFileSync('ps', PS_PARENTS_ARGS, {
      encoding: 'utf8',
      timeout: 1000,
      maxBuffer: 4 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
      windowsHide: true,
      env: { ...process.env, LC_ALL: 'C' },
    });
    return parseParents(text);
  } catch {
    return new Map();
  }
}

function parentOf(pid: number): number | undefined {
  try {
    const ppid = procStatFields(fs.readFileSync(`/proc/${pid}/stat`, 'latin1'))?.field(4);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** POSTs a body to the hub; resolves with the HTTP status, or undefined when it could not be delivered in time. */
export async function post(d: Discovery, body: string, timeoutMs: number): Promise<number | undefined> {
  return (await request(d, REPORT_PATH, body, timeoutMs))?.status;
}

/** An answer's body is small (a decision); more is not read. */
const ANSWER_LIMIT = 16 * 1024;

/** POSTs a body to the hub at `route`; resolves with the status and the answer's text, or undefined in time's absence. */
export function request(
  d: Discovery,
  route: string,
  body: string,
  timeoutMs: number,
): Promise<{ status?: number; text: string } | undefined> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (v: { status?: number; text: string } | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(v);
    };
    const req = http.request(
      {
        host: '127.0.0.1',
        port: d.port,
        path: route,
        method: 'POST',
        agent: false,
        headers: {
          host: `127.0.0.1:${d.port}`,
          authorization: `Bearer ${d.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          if (text.length < ANSWER_LIMIT) text += c;
        });
        res.on('end', () => finish({ status: res.statusCode, text }));
        res.on('error', () => finish({ status: res.statusCode, text: '' }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish(undefined);
    }, timeoutMs);
    req.on('error', () => finish(undefined));
    req.end(body);
  });
}
