import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, ARTIFACTS, ROOT, shellTerminal, sleep, stateOf, waitFor } from './util';

const FAKE_BIN = path.join(ROOT, 'test', 'e2e', 'fake-agent');
const CASTS = ['claude-code/04-bash-permission-approve', 'claude-code/10-multiturn-write-exit', 'codex/04-approval-approve', 'codex/09-multi-step-quit', 'opencode/04-permission-approve'];

/** Ten terminals playing agent recordings at real speed: CPU and memory of the extension, printed. */
describe('performance with 10 agent terminals', function () {
  this.timeout(240_000);

  it('measures CPU of the extension host and of the detector while 10 recordings play', async () => {
    const a = await api();
    const terminals: vscode.Terminal[] = [];
    for (let i = 0; i < 10; i++) {
      const cast = path.join(ROOT, 'test', 'fixtures', 'recordings', CASTS[i % CASTS.length], 'session.cast');
      terminals.push(await shellTerminal(`perf ${i + 1}`, { PATH: `${FAKE_BIN}:${process.env.PATH}`, AGENT_LENS_FAKE_CAST: cast }));
    }
    const heap0 = process.memoryUsage().heapUsed;
    const stats0 = a.stats();
    const cpu0 = process.cpuUsage();
    const wall0 = Date.now();
    for (const t of terminals) t.shellIntegration!.executeCommand('claude');
    await waitFor('all terminals identified', () => terminals.every((t) => stateOf(a, t)?.agent !== 'shell'), 30_000);
    const heapPlaying = process.memoryUsage().heapUsed;
    await sleep(35_000);
    const cpu = process.cpuUsage(cpu0);
    const wall = Date.now() - wall0;
    const stats = a.stats();
    const hostPct = ((cpu.user + cpu.system) / 1000 / wall) * 100;
    const detectorPct = ((stats.ms - stats0.ms) / wall) * 100;
    const report = {
      terminals: terminals.length,
      wallMs: wall,
      extensionHostCpuPercentOfOneCore: Number(hostPct.toFixed(2)),
      detectorCpuPercentOfOneCore: Number(detectorPct.toFixed(3)),
      chunks: stats.chunks - stats0.chunks,
      chars: stats.chars - stats0.chars,
      heapDeltaPerTerminalKB: Number(((heapPlaying - heap0) / 1024 / terminals.length).toFixed(1)),
      activationMs: Number(a.activationMs.toFixed(1)),
    };
    console.log(`    perf: ${JSON.stringify(report)}`);
    console.log(`    extension host CPU ${report.extensionHostCpuPercentOfOneCore}% of one core (includes VS Code's own terminal RPC); Agent Lens detector ${report.detectorCpuPercentOfOneCore}% (goal ≤ 2%)`);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(path.join(ARTIFACTS, 'perf.json'), JSON.stringify(report, null, 2));
    assert.ok(report.chunks > 100, `only ${report.chunks} chunks were read: the terminals did not stream`);
    for (const t of terminals) t.dispose();
  });
});
