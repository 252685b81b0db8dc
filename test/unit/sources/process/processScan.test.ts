/**
 * The process source (src/sources/process/processScan.ts) against real processes: a shell whose child calls itself
 * claude is found with its pid and folder, the agent's exit is reported, and nothing is looked at while no
 * terminal needs it.
 */
import * as assert from 'assert';
import { type ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import { SILENT } from '../../../../src/common/log';
import { hostPlatform } from '../../../../src/common/platform';
import { type FoundAgent, ProcessScan } from '../../../../src/sources/process/processScan';
import { until } from '../../victimTree';

describe('process source: the agent in each watched terminal’s process tree', function () {
  this.timeout(30_000);
  let shell: ChildProcess;
  let scan: ProcessScan;
  const dir = fs.realpathSync(fs.mkdtempSync(`${os.tmpdir()}/al-scan-`));
  afterEach(() => {
    scan?.dispose();
    shell?.kill('SIGKILL');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  before(function () {
    // Windows's reader (PowerShell's CIM query) cannot run here (tested on recorded tables: windows.test.ts); forced
    // to darwin, the scan runs the macOS readers against this machine's ps and lsof.
    if (hostPlatform() === 'win32') this.skip();
  });

  it('finds the agent below the shell with its folder, then reports it gone', async () => {
    // The shell's child is a program named claude, working in `dir`, as a user's agent would.
    fs.copyFileSync('/bin/sleep', `${dir}/claude`);
    fs.chmodSync(`${dir}/claude`, 0o755);
    shell = spawn('bash', ['-c', `cd ${dir} && ./claude 30 & wait`], { stdio: 'ignore' });
    const seen: (FoundAgent | undefined)[] = [];
    scan = new ProcessScan({
      intervalSeconds: () => 0.05,
      targets: () => [{ id: 't1', shellPid: async () => shell.pid, wanted: () => true }],
      found: (id, f) => void (id === 't1' && seen.push(f)),
      log: SILENT,
    });
    scan.soon();
    assert.ok(await until(() => seen.some((f) => f?.agent === 'claude-code'), 10_000), 'the agent was not found');
    const f = seen.find((x) => x?.agent === 'claude-code')!;
    assert.match(f.evidence, /process .* \(pid \d+\)/);
    if (process.platform === 'linux') assert.strictEqual(f.cwd, dir);
    process.kill(f.pid, 'SIGKILL');
    assert.ok(await until(() => seen.at(-1) === undefined && seen.length > 1, 10_000), 'the agent’s exit was not reported');
  });

  it('looks at nothing while no terminal needs it, nor with the interval at 0', async () => {
    let asked = 0;
    let wanted = false;
    scan = new ProcessScan({
      intervalSeconds: () => (wanted ? 0 : 0.02),
      targets: () => (wanted ? [{ id: 't1', shellPid: async () => process.pid, wanted: () => true }] : []),
      found: () => void asked++,
      log: SILENT,
    });
    scan.reschedule();
    await new Promise((r) => setTimeout(r, 200));
    wanted = true;
    scan.reschedule();
    await new Promise((r) => setTimeout(r, 200));
    assert.strictEqual(asked, 0, 'no terminal to look at, then an interval of 0: no look');
    scan.soon();
    assert.ok(await until(() => asked === 1, 10_000), `one look when asked, got ${asked}`);
  });
});
