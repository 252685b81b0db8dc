/**
 * Which of two processes started first, from the kernel (src/sources/process/startTicks.ts): how the adapter tells a
 * terminal revived after a reload (its shell older than the extension host) from one opened since.
 */
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startedBefore, startTicks } from '../../../../src/sources/process/startTicks';

describe('process start order, from /proc', () => {
  it('this process started before a child it spawns, and not the other way round', async () => {
    await new Promise((r) => setTimeout(r, 20));
    const child = spawn('sleep', ['5'], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 50));
      assert.strictEqual(startedBefore(process.pid, child.pid!), true);
      assert.strictEqual(startedBefore(child.pid!, process.pid), false);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('reads field 22 after the last ")" (a command name may hold ") "), and cannot tell for a process that is gone', () => {
    const proc = fs.mkdtempSync(path.join(os.tmpdir(), 'al-proc-'));
    const stat = (pid: number, comm: string, ticks: number) => {
      fs.mkdirSync(path.join(proc, String(pid)));
      const fields = ['S', '1', String(pid), String(pid), '0', '-1', '4194560', ...Array(12).fill('0'), String(ticks), '1000'];
      fs.writeFileSync(path.join(proc, String(pid), 'stat'), `${pid} (${comm}) ${fields.join(' ')}\n`);
    };
    stat(10, 'a) S 1 2 (b', 500);
    stat(11, 'bash', 900);
    assert.strictEqual(startTicks(10, proc), 500);
    assert.deepStrictEqual(
      [startedBefore(10, 11, proc), startedBefore(11, 10, proc), startedBefore(10, 12, proc)],
      [true, false, undefined],
    );
    fs.rmSync(proc, { recursive: true });
  });
});
