import * as fs from 'fs';
import * as http from 'http';
import type { Discovery } from '../../hub/discovery';
import { REPORT_PATH } from '../../hooks/wire';
import { procStatFields } from '../../common/procStat';

/**
 * The reporter's side of the wire, shared by the reporter script and the OpenCode plugin: find the hub,
 * post a report, name the process's ancestors. Never throws; never writes to stdout.
 */

/** The process ids from `pid`'s parent upward (Linux /proc; elsewhere empty, the hub walks the tree itself). */
export function ancestry(pid: number, max = 64): number[] {
  const out: number[] = [];
  let cur = pid;
  for (let i = 0; i < max; i++) {
    const ppid = parentOf(cur);
    if (!ppid || ppid <= 1 || out.includes(ppid)) break;
    out.push(ppid);
    cur = ppid;
  }
  return out;
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
export function post(d: Discovery, body: string, timeoutMs: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (v: number | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(v);
    };
    const req = http.request(
      {
        host: '127.0.0.1',
        port: d.port,
        path: REPORT_PATH,
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
        res.resume();
        res.on('end', () => finish(res.statusCode));
        res.on('error', () => finish(res.statusCode));
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
