import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as vscode from 'vscode';
import { api, ARTIFACTS, ROOT, screenshot, shellTerminal, sleep, stateOf, waitFor } from './util';

const FAKE_BIN = path.join(ROOT, 'test', 'e2e', 'fake-agent');
const CASTS = [
  'claude-code/04-bash-permission-approve',
  'claude-code/10-multiturn-write-exit',
  'codex/04-approval-approve',
  'codex/09-multi-step-quit',
  'opencode/04-permission-approve',
];

/** Ten terminals playing agent recordings at real speed: CPU and memory of the extension, printed. */
describe('performance with 10 agent terminals', function () {
  this.timeout(240_000);

  it('measures CPU of the extension host and of the detector while 10 recordings play', async () => {
    const a = await api();
    // Baseline: the same output under a name Agent Lens does not read ("player"), so the extension host
    // does only VS Code's own work for 10 streaming terminals.
    const playerBin = fs.mkdtempSync(path.join(os.tmpdir(), 'al-player-'));
    fs.symlinkSync(path.join(FAKE_BIN, 'claude'), path.join(playerBin, 'player'));
    const base: vscode.Terminal[] = [];
    for (let i = 0; i < 10; i++) {
      const cast = path.join(ROOT, 'test', 'fixtures', 'recordings', CASTS[i % CASTS.length], 'session.cast');
      base.push(await shellTerminal(`baseline ${i + 1}`, { PATH: `${playerBin}:${process.env.PATH}`, AGENT_LENS_FAKE_CAST: cast }));
    }
    for (const t of base) t.shellIntegration!.executeCommand('player');
    await sleep(3000);
    const baseCpu0 = process.cpuUsage();
    const baseWall0 = Date.now();
    await sleep(20_000);
    const baseCpu = process.cpuUsage(baseCpu0);
    const baselinePct = Number((((baseCpu.user + baseCpu.system) / 1000 / (Date.now() - baseWall0)) * 100).toFixed(3));
    assert.ok(
      base.every((t) => stateOf(a, t)?.agent === 'shell'),
      'the baseline terminals must not be read',
    );
    for (const t of base) t.dispose();
    await sleep(2000);

    // The fake player under each recorded agent's own command name, so every terminal reads as its agent.
    const agentBin = fs.mkdtempSync(path.join(os.tmpdir(), 'al-agents-'));
    for (const name of ['claude', 'codex', 'opencode']) fs.symlinkSync(path.join(FAKE_BIN, 'claude'), path.join(agentBin, name));
    const COMMAND: Record<string, string> = { 'claude-code': 'claude', codex: 'codex', opencode: 'opencode' };
    const terminals: vscode.Terminal[] = [];
    const commands: string[] = [];
    for (let i = 0; i < 10; i++) {
      const rec = CASTS[i % CASTS.length];
      const cast = path.join(ROOT, 'test', 'fixtures', 'recordings', rec, 'session.cast');
      commands.push(COMMAND[rec.split('/')[0]]);
      terminals.push(
        await shellTerminal(`perf ${i + 1} (${rec.split('/')[0]})`, {
          PATH: `${agentBin}:${process.env.PATH}`,
          AGENT_LENS_FAKE_CAST: cast,
        }),
      );
    }
    const heap0 = process.memoryUsage().heapUsed;
    const stats0 = a.stats();
    const cpu0 = process.cpuUsage();
    const wall0 = Date.now();
    terminals.forEach((t, i) => t.shellIntegration!.executeCommand(commands[i]));
    await waitFor('all terminals identified', () => terminals.every((t) => stateOf(a, t)?.agent !== 'shell'), 30_000);
    const heapPlaying = process.memoryUsage().heapUsed;
    // Steady state: after start-up (emulators created, code warmed up), over the next 30 s of playback.
    await sleep(3000);
    const statsSteady0 = a.stats();
    const cpuSteady0 = process.cpuUsage();
    const wallSteady0 = Date.now();
    await sleep(12_000);
    await screenshot('ten-agents');
    await sleep(18_000);
    const cpuSteady = process.cpuUsage(cpuSteady0);
    const wallSteady = Date.now() - wallSteady0;
    const cpu = process.cpuUsage(cpu0);
    const wall = Date.now() - wall0;
    const stats = a.stats();
    const pct = (ms: number, over: number) => Number(((ms / over) * 100).toFixed(3));
    const report = {
      terminals: terminals.length,
      wallMs: wall,
      extensionHostCpuPercentOfOneCore: pct((cpu.user + cpu.system) / 1000, wall),
      detectorCpuPercentOfOneCore: pct(stats.ms - stats0.ms, wall),
      steadyWallMs: wallSteady,
      steadyExtensionHostCpuPercentOfOneCore: pct((cpuSteady.user + cpuSteady.system) / 1000, wallSteady),
      steadyDetectorCpuPercentOfOneCore: pct(stats.ms - statsSteady0.ms, wallSteady),
      chunks: stats.chunks - stats0.chunks,
      chars: stats.chars - stats0.chars,
      baselineExtensionHostCpuPercentOfOneCore: baselinePct,
      detectorMsPerChunk: Number(((stats.ms - stats0.ms) / Math.max(1, stats.chunks - stats0.chunks)).toFixed(3)),
      heapDeltaPerTerminalKB: Number(((heapPlaying - heap0) / 1024 / terminals.length).toFixed(1)),
      activationMs: Number(a.activationMs.toFixed(1)),
    };
    console.log(`    perf: ${JSON.stringify(report)}`);
    console.log(
      `    extension host CPU with the same 10 streams not read (baseline): ${baselinePct}%; read by Agent Lens: ${report.steadyExtensionHostCpuPercentOfOneCore}% → Agent Lens adds ${(report.steadyExtensionHostCpuPercentOfOneCore - baselinePct).toFixed(2)}%`,
    );
    console.log(
      `    extension host CPU ${report.extensionHostCpuPercentOfOneCore}% of one core over the whole run, ${report.steadyExtensionHostCpuPercentOfOneCore}% in steady state (both include VS Code's own terminal RPC); Agent Lens detector ${report.detectorCpuPercentOfOneCore}% / ${report.steadyDetectorCpuPercentOfOneCore}% (goal ≤ 2%)`,
    );
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(path.join(ARTIFACTS, 'perf.json'), JSON.stringify(report, null, 2));
    assert.ok(report.chunks > 100, `only ${report.chunks} chunks were read: the terminals did not stream`);
    for (const t of terminals) t.dispose();
  });
});
