import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { COMMAND_IDS } from '../../../src/views/commandIds';
import { api, ARTIFACTS, stableApi, ROOT, screenshot, shellTerminal, sleep, stateOf, transitions, waitFor, waitState } from './util';

const FAKE_BIN = path.join(ROOT, 'test', 'e2e', 'fake-agent');
const rec = (agent: string, scenario: string) => path.join(ROOT, 'test', 'fixtures', 'recordings', agent, scenario, 'session.cast');

describe('Agent Lens in a real VS Code', function () {
  this.timeout(180_000);

  after(async () => {
    for (const t of vscode.window.terminals) t.dispose();
  });

  it('activates, measures its activation and exports its API (the figures are printed, never asserted)', async () => {
    const a = await api();
    const stable = await stableApi();
    assert.strictEqual(stable.apiVersion, 1);
    for (const f of ['terminals', 'waits', 'terminalId', 'onDidChangeTerminal'] as const)
      assert.strictEqual(typeof stable[f], 'function', f);
    // Every command of the table (checked against package.json by a unit test) has its handler registered.
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepStrictEqual(
      Object.values(COMMAND_IDS).filter((id) => !registered.has(id)),
      [],
    );
    assert.ok(
      a.activationMs > 0 && Number.isFinite(a.activationMs) && a.activationCpuMs > 0,
      `activation measured: ${a.activationMs} ms, ${a.activationCpuMs} ms CPU`,
    );
    console.log(`    activation: ${a.activationMs.toFixed(1)} ms wall, ${a.activationCpuMs.toFixed(1)} ms CPU (goal ≤ 50 ms)`);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(
      path.join(ARTIFACTS, 'activation.json'),
      JSON.stringify({ activationMs: a.activationMs, activationCpuMs: a.activationCpuMs }),
    );
  });

  it('a plain shell command stays a shell', async () => {
    const a = await api();
    const t = await shellTerminal('plain');
    const seen = transitions(a, t);
    t.shellIntegration!.executeCommand('ls -la / && echo "Claude Code ✻ Worked for 3s" && echo done');
    await sleep(2500);
    seen.dispose();
    assert.ok(
      seen.list.every((s) => s.startsWith('shell/')),
      `plain commands became ${seen.list.join(', ')}`,
    );
    assert.strictEqual(stateOf(a, t)?.agent, 'shell');
    t.dispose();
  });

  it('a fake agent playing a Claude Code recording: idle → working → waiting → working → stopped → exited, in the tree and status bar', async () => {
    const a = await api();
    const t = await shellTerminal(
      'fake claude',
      { PATH: `${FAKE_BIN}:${process.env.PATH}`, AGENT_LENS_FAKE_CAST: rec('claude-code', '04-bash-permission-approve') },
      vscode.TerminalLocation.Editor,
    );
    t.show();
    const seen = transitions(a, t);
    await vscode.workspace.getConfiguration('agentLens').update('notifications.delaySeconds', 2, vscode.ConfigurationTarget.Global);
    t.shellIntegration!.executeCommand('claude');
    await waitState(a, t, 'claude-code', 'working', 20_000);
    const waiting = await waitState(a, t, 'claude-code', 'waiting', 20_000);
    assert.strictEqual(waiting.waitKind, 'permission');
    assert.match(waiting.evidence, /Esc to cancel|Do you want to proceed/);
    // Another extension sees the same through the stable API (version 1), and the wait's id matches.
    const stable = await stableApi();
    const mine = stable.terminals().find((x) => x.id === stable.terminalId(t));
    assert.deepStrictEqual(mine && [mine.agent, mine.state, mine.waitKind, mine.name], [
      'claude-code',
      'waiting',
      'permission',
      'fake claude',
    ]);
    assert.ok(
      stable.waits().some((w) => w.id === mine!.waitId && w.terminalId === mine!.id && w.kind === 'permission'),
      JSON.stringify(stable.waits()),
    );
    const tree = a.ui.tree();
    const group = tree.find((i) => i.label.startsWith('Needs you'));
    assert.ok(group, `no "Needs you" group in ${JSON.stringify(tree)}`);
    const item = tree.find((i) => i.group === 'Needs you' && i.label === 'fake claude');
    assert.ok(item, `terminal not under "Needs you": ${JSON.stringify(tree)}`);
    assert.match(item!.description, /^Claude Code · waiting for approval · \d+s$/);
    assert.strictEqual(item!.icon, 'bell-dot');
    assert.strictEqual(item!.color, 'charts.orange');
    // The views are redrawn at most every 100 ms: the status bar follows the store a moment later.
    const bar = await waitFor(
      'the status bar to show the wait',
      () => {
        const b = a.ui.statusBar();
        return /Claude Code: waiting for approval/.test(b.active ?? '') ? b : undefined;
      },
      2000,
    );
    assert.match(bar.summary ?? '', /\$\(bell-dot\) 1/);
    assert.strictEqual(bar.summaryWarning, true);
    await screenshot('fake-claude-waiting');
    // Looking at another terminal: the dialog raises one notification after the (shortened) delay.
    const other = await shellTerminal('other');
    other.show();
    const note = await waitFor(
      'a notification for the waiting terminal',
      () => a.ui.notifications().find((n) => n.terminalId === a.terminalId(t)),
      8000,
    );
    assert.match(note.message, /Claude Code in “fake claude” is waiting for approval/);
    await sleep(3000);
    assert.strictEqual(a.ui.notifications().filter((n) => n.terminalId === a.terminalId(t)).length, 1, 'only once per wait');
    other.dispose();
    await vscode.workspace.getConfiguration('agentLens').update('notifications.delaySeconds', undefined, vscode.ConfigurationTarget.Global);
    await waitState(a, t, 'claude-code', 'stopped', 40_000);
    const doneItem = a.ui.tree().find((i) => i.label === 'fake claude');
    assert.match(doneItem!.description, /^Claude Code · stopped/);
    assert.strictEqual(doneItem!.icon, 'debug-stop');
    await waitState(a, t, 'claude-code', 'exited', 30_000);
    seen.dispose();

    // Record Terminal to .cast, then Replay Recording…: the saved stream replays to the same states.
    const castFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'al-rec-')), 'fake.cast');
    // As a user records: the terminal in front, the command run without a terminal id (a user has none).
    t.show();
    await waitFor('the agent terminal active', () => vscode.window.activeTerminal === t, 10_000);
    const saved = await vscode.commands.executeCommand<string>('agentLens.recordTerminal', undefined, castFile);
    assert.strictEqual(saved, castFile);
    const header = JSON.parse(fs.readFileSync(castFile, 'utf8').split('\n')[0]);
    assert.strictEqual(header.version, 2);
    assert.strictEqual(header.command, 'claude');
    await vscode.commands.executeCommand('agentLens.replayRecording', vscode.Uri.file(castFile));
    const doc = await waitFor(
      'the replay document',
      () => vscode.window.activeTextEditor?.document.getText().includes('"state"') && vscode.window.activeTextEditor!.document.getText(),
      10_000,
    );
    const replayed = doc
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l).state);
    for (const st of ['working', 'waiting', 'stopped', 'exited'])
      assert.ok(replayed.includes(st), `replayed states ${replayed.join(', ')} lack ${st}`);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    const order = seen.list.filter((s, i, arr) => arr.indexOf(s) === i || s !== arr[i - 1]);
    const want = [
      'claude-code/idle',
      'claude-code/working',
      'claude-code/waiting',
      'claude-code/working',
      'claude-code/stopped',
      'claude-code/exited',
    ];
    let k = 0;
    for (const s of order) if (s === want[k]) k++;
    assert.strictEqual(k, want.length, `transitions ${order.join(' → ')}`);
    t.dispose();
  });

  it('an agent in a command that is not read is found by the process scan (working/exited, source process)', async () => {
    const a = await api();
    const t = await shellTerminal('unread', {
      PATH: `${FAKE_BIN}:${process.env.PATH}`,
      AGENT_LENS_FAKE_CAST: rec('claude-code', '02-plain-text'),
      AGENT_LENS_FAKE_SPEED: '6',
    });
    // `sh -c …` names no agent, alias or script: Agent Lens does not read it.
    t.shellIntegration!.executeCommand('sh -c claude');
    const w = await waitState(a, t, 'claude-code', 'working', 15_000);
    assert.strictEqual(w.source, 'process');
    assert.match(w.evidence, /process .*\(pid \d+\)/);
    const x = await waitState(a, t, 'claude-code', 'exited', 40_000);
    // Whichever sees the end first: the command's end (shell integration) or the next scan.
    assert.ok(
      (x.source === 'command' && /^command ended/.test(x.evidence)) || (x.source === 'process' && /is gone/.test(x.evidence)),
      `${x.source}: ${x.evidence}`,
    );
    t.dispose();
  });

  it('a wrapper script that starts the agent is read too (read policy rule 3)', async () => {
    const a = await api();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-wrap-'));
    const script = path.join(dir, 'start-agent.sh');
    fs.writeFileSync(script, `#!/bin/sh\n# starts the team's agent\nexec claude "$@"\n`, { mode: 0o755 });
    const t = await shellTerminal(
      'wrapped',
      { PATH: `${FAKE_BIN}:${process.env.PATH}`, AGENT_LENS_FAKE_CAST: rec('claude-code', '02-plain-text'), AGENT_LENS_FAKE_SPEED: '2' },
      vscode.TerminalLocation.Editor,
    );
    t.shellIntegration!.executeCommand(`cd ${dir} && ./start-agent.sh`);
    const w = await waitState(a, t, 'claude-code', 'working', 30_000);
    assert.ok(
      w.history.some((h) => /script \.\/start-agent\.sh runs claude-code/.test(h.evidence)),
      `identified how? ${JSON.stringify(w.history.map((h) => h.evidence))}`,
    );
    await waitState(a, t, 'claude-code', 'exited', 60_000);
    t.dispose();
  });
});
