/**
 * Isolated per-run homes for the agent CLIs.
 *
 * Each prepare*Home() creates a fresh directory tree under /tmp (HOME, XDG dirs, CODEX_HOME,
 * a small project folder) configured so that the CLI starts straight into its prompt,
 * talks only to the loopback mock at `baseUrl`, and logs every hook / plugin event as JSONL
 * (the loggers print nothing and exit 0).
 *
 * The returned `env` is a complete environment (nothing is inherited from the caller except
 * PATH), suitable for spawning the CLI directly: `spawn(home.command, home.args, {cwd: home.cwd, env: home.env})`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';

export type AgentName = 'claude-code' | 'codex' | 'opencode' | 'gemini' | 'pi' | 'qwen' | 'continue-cli' | 'copilot' | 'kilocode' | 'droid';

export const AGENT_VERSIONS: Record<AgentName, string> = {
  'claude-code': '2.1.328',
  codex: '0.169.0',
  opencode: '1.18.33',
  gemini: '0.61.0',
  pi: '0.73.1',
  qwen: '0.24.4',
  'continue-cli': '1.5.47',
  copilot: '1.0.102',
  kilocode: '7.7.7',
  droid: '0.225.2',
};

const BIN_REL: Record<AgentName, string> = {
  'claude-code': 'claude-code/node_modules/@anthropic-ai/claude-code/bin/claude.exe',
  codex: 'codex/node_modules/@openai/codex/bin/codex.js',
  opencode: 'opencode/node_modules/opencode-ai/bin/opencode.exe',
  gemini: 'gemini/node_modules/@google/gemini-cli/bundle/gemini.js',
  pi: 'pi/node_modules/@mariozechner/pi-coding-agent/dist/cli.js',
  qwen: 'qwen/node_modules/@qwen-code/qwen-code/cli-entry.js',
  'continue-cli': 'continue-cli/node_modules/@continuedev/cli/dist/cn.js',
  copilot: 'copilot/node_modules/@github/copilot/npm-loader.js',
  kilocode: 'kilocode/node_modules/@kilocode/cli/bin/kilo',
  droid: 'droid/node_modules/@factory/cli-linux-x64/bin/droid',
};

export interface AgentHome {
  agent: AgentName;
  /** Root of everything this run wrote (delete it to clean up). */
  runDir: string;
  home: string;
  /** Project directory the CLI runs in. */
  cwd: string;
  /** Complete environment for the CLI. */
  env: Record<string, string>;
  /** Executable and arguments (spawn directly, no shell). */
  command: string;
  args: string[];
  /** JSONL file the hook / plugin logger appends to. */
  hooksLog: string;
  /** Marker put into env (AGENTLENS_RUN_ID) so that every descendant process can be found and killed. */
  runId: string;
  /** Fake API key given to the CLI (never a real one). */
  apiKey: string;
}

export interface HomeOptions {
  /** Mock server base URL, e.g. http://127.0.0.1:43123 (no trailing /v1). */
  baseUrl: string;
  /** Directory to create the run in (default: a fresh mkdtemp under /tmp). */
  runDir?: string;
  /** Where the pinned CLIs are installed (default: <repo>/.agents, or $AGENTLENS_AGENTS_DIR). */
  agentsDir?: string;
  /** Path of the CLI executable, overrides agentsDir. */
  bin?: string;
  /** Install hook / plugin loggers (default true). */
  hooks?: boolean;
  /** Extra env vars (override the defaults). */
  env?: Record<string, string>;
  /** Extra CLI arguments. */
  args?: string[];
  /** Leave the project folder untrusted, so the CLI asks at start (Claude's folder trust, Codex's "Folder access"). */
  untrusted?: boolean;
  /** Codex: leave the user-level hooks untrusted, so the TUI opens "Hooks need review" at start. */
  untrustedHooks?: boolean;
  /** Gemini: leave the first-start nudges on (in VS Code: "connect IDE", then the terminal keybinding setup). */
  firstStart?: boolean;
  /** pi: example extensions from the installed package to enable (e.g. `permission-gate`, which asks before `rm -rf`). */
  piExtensions?: string[];
  /** TERM_PROGRAM to advertise (default 'vscode'). */
  termProgram?: string;
  /** Files to create in the project dir (relative path → content; a trailing '/' makes a directory). */
  files?: Record<string, string>;
  /** Make the project dir a git repo with one commit (default: codex/opencode true, claude false). */
  git?: boolean;
}

/** Find <repo>/.agents: $AGENTLENS_AGENTS_DIR, else walk up from cwd and from this file. */
export function findAgentsDir(): string {
  if (process.env.AGENTLENS_AGENTS_DIR) return process.env.AGENTLENS_AGENTS_DIR;
  const starts = [process.cwd(), __dirname];
  for (const s of starts) {
    let d = path.resolve(s);
    for (;;) {
      if (fs.existsSync(path.join(d, '.agents')) && fs.existsSync(path.join(d, 'package.json'))) return path.join(d, '.agents');
      const up = path.dirname(d);
      if (up === d) break;
      d = up;
    }
  }
  throw new Error('cannot find the .agents directory: run scripts/agents/install.sh or set AGENTLENS_AGENTS_DIR');
}

export function agentBin(agent: AgentName, agentsDir?: string): string {
  const p = path.join(agentsDir ?? findAgentsDir(), BIN_REL[agent]);
  if (!fs.existsSync(p)) throw new Error(`${agent} is not installed at ${p}: run scripts/agents/install.sh`);
  return p;
}

