// The terminal session record-negatives.mjs records: a real PTY running
// `bash --norc --noprofile -i` (@lydell/node-pty, 120x35, TERM=xterm-256color,
// PS1='$ ', isolated HOME and scratch working dir under /tmp), typed into like a
// human would, and its output as an asciinema v2 cast.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pty = require('@lydell/node-pty');

const SCRATCH_ROOT = '/tmp/agent-lens-negatives';
const COLS = 120;
const ROWS = 35;

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Resolve the real python3 (pyenv shims need $HOME/.pyenv, which the isolated
// HOME does not have) and put its directory first on PATH.
function pythonDir() {
  try {
    const exe = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
      encoding: 'utf8',
    }).trim();
    return path.dirname(exe);
  } catch {
    return null;
  }
}

const BASE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const PY_DIR = pythonDir();
const PATH_ENV = PY_DIR && !BASE_PATH.split(':').includes(PY_DIR) ? `${PY_DIR}:${BASE_PATH}` : BASE_PATH;

// ---------------------------------------------------------------------------
// Session: one PTY + one cast file
// ---------------------------------------------------------------------------

export class Session {
  constructor(name) {
    this.name = name;
    this.dir = path.join(SCRATCH_ROOT, name);
    this.home = path.join(this.dir, 'home');
    this.work = path.join(this.dir, 'work');
    fs.rmSync(this.dir, { recursive: true, force: true });
    fs.mkdirSync(this.home, { recursive: true });
    fs.mkdirSync(this.work, { recursive: true });
    // Keep npm quiet about updates but otherwise default (progress on).
    fs.writeFileSync(path.join(this.home, '.npmrc'), 'update-notifier=false\n');
    this.env = {
      PATH: PATH_ENV,
      HOME: this.home,
      USER: 'dev',
      LOGNAME: 'dev',
      SHELL: '/bin/bash',
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TZ: 'UTC',
      PS1: '$ ',
      PS2: '> ',
      HISTFILE: path.join(this.home, '.bash_history'),
      GIT_CONFIG_NOSYSTEM: '1',
      PYTHONDONTWRITEBYTECODE: '1',
    };
    this.events = [];
    this.buffer = ''; // all output so far
    this.lastOutputAt = 0;
    this.exitCode = null;
  }

  now() {
    return (performance.now() - this.t0) / 1000;
  }

  start() {
    this.startedAt = Math.floor(Date.now() / 1000);
    this.t0 = performance.now();
    this.lastOutputAt = performance.now();
    this.proc = pty.spawn('/bin/bash', ['--norc', '--noprofile', '-i'], {
      name: 'xterm-256color',
      cols: COLS,
      rows: ROWS,
      cwd: this.work,
      env: this.env,
      encoding: 'utf8',
    });
    this.proc.onData((data) => {
      this.events.push([this.now(), 'o', data]);
      this.buffer += data;
      this.lastOutputAt = performance.now();
    });
    this.exited = new Promise((resolve) => {
      this.proc.onExit(({ exitCode, signal }) => {
        this.exitCode = exitCode ?? (signal ? 128 + signal : 0);
        this.exitAt = this.now();
        resolve(this.exitCode);
      });
    });
  }

  /** Raw key(s), recorded as an "i" event. */
  send(data) {
    this.events.push([this.now(), 'i', data]);
    this.proc.write(data);
  }

  /** Type a command line: the text, then "\r" as a separate write ~100 ms later. */
  async type(text, { enterDelay = 100 } = {}) {
    this.send(text);
    await sleep(enterDelay);
    this.send('\r');
  }

  /** Wait until no output has arrived for `quietMs` (bounded by `maxMs`). */
  async settle(quietMs = 400, maxMs = 15000) {
    const start = performance.now();
    await sleep(Math.min(quietMs, 50));
    while (performance.now() - start < maxMs) {
      if (performance.now() - this.lastOutputAt >= quietMs) return true;
      await sleep(25);
    }
    return false;
  }

  /** Wait until the output written after `mark` matches `re` and then settles. */
  async waitFor(re, { mark = 0, quietMs = 300, maxMs = 30000 } = {}) {
    const start = performance.now();
    while (performance.now() - start < maxMs) {
      if (re.test(stripAnsi(this.buffer.slice(mark)))) {
        await this.settle(quietMs, maxMs);
        return true;
      }
      await sleep(25);
    }
    process.stderr.write(`  [${this.name}] timeout waiting for ${re}\n`);
    return false;
  }

  /** Wait for the bash prompt ("$ " at the end of the output) after `mark`. */
  waitPrompt(mark, opts = {}) {
    // bash emits "\r\n\e[?2004l\r" after Enter and "\e[?2004h$ " for the
    // prompt, so after stripping escapes the prompt follows a "\r" or "\n".
    return this.waitFor(/(^|[\r\n])\$ $/, { mark, ...opts });
  }

  /** Type a shell command and wait for the next prompt. */
  async run(cmd, { maxMs = 30000, pauseAfter = 700 } = {}) {
    const mark = this.buffer.length;
    await this.type(cmd);
    await this.waitPrompt(mark + 1, { maxMs });
    await sleep(pauseAfter); // a human reading the output
  }

  async exit() {
    await this.type('exit');
    const timeout = sleep(10000).then(() => 'timeout');
    const r = await Promise.race([this.exited, timeout]);
    if (r === 'timeout') {
      process.stderr.write(`  [${this.name}] shell did not exit, killing\n`);
      this.proc.kill();
      await this.exited;
    }
    await sleep(50); // let trailing data events drain
  }

  toCast() {
    const header = {
      version: 2,
      width: COLS,
      height: ROWS,
      timestamp: this.startedAt,
      env: { TERM: 'xterm-256color', SHELL: '/bin/bash' },
      title: `negative ${this.name}`,
    };
    const lines = [JSON.stringify(header)];
    for (const [t, kind, data] of this.events) {
      lines.push(`[${t.toFixed(3)}, ${JSON.stringify(kind)}, ${JSON.stringify(data)}]`);
    }
    const xt = Math.max(this.exitAt ?? this.now(), this.events.at(-1)?.[0] ?? 0);
    lines.push(`[${xt.toFixed(3)}, "x", ${JSON.stringify(String(this.exitCode ?? 0))}]`);
    return lines.join('\n') + '\n';
  }
}

function stripAnsi(s) {
  return s
    .replace(/\x1b\[1?G/g, '\r') // cursor to column 1 (npm's spinner) == carriage return
    .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '')
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b[()][0-9A-Za-z]/g, '')
    .replace(/\x1b[=>78]/g, '');
}
