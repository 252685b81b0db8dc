import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { descendants, findAgent, parseProcStat, parsePs, parseWindowsJson, processesUnder, ttySize } from '../../src/process/processTree';

describe('process tree', () => {
  it('parses ps output (macOS) and Windows CIM JSON', () => {
    const ps = parsePs('  1     0 /sbin/launchd /sbin/launchd\n 500   1 -zsh -zsh\n 600 500 node node /usr/local/lib/node_modules/@openai/codex/bin/codex.js\n');
    assert.strictEqual(findAgent(descendants(ps, 500))?.agent, 'codex');
    const win = parseWindowsJson(JSON.stringify([{ ProcessId: 10, ParentProcessId: 1, Name: 'pwsh.exe', CommandLine: 'pwsh' }, { ProcessId: 11, ParentProcessId: 10, Name: 'opencode.exe', CommandLine: '"C:\\tools\\opencode.exe"' }]));
    assert.strictEqual(findAgent(descendants(win, 10))?.agent, 'opencode');
  });

  it('parses /proc stat lines whose comm has spaces and parentheses', () => {
    assert.deepStrictEqual(parseProcStat('123 (my (odd) name) S 77 123 123 0 -1'), { ppid: 77, comm: 'my (odd) name' });
  });

  it('finds a real agent-named process under a real shell (Linux /proc)', async function () {
    if (process.platform !== 'linux') this.skip();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-proc-'));
    // A stand-in executable named like the agent: the scan keys on the executable name.
    fs.symlinkSync('/bin/sleep', path.join(dir, 'claude'));
    const sh = spawn('bash', ['-c', `"${dir}/claude" 30 & wait`], { stdio: 'ignore' });
    try {
      let found;
      for (let i = 0; i < 50 && !found; i++) {
        await new Promise((r) => setTimeout(r, 50));
        found = findAgent(await processesUnder(sh.pid!));
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