/** Source of the hook logger: `node hook-logger.cjs <log.jsonl> <Event>`; reads the payload from stdin. */
const HOOK_LOGGER = `'use strict';
// Agent Lens harness hook logger: appends {logged_at_ms, argv_event, pid, ppid, payload} to argv[2].
// Prints nothing, always exits 0.
const fs = require('fs');
const file = process.argv[2] || process.env.AGENTLENS_HOOK_LOG;
const ev = process.argv[3] || '';
let data = '';
let done = false;
function finish() {
  if (done) return; done = true;
  let payload = data;
  try { payload = data.trim() ? JSON.parse(data) : null; } catch (e) {}
  try { if (file) fs.appendFileSync(file, JSON.stringify({ logged_at_ms: Date.now(), argv_event: ev, pid: process.pid, ppid: process.ppid, payload }) + '\\n'); } catch (e) {}
  process.exit(0);
}
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => { data += c; });
process.stdin.on('end', finish);
process.stdin.on('error', finish);
setTimeout(finish, 3000).unref();
`;

export function baseEnv(o: HomeOptions, home: string, runId: string): Record<string, string> {
  const nodeDir = path.dirname(process.execPath);
  const pathVar = [nodeDir, '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin']
    .filter((v, i, a) => a.indexOf(v) === i)
    .join(':');
  return {
    PATH: pathVar,
    HOME: home,
    USER: os.userInfo().username,
    LOGNAME: os.userInfo().username,
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TERM: 'xterm-256color',
    COLORTERM: 'truecolor',
    TERM_PROGRAM: o.termProgram ?? 'vscode',
    TERM_PROGRAM_VERSION: '1.107.0',
    TMPDIR: '/tmp',
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_STATE_HOME: path.join(home, '.local/state'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    NO_UPDATE_NOTIFIER: '1',
    AGENTLENS_RUN_ID: runId,
  };
}

export function makeRun(agent: AgentName, o: HomeOptions, defaultGit: boolean) {
  const runDir = o.runDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `alrun-${agent}-`));
  fs.mkdirSync(runDir, { recursive: true });
  const home = path.join(runDir, 'home');
  const cwd = path.join(runDir, 'demo-app');
  for (const d of [
    home,
    cwd,
    path.join(home, '.config'),
    path.join(home, '.local/share'),
    path.join(home, '.local/state'),
    path.join(home, '.cache'),
  ])
    fs.mkdirSync(d, { recursive: true });
  const files = o.files ?? DEFAULT_FILES;
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(cwd, rel);
    if (rel.endsWith('/')) fs.mkdirSync(p, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, content);
    }
  }
  if (o.git ?? defaultGit) {
    const genv = {
      ...process.env,
      GIT_AUTHOR_NAME: 'demo',
      GIT_AUTHOR_EMAIL: 'demo@example.invalid',
      GIT_COMMITTER_NAME: 'demo',
      GIT_COMMITTER_EMAIL: 'demo@example.invalid',
      GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
      GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
      HOME: home,
    };
    try {
      execFileSync('git', ['init', '-q', '-b', 'main'], { cwd, env: genv });
      execFileSync('git', ['add', '-A'], { cwd, env: genv });
      execFileSync('git', ['commit', '-q', '-m', 'initial'], { cwd, env: genv });
    } catch {
      /* git missing: fine */
    }
  }
  const hooksDir = path.join(runDir, 'harness');
  fs.mkdirSync(hooksDir, { recursive: true });
  const logger = path.join(hooksDir, 'hook-logger.cjs');
  fs.writeFileSync(logger, HOOK_LOGGER);
  const hooksLog = path.join(runDir, 'hooks.jsonl');
  fs.writeFileSync(hooksLog, '');
  const runId = `${agent}-${path.basename(runDir)}-${process.pid}`;
  return { runDir, home, cwd, logger, hooksLog, runId };
}

/** The home a builder made: its run folder, the CLI to spawn (`o.bin` overrides the installed one) and its fake key. */
export function homeResult(
  agent: AgentName,
  o: HomeOptions,
  r: ReturnType<typeof makeRun>,
  env: Record<string, string>,
  apiKey: string,
  args: string[] = o.args ?? [],
): AgentHome {
  return {
    agent,
    runDir: r.runDir,
    home: r.home,
    cwd: r.cwd,
    env,
    command: o.bin ?? agentBin(agent, o.agentsDir),
    args,
    hooksLog: r.hooksLog,
    runId: r.runId,
    apiKey,
  };
}

export const DEFAULT_FILES: Record<string, string> = {
  'README.md': '# demo-app\n\nA tiny demo project used by the Agent Lens recording harness.\n',
  'notes.txt': 'remember to write tests\n',
  'src/index.js': "console.log('hello from demo-app');\n",
  'build/output.txt': 'build artefact\n',
};

/** PIDs of all live processes whose environment carries AGENTLENS_RUN_ID=<runId> (the CLI and every descendant, daemons included). */
export function findRunProcesses(runId: string): number[] {
  const needle = Buffer.from(`AGENTLENS_RUN_ID=${runId}\0`);
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    try {
      const env = fs.readFileSync(`/proc/${pid}/environ`);
      if (env.includes(needle)) out.push(pid);
    } catch {
      /* gone or not ours */
    }
  }
  return out;
}

/** Kill every process of a run (SIGTERM, then SIGKILL after graceMs). Returns what was found, with cmdlines. */
export async function killRunProcesses(runId: string, graceMs = 1500): Promise<Array<{ pid: number; cmdline: string }>> {
  const pids = findRunProcesses(runId);
  const found = pids.map((pid) => {
    let cmdline = '';
    try {
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    } catch {
      /* gone */
    }
    return { pid, cmdline };
  });
  for (const { pid } of found) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
  const end = Date.now() + graceMs;
  while (Date.now() < end && findRunProcesses(runId).length) await new Promise((r) => setTimeout(r, 100));
  for (const pid of findRunProcesses(runId)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  return found;
}
