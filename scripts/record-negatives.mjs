#!/usr/bin/env node
// Records REAL plain-shell terminal sessions as asciinema v2 casts, used as
// negative fixtures (must never be classified as an agent, nor as "waiting").
//
// Usage: node scripts/record-negatives.mjs [name...]
//   With no names, records every scenario. Output: test/fixtures/negative/<name>.cast
//
// Each scenario spawns `bash --norc --noprofile -i` in a real PTY
// (@lydell/node-pty, 120x35, TERM=xterm-256color, PS1='$ ', isolated HOME
// and scratch working dir under /tmp), types commands like a human would
// (text, then "\r" as a separate write ~100 ms later), waits for the output to
// settle, and ends the session with `exit`.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pty = require('@lydell/node-pty');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, 'test', 'fixtures', 'negative');
const SCRATCH_ROOT = '/tmp/agent-lens-negatives';
const COLS = 120;
const ROWS = 35;
const MAX_CAST_BYTES = 2 * 1024 * 1024;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function which(cmd) {
  try {
    return execFileSync('bash', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

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

class Session {
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

function git(cwd, env, ...args) {
  execFileSync('git', args, { cwd, env, stdio: 'pipe' });
}

// ---------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------

const MENTIONS = `Release notes and chat log (plain text, not an agent)
=====================================================
Claude Code is an agent
claude code
OpenAI Codex (v0.169.0) banner
>_ OpenAI Codex (v0.169.0)
opencode
OpenCode v1.0.0
Gemini CLI, Amp, Hermes are other tools people mention.
  ✻ Worked for 3s
✻ Worked for 3s
log: ✻ Worked for 3s · done
● API Error: 500
log: ● API Error: 500 (retrying)
Do you want to proceed?
Q: Do you want to proceed? asked the reviewer
❯ 1. Yes
  2. No
Allow once   Allow always   Reject
Overwrite existing file? (y/n)
Press esc to interrupt
(esc to interrupt)
Retried for 3s
Sautéed for 2m 3s
✶ Sautéed for 2m 3s · 1.2k tokens
end of file
`;

const LESS_TEXT =
  Array.from({ length: 400 }, (_, i) => {
    const n = i + 1;
    const words = [
      'the parser reads tokens from the lexer',
      'configuration is loaded from the workspace',
      'terminal output is buffered before rendering',
      'a background task compacts the log files',
      'Do you want to proceed? is only a quoted phrase here',
      'retry policy: exponential backoff with jitter',
    ];
    return `${String(n).padStart(4, ' ')}  ${words[i % words.length]}`;
  }).join('\n') + '\n';

const scenarios = {
  async ls(s) {
    await s.run('ls -la --color=always /usr/lib | head -80');
    await s.run('ls --color=always /usr/bin | head -200');
  },

  async 'git-log'(s) {
    // Build the repo before recording (deterministic author/committer dates).
    const repo = path.join(s.work, 'demo');
    fs.mkdirSync(repo);
    const env = {
      ...s.env,
      GIT_AUTHOR_NAME: 'Dev Eloper',
      GIT_AUTHOR_EMAIL: 'dev@example.com',
      GIT_COMMITTER_NAME: 'Dev Eloper',
      GIT_COMMITTER_EMAIL: 'dev@example.com',
    };
    git(repo, env, 'init', '-q', '-b', 'main');
    const messages = [
      'Initial commit',
      'Add Claude Code support',
      'Worked for 3s on parser',
      'Handle "Do you want to proceed?" prompt',
      'Detect OpenAI Codex (v0.169.0) banner',
      'Add opencode detector',
      'Fix: ✻ Worked for 3s line not matched mid-line',
      'Parse "● API Error: 500" as error state',
      'Support ❯ 1. Yes selection menus',
      'Add Allow once / Allow always / Reject buttons',
      'Recognise (y/n) prompts',
      'Show "esc to interrupt" as busy',
      'Retried for 3s: add retry counter',
      'Sautéed for 2m 3s: spinner verb list',
      'Refactor terminal buffer',
      'Add Gemini CLI and Amp detection',
      'Bump dependencies',
      'Docs: explain waiting state',
      'Fix flaky test in OSC title parser',
      'Add status bar item',
      'Add Hermes agent',
      'Tweak colours in tree view',
      'Remove dead code',
      'Speed up ANSI stripping',
      'Handle alternate screen buffer',
      'Add CLI entry point',
      'Claude Code: detect plan mode',
      'Codex: detect approval prompt',
      'Release 0.1.0',
      'Prepare 0.2.0 changelog',
    ];
    const base = Date.UTC(2025, 0, 6, 9, 0, 0) / 1000;
    messages.forEach((msg, i) => {
      const file = path.join(repo, i % 3 === 0 ? 'README.md' : i % 3 === 1 ? 'src/detect.ts' : 'src/state.ts');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.appendFileSync(file, `// ${i + 1}: ${msg}\n`.repeat(1 + (i % 4)));
      const date = `@${base + i * 5400} +0000`;
      git(repo, { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }, 'add', '-A');
      git(repo, { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }, 'commit', '-q', '-m', msg);
    });
    await s.run('cd demo');
    await s.run('git --no-pager log --stat --color=always');
    await s.run('git --no-pager log --oneline --graph --color=always');
  },

  async 'npm-install'(s) {
    await s.run('mkdir app && cd app');
    await s.run('npm init -y', { maxMs: 60000 });
    await s.run('npm install --no-audit --no-fund is-number@7', { maxMs: 180000 });
    await s.run('ls node_modules');
  },

  async 'cat-mentions'(s) {
    fs.writeFileSync(path.join(s.work, 'mentions.txt'), MENTIONS);
    await s.run('cat mentions.txt');
    await s.run("printf '\\e]0;my shell\\a'; printf '%s\\n' 'Claude Code is an agent' 'OpenAI Codex (v0.169.0) banner' 'opencode'");
    await s.run(
      "printf '\\e]0;my shell\\a  ✻ Worked for 3s\\nlog: ✻ Worked for 3s · done\\n● API Error: 500\\nDo you want to proceed?\\n❯ 1. Yes\\n'",
    );
    await s.run("printf 'Allow once   Allow always   Reject\\n(y/n)\\nesc to interrupt\\nRetried for 3s\\nSautéed for 2m 3s\\n'");
  },

  async top(s) {
    let mark = s.buffer.length;
    await s.type('top -d 0.5');
    await sleep(6000);
    s.send('q');
    await s.waitPrompt(mark + 1, { maxMs: 10000 });
    await sleep(700);
    if (which('htop')) {
      mark = s.buffer.length;
      await s.type('htop');
      await sleep(6000);
      s.send('q');
      await s.waitPrompt(mark + 1, { maxMs: 10000 });
      await sleep(700);
    } else {
      process.stderr.write('  [top] htop not installed, skipped\n');
    }
  },

  async less(s) {
    fs.writeFileSync(path.join(s.work, 'notes.txt'), LESS_TEXT);
    const mark = s.buffer.length;
    await s.type('less notes.txt');
    await s.settle(500, 5000);
    await sleep(800);
    s.send(' ');
    await s.settle(300, 5000);
    await sleep(900);
    s.send(' ');
    await s.settle(300, 5000);
    await sleep(900);
    s.send('q');
    await s.waitPrompt(mark + 1, { maxMs: 10000 });
    await sleep(700);
  },

  // A numbered list and a real shell menu (bash's select builtin): dialog-shaped, but a plain shell.
  async 'numbered-menu'(s) {
    let mark = s.buffer.length;
    await s.type(
      "printf 'Steps:\\n1. Build\\n2. Test\\n> 1. Deploy\\n  2. Roll back\\nEnter to confirm · Esc to cancel\\nProceed? (y/n)\\n'",
    );
    await s.waitPrompt(mark + 1);
    await sleep(800);
    mark = s.buffer.length;
    await s.type('select c in build test quit; do echo "picked $c"; break; done');
    await s.waitFor(/#\? $/, { mark: mark + 1 });
    await sleep(2500); // the menu waits, as a dialog would
    mark = s.buffer.length;
    await s.type('2');
    await s.waitPrompt(mark + 1);
    await sleep(500);
  },

  // A Python REPL printing a cursor-marked numbered menu and asking.
  async 'python-menu'(s) {
    let mark = s.buffer.length;
    await s.type('python3 -q');
    await s.waitFor(/>>> $/, { mark: mark + 1 });
    await sleep(500);
    mark = s.buffer.length;
    await s.type('print("Pick one:\\n\\u276f 1. Yes\\n  2. No\\nEnter to select, Esc to cancel")');
    await s.waitFor(/>>> $/, { mark: mark + 1 });
    await sleep(800);
    mark = s.buffer.length;
    await s.type('input("Which one? [y/N] ")');
    await s.waitFor(/\[y\/N\] $/, { mark: mark + 1 });
    await sleep(2000);
    mark = s.buffer.length;
    await s.type('1');
    await s.waitFor(/>>> $/, { mark: mark + 1 });
    await sleep(500);
    mark = s.buffer.length;
    await s.type('exit()');
    await s.waitPrompt(mark + 1);
    await sleep(500);
  },

  async 'python-repl'(s) {
    let mark = s.buffer.length;
    await s.type('python3 -q');
    await s.waitFor(/>>> $/, { mark: mark + 1 });
    await sleep(500);
    const repl = async (line, re = />>> $/) => {
      const m = s.buffer.length;
      await s.type(line);
      await s.waitFor(re, { mark: m + 1 });
      await sleep(600);
    };
    await repl('1+1');
    await repl('print("Do you want to proceed? (y/n)")');
    await repl('input("Continue? (y/n) ")', /Continue\? \(y\/n\) $/);
    await sleep(1200); // "thinking" before answering
    await repl('y');
    mark = s.buffer.length;
    await s.type('exit()');
    await s.waitPrompt(mark + 1);
    await sleep(500);
  },

  async vim(s) {
    const vi = which('vim') ? 'vim' : which('vi') ? 'vi' : null;
    if (!vi) throw new Error('SKIP: neither vim nor vi is installed');
    fs.writeFileSync(path.join(s.work, 'todo.txt'), 'existing line one\nexisting line two\n');
    const mark = s.buffer.length;
    await s.type(`${vi} todo.txt`);
    await s.settle(600, 5000);
    await sleep(500);
    s.send('G');
    await sleep(200);
    s.send('o');
    await sleep(200);
    for (const chunk of ['Do you want to proceed? ', '(y/n) ', 'Claude Code notes: ', 'esc to interrupt']) {
      s.send(chunk);
      await s.settle(150, 2000);
      await sleep(250);
    }
    s.send('\x1b');
    await sleep(600);
    s.send(':q!');
    await sleep(300);
    s.send('\r');
    await s.waitPrompt(mark + 1, { maxMs: 10000 });
    await sleep(700);
  },

  async 'long-build'(s) {
    const script =
      'for i in $(seq 1 3000); do ' +
      "printf '\\r\\e[K⠋ building %d' $i; " +
      "if [ $((i % 10)) -eq 0 ]; then printf '\\r\\e[K\\e[33mwarning\\e[0m: src/mod_%d.c:%d:5: unused variable \\e[1m‘tmp’\\e[0m\\n' $i $((i*7 % 400)); " +
      "else printf '\\r\\e[K\\e[32m  CC\\e[0m      build/obj/mod_%04d.o\\n' $i; fi; " +
      "if [ $((i % 250)) -eq 0 ]; then printf '\\r\\e[K\\e[1;36m[%3d%%]\\e[0m Linking target libcore_%d.a\\n' $((i*100/3000)) $((i/250)); sleep 0.05; fi; " +
      "done; printf '\\r\\e[K\\e[1;32mBuild succeeded\\e[0m: 3000 objects\\n'";
    await s.run(script, { maxMs: 120000 });
  },
};

// ---------------------------------------------------------------------------

async function record(name) {
  const fn = scenarios[name];
  const s = new Session(name);
  s.start();
  await s.waitFor(/\$ $/, { maxMs: 10000 }); // first prompt
  await sleep(400);
  try {
    await fn(s);
  } catch (err) {
    s.proc.kill();
    await s.exited;
    throw err;
  }
  await s.exit();
  const cast = s.toCast();
  if (Buffer.byteLength(cast) > MAX_CAST_BYTES) {
    process.stderr.write(`  [${name}] WARNING: cast is ${Buffer.byteLength(cast)} bytes (> 2 MB)\n`);
  }
  const file = path.join(OUT_DIR, `${name}.cast`);
  fs.writeFileSync(file, cast);
  const dur = s.exitAt ?? s.now();
  console.log(
    `${name}: ${path.relative(ROOT, file)} ${Buffer.byteLength(cast)} bytes, ${dur.toFixed(1)} s, ` +
      `${s.events.length} events, exit ${s.exitCode}`,
  );
}

async function main() {
  const names = process.argv.slice(2);
  const unknown = names.filter((n) => !(n in scenarios));
  if (unknown.length) {
    console.error(`unknown scenario(s): ${unknown.join(', ')}\navailable: ${Object.keys(scenarios).join(', ')}`);
    process.exit(2);
  }
  fs.mkdirSync(OUT_DIR, { recursive: true });
  let failed = 0;
  for (const name of names.length ? names : Object.keys(scenarios)) {
    try {
      await record(name);
    } catch (err) {
      if (String(err.message).startsWith('SKIP')) {
        console.error(`${name}: skipped (${err.message})`);
        continue;
      }
      failed++;
      console.error(`${name}: FAILED: ${err.message}`);
    }
  }
  process.exit(failed ? 1 : 0);
}

main();
