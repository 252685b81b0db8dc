import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { descendants, findAgent, parseProcStat, parsePs, processesUnder, ttySize } from '../../../../src/sources/process/processTree';
import { AgentCensus } from '../../../../src/sources/process/agentCensus';
import { parseCimProcesses } from '../../../../src/sources/process/windows';
import { onLinux } from '../../../../src/common/platform';

describe('process tree', () => {
  it('parses ps output (macOS) and Windows CIM JSON', () => {
    const ps = parsePs(
      [
        '    1     0     1    0 ??       launchd          /sbin/launchd',
        '  500     1   500  600 ttys000  zsh              -zsh',
        '  600   500   600  600 ttys000  node             node /usr/local/lib/node_modules/@openai/codex/bin/codex.js',
      ].join('\n'),
    );
    assert.strictEqual(findAgent(descendants(ps, 500))?.agent, 'codex');
    const win = parseCimProcesses(
      JSON.stringify([
        { ProcessId: 10, ParentProcessId: 1, Name: 'pwsh.exe', CommandLine: 'pwsh' },
        { ProcessId: 11, ParentProcessId: 10, Name: 'opencode.exe', CommandLine: '"C:\\tools\\opencode.exe"' },
      ]),
    );
    assert.strictEqual(findAgent(descendants(win, 10))?.agent, 'opencode');
  });

  it('parses /proc stat lines whose comm has spaces and parentheses', () => {
    assert.deepStrictEqual(parseProcStat('123 (my (odd) name) S 77 123 123 0 -1'), { ppid: 77, comm: 'my (odd) name' });
  });

  it('finds a real agent-named process under a real shell (Linux /proc)', async function () {
    if (!onLinux()) this.skip(); // real processes: /proc, read only when the readers see Linux
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-proc-'));
    // A stand-in executable named like the agent: the scan keys on the executable name.
    fs.symlinkSync('/bin/sleep', path.join(dir, 'claude'));
    const sh = spawn('bash', ['-c', `"${dir}/claude" 30 & wait`], { stdio: 'ignore' });
    try {
      let found;
      for (let i = 0; i < 50 && !found; i++) {
        await new Promise((r) => setTimeout(r, 50));
        found = findAgent(await processesUnder(sh.pid!, 'linux'));
      }
      assert.strictEqual(found?.agent, 'claude-code');
      assert.match(found!.evidence, /claude/);
    } finally {
      sh.kill('SIGKILL');
      spawn('pkill', ['-f', `${dir}/claude`]);
    }
  });

  it('reads no size for a process without a terminal', async () => {
    assert.strictEqual(await ttySize(process.pid === 1 ? 2 : 999_999_999), undefined);
  });
});

describe('agent census (how many sessions of an agent run in a folder)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'census-'));
  const proc = (pid: number, ppid: number, comm: string, args: string[], cwd: string) => {
    const d = path.join(root, String(pid));
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, 'stat'), `${pid} (${comm}) S ${ppid} 0 0 0`);
    fs.writeFileSync(path.join(d, 'cmdline'), args.join('\0') + '\0');
    fs.symlinkSync(cwd, path.join(d, 'cwd'));
  };
  proc(100, 1, 'bash', ['/bin/bash'], '/p/a');
  proc(101, 100, 'node', ['node', '/usr/lib/node_modules/npm/bin/npx-cli.js', '@anthropic-ai/claude-code'], '/p/a');
  proc(102, 101, 'sh', ['sh', '-c', 'claude'], '/p/a');
  proc(103, 102, 'claude', ['claude'], '/p/a');
  proc(200, 1, 'claude', ['claude', '--resume'], '/p/a');
  proc(300, 1, 'codex', ['codex'], '/p/b');
  proc(301, 1, 'codex', ['/home/u/.codex/packages/bin/codex', 'app-server', '--listen', 'unix://'], '/p/b');
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('counts a launcher and the program it starts once, helpers not at all', () => {
    const c = new AgentCensus(root, 'linux');
    assert.strictEqual(c.count('claude-code', '/p/a'), 2);
    assert.strictEqual(c.count('codex', '/p/b'), 1);
    assert.strictEqual(c.count('codex', '/p/a'), 0);
  });

  it('cannot tell on Windows, and never reads /proc off Linux (macOS: darwinReaders.test.ts)', () => {
    assert.strictEqual(new AgentCensus(root, 'win32').count('claude-code', '/p/a'), undefined);
    assert.strictEqual(
      new AgentCensus(root, 'darwin', { table: () => Promise.reject(new Error('no ps')), cwds: async () => new Map() }).count(
        'claude-code',
        '/p/a',
      ),
      undefined,
    );
  });
});
