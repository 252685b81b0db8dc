import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { hookCommand } from '../../../src/integrations/commands';
import { HOOK_SHELLS } from '../../../src/integrations/hookShells';
import type { ReportingAgent } from '../../../src/hooks/report';

/**
 * The POSIX hook lines run for real in every shell an agent may run them in on macOS and Linux (src/integrations/
 * hookShells.ts): dash (Debian's /bin/sh, droid's and Claude Code's `sh -c`), bash (Gemini CLI, Qwen Code, Copilot
 * CLI, Codex's `bash -lc`), zsh (Codex on macOS: `$SHELL -lc`) and busybox sh, each in the flags the agent passes.
 * A fake reporter at a hostile path records what it received: its arguments exactly, its parent (`exec` keeps the
 * agent as the parent, which names the wait marker) and the bytes of stdin it read. Whatever the case, the line
 * prints nothing and exits 0, and a stdin larger than a pipe's buffer is read to its end (the agent never meets
 * a closed pipe). The shells are the machine's: CI installs zsh and busybox (`apt-get install -y zsh busybox`).
 */

const SHELLS: readonly { name: string; argv: (line: string) => string[] }[] = [
  { name: 'dash', argv: (l) => ['dash', '-c', l] },
  { name: 'bash', argv: (l) => ['bash', '-c', l] },
  { name: 'bash', argv: (l) => ['bash', '-lc', l] },
  { name: 'zsh', argv: (l) => ['zsh', '-c', l] },
  { name: 'zsh', argv: (l) => ['zsh', '-lc', l] },
  { name: 'busybox', argv: (l) => ['busybox', 'sh', '-c', l] },
];

const present = (name: string): boolean => spawnSync(name, name === 'busybox' ? ['sh', '-c', 'exit 0'] : ['-c', 'exit 0']).status === 0;

/** Folder names a home can have, each a hazard for some quoting: spaces, both quotes, $, `, \, glob, ;, &, |, newline, CJK. */
const HOSTILE = ['it\'s "q" $HOME `id` \\n *?[a]', '张三 ; & | -x', 'line\nbreak', '  lead and trail  '];

let dir: string;
let stdinBig: Buffer;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-posix-lines-'));
  // Over any pipe buffer (64 KiB on Linux, 16–64 KiB on macOS): a line that left stdin unread would break the pipe.
  stdinBig = Buffer.alloc(1024 * 1024, 'x');
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A reporter at `<home>/bin/agent-lens-report` that records its argv (NUL-separated), its $PPID and stdin's length. */
function fakeReporter(home: string): string {
  const bin = path.join(home, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  const file = path.join(bin, 'agent-lens-report');
  fs.writeFileSync(
    file,
    '#!/bin/sh\nprintf \'%s\\0\' "$@" > "$REC.args"\nprintf %s "$PPID" > "$REC.ppid"\nwc -c | tr -d " " > "$REC.stdin"\n',
    { mode: 0o755 },
  );
  return file;
}

interface Run {
  code: number | null;
  stdout: string;
  error?: Error;
  ran: boolean;
  args?: string[];
  ppid?: number;
  stdinBytes?: number;
}

function runLine(argv: string[], env: NodeJS.ProcessEnv, rec: string): Run {
  for (const f of ['args', 'ppid', 'stdin']) fs.rmSync(`${rec}.${f}`, { force: true });
  const r = spawnSync(argv[0], argv.slice(1), {
    input: stdinBig,
    env: { PATH: process.env.PATH, HOME: dir, REC: rec, ...env },
    timeout: 20_000,
  });
  const ran = fs.existsSync(`${rec}.args`);
  return {
    code: r.status,
    stdout: r.stdout.toString(),
    ...(r.error ? { error: r.error } : {}),
    ran,
    ...(ran
      ? {
          args: fs.readFileSync(`${rec}.args`, 'utf8').split('\0').slice(0, -1),
          ppid: Number(fs.readFileSync(`${rec}.ppid`, 'utf8')),
          stdinBytes: Number(fs.readFileSync(`${rec}.stdin`, 'utf8')),
        }
      : {}),
  };
}

describe('POSIX hook lines in dash, bash, zsh and busybox sh: exact arguments, silent, exit 0', function () {
  this.timeout(120_000);

  it('every agent runs POSIX lines off Windows (the table the lines are written for)', () => {
    for (const [agent, s] of Object.entries(HOOK_SHELLS)) assert.strictEqual(s.posix.shell, 'posix', agent);
  });

  for (const shell of SHELLS) {
    const label = shell.argv('…').slice(0, -1).join(' ');
    it(`${label}: plain and gated lines, gate open, gate closed, no hub`, function () {
      if (process.platform === 'win32') this.skip(); // real POSIX shells: this host has none
      if (!present(shell.name)) {
        console.log(`      (skipped: ${shell.name} is not installed here; CI installs it)`);
        this.skip();
      }
      HOSTILE.forEach((name, i) => {
        const home = path.join(dir, `${shell.name}-${i}`, name, '.agent-lens');
        const reporter = fakeReporter(home);
        const hubs = path.join(dir, `${shell.name}-${i}`, name, 'hubs 张');
        fs.mkdirSync(path.join(hubs, 'waiting'), { recursive: true });
        const hub = { AGENT_LENS_HUB: path.join(hubs, 'window.json') };
        const rec = path.join(dir, `rec-${shell.name}-${i}`);
        const agent: ReportingAgent = i % 2 ? 'codex' : 'claude-code';
        const marker = path.join(hubs, 'waiting', String(process.pid));
        const cases: { line: string; env: NodeJS.ProcessEnv; runs: boolean; what: string }[] = [
          { line: hookCommand(reporter, agent, false), env: hub, runs: true, what: 'plain' },
          { line: hookCommand(reporter, agent, false), env: {}, runs: true, what: 'plain, no hub (the wrapper gates)' },
          { line: hookCommand(reporter, agent, true), env: hub, runs: true, what: 'gated, a wait open' },
          { line: hookCommand(reporter, agent, true), env: hub, runs: false, what: 'gated, no wait' },
          { line: hookCommand(reporter, agent, true), env: {}, runs: false, what: 'gated, no hub' },
        ];
        for (const c of cases) {
          if (c.what === 'gated, a wait open') fs.writeFileSync(marker, '');
          else fs.rmSync(marker, { force: true });
          const r = runLine(shell.argv(c.line), c.env, rec);
          const where = `${label} ${c.what} ${JSON.stringify(name)}`;
          assert.strictEqual(r.error, undefined, `${where}: ${r.error?.message}`);
          assert.deepStrictEqual([r.code, r.stdout], [0, ''], where);
          assert.strictEqual(r.ran, c.runs, where);
          if (!c.runs) continue;
          assert.deepStrictEqual(r.args, [agent], `${where}: the reporter's arguments`);
          // exec: no shell stays between the agent (this process) and the reporter.
          assert.strictEqual(r.ppid, process.pid, `${where}: the reporter's parent`);
          assert.strictEqual(r.stdinBytes, stdinBig.length, `${where}: the hook's stdin, whole`);
        }
      });
    });
  }
});
