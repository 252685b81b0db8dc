/**
 * Real processes for provenance tests: a "terminal" (a bash that leads its own session, as a VS Code terminal's
 * shell does) running an "agent" (a node process) that runs hook commands the way agents do (`/bin/sh -c`, the
 * payload on stdin); and an "attacker", a node process outside that tree that POSTs reports with the real token.
 */
import { type ChildProcessByStdio, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as readline from 'readline';
import type { Readable, Writable } from 'stream';

const AGENT = `
const { spawn } = require('child_process');
const rl = require('readline').createInterface({ input: process.stdin });
process.stdout.write(JSON.stringify({ pid: process.pid, ppid: process.ppid }) + '\\n');
rl.on('line', (line) => {
  const c = JSON.parse(line);
  const t0 = performance.now();
  const p = spawn('/bin/sh', ['-c', c.command], { env: c.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  p.stdout.on('data', (d) => (out += d));
  p.stderr.on('data', (d) => (out += d));
  p.stdin.end(c.stdin);
  p.on('close', (code) => process.stdout.write(JSON.stringify({ id: c.id, code, out, ms: performance.now() - t0 }) + '\\n'));
});
`;

const ATTACKER = `
const http = require('http');
const fs = require('fs');
const [file, claimJson, reportsJson] = process.argv.slice(2);
const d = JSON.parse(fs.readFileSync(file, 'utf8'));
const { closeAtOnce, ...claim } = JSON.parse(claimJson);
if (claim.pid === 'self') claim.pid = process.pid;
/** Writes the whole request and closes its socket at once: the kernel's table then lists no owner for it. */
function rude(body) {
  return new Promise((resolve) => {
    const s = require('net').connect(d.port, '127.0.0.1', () => {
      s.end('POST /v1/hooks HTTP/1.1\\r\\nHost: 127.0.0.1:' + d.port + '\\r\\nAuthorization: Bearer ' + d.token + '\\r\\nContent-Type: application/json\\r\\nContent-Length: ' + Buffer.byteLength(body) + '\\r\\n\\r\\n' + body, () => { s.destroy(); resolve('sent, closed'); });
    });
    s.on('error', (e) => resolve(e.message));
  });
}
(async () => {
  const statuses = [];
  for (const payload of JSON.parse(reportsJson)) {
    const body = JSON.stringify({ v: 1, agent: 'claude-code', at: Date.now(), ...claim, payload });
    if (closeAtOnce) {
      statuses.push(await rude(body));
      await new Promise((r) => setTimeout(r, 300));
      continue;
    }
    statuses.push(await new Promise((resolve) => {
      const req = http.request({ host: '127.0.0.1', port: d.port, path: '/v1/hooks', method: 'POST', agent: false, headers: { host: '127.0.0.1:' + d.port, authorization: 'Bearer ' + d.token, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); });
      req.on('error', (e) => resolve(e.message));
      req.end(body);
    }));
  }
  process.stdout.write(JSON.stringify({ pid: process.pid, statuses }));
})();
`;

export interface HookRun {
  code: number;
  out: string;
  ms: number;
}

/** A bash session leader (the terminal's shell) with a node agent in the foreground. */
export class VictimTerminal {
  private readonly answers = new Map<number, (r: HookRun) => void>();
  private nextId = 0;

  private constructor(
    private readonly bash: ChildProcessByStdio<Writable, Readable, null>,
    readonly shellPid: number,
    readonly agentPid: number,
  ) {
    readline.createInterface({ input: bash.stdout }).on('line', (line) => {
      const r = JSON.parse(line) as HookRun & { id: number };
      this.answers.get(r.id)?.(r);
      this.answers.delete(r.id);
    });
  }

  static async start(dir: string): Promise<VictimTerminal> {
    const agentFile = path.join(dir, 'agent.js');
    fs.writeFileSync(agentFile, AGENT);
    // `trap` keeps bash from exec'ing its last command: the shell stays, as a terminal's does.
    const bash = spawn(
      'bash',
      ['--norc', '--noprofile', '-c', `trap : USR1; ${JSON.stringify(process.execPath)} ${JSON.stringify(agentFile)}`],
      { detached: true, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const first = await new Promise<string>((resolve, reject) => {
      bash.once('error', reject);
      bash.stdout.once('data', (d: Buffer) => resolve(String(d)));
    });
    const { pid, ppid } = JSON.parse(first) as { pid: number; ppid: number };
    if (ppid !== bash.pid) throw new Error(`the agent's parent is ${ppid}, not the shell ${bash.pid}`);
    return new VictimTerminal(bash, bash.pid!, pid);
  }

  /** Runs a hook command in the agent, as the agent runs its hooks. */
  runHook(command: string, stdin: string, env: NodeJS.ProcessEnv): Promise<HookRun> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.answers.set(id, resolve);
      this.bash.stdin.write(`${JSON.stringify({ id, command, stdin, env })}\n`);
    });
  }

  stop(): void {
    try {
      process.kill(-this.shellPid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/** A process outside every terminal: POSTs these payloads as claude-code reports with `claim`, with the real token. */
export function attack(
  dir: string,
  discovery: string,
  claim: { pid?: number | 'self'; ancestry?: number[]; closeAtOnce?: boolean },
  payloads: Record<string, unknown>[],
): Promise<{ pid: number; statuses: (number | string)[] }> {
  const file = path.join(dir, 'attacker.js');
  fs.writeFileSync(file, ATTACKER);
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [file, discovery, JSON.stringify(claim), JSON.stringify(payloads)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('error', reject);
    p.on('close', (code) => {
      try {
        resolve(JSON.parse(out) as { pid: number; statuses: (number | string)[] });
      } catch {
        reject(new Error(`the attacker exited ${code} without its answer: ${JSON.stringify(out)}`));
      }
    });
  });
}

/** Polls until `cond` holds or `ms` pass. */
export async function until(cond: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  return cond();
}
