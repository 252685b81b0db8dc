import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AgentLensTestSurface } from '../../../src/vscode/api';
import type { Board } from '../../../src/handoff/board';
import { killRunProcesses, prepareClaudeHome } from '../../../harness/homes';
import { createAnthropicMock } from '../../../harness/mock/anthropic';
import { foregroundOf, processesUnder } from '../../../src/sources/process/processTree';
import { api, ARTIFACTS, ROOT, screenshot, shellTerminal, sleep, stateOf, typeLine, ui, UI_DRIVER, waitFor, waitState } from './util';

const WORKER = path.join(ROOT, 'test', 'e2e', 'fake-agent', 'handoff-worker');

function board(a: AgentLensTestSurface, agent: string): Board | undefined {
  return a.handoff()?.boards.find((b) => b.agent === agent);
}

/** Like waitFor, for a probe that reads processes (asynchronous). */
async function untilAsync(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(200);
  }
}

/** Points the handoff settings at a fresh folder and waits until the service runs on them. */
async function useHandoff(a: AgentLensTestSurface, root: string, team: string): Promise<void> {
  const c = vscode.workspace.getConfiguration('agentLens.handoff');
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(path.join(root, 'team.toml'), team);
  await c.update('root', root, vscode.ConfigurationTarget.Global);
  await c.update('teamFile', path.join(root, 'team.toml'), vscode.ConfigurationTarget.Global);
  await waitFor(
    'the handoff service on the new settings',
    () => a.handoff()?.root === root && a.handoff()?.teamFile === path.join(root, 'team.toml'),
    20_000,
  );
  // The registry file was written before or after the restart: either way the watcher or the start read it.
  await waitFor(
    'the registry',
    () => a.ui.tree().some((i) => i.group === 'Handoff' && i.contextValue.startsWith('handoff.agent.')),
    20_000,
  );
}

/**
 * Registers "idle" (process idle-agent, window_hint "idle agent") and opens a shell named "idle agent". A plain
 * shell whose name matches window_hint is never typed into, even a line the user chose: the board says why, and
 * no command starts there. Then an agent-like program runs in that terminal, and the dispatch is delivered.
 */
async function idleAgentTerminal(a: AgentLensTestSurface, root: string): Promise<vscode.Terminal> {
  const idleAgent = path.join(root, 'bin', 'idle-agent');
  fs.mkdirSync(path.dirname(idleAgent), { recursive: true });
  fs.symlinkSync('/bin/cat', idleAgent); // an agent-like program: it reads lines, never rings
  fs.writeFileSync(
    path.join(root, 'team.toml'),
    `${fs.readFileSync(path.join(root, 'team.toml'), 'utf8')}\n[idle]\nmode = "embedded"\nprocess = "idle-agent"\nwindow_hint = "idle agent"\n`,
  );
  const idleTerm = await shellTerminal('idle agent');
  await waitFor('the hand edit of team.toml, live', () => a.ui.tree().some((i) => i.label === 'idle' && i.group === 'Handoff'), 20_000);
  const started: string[] = [];
  const watch = vscode.window.onDidStartTerminalShellExecution(
    (e) => void (e.terminal === idleTerm && started.push(e.execution.commandLine.value)),
  );
  const pwned = path.join(root, 'PWNED');
  const shellOnly = (await vscode.commands.executeCommand('agentLens.dispatchBrief', {
    agent: 'idle',
    taskId: 't0',
    brief: 'Stay busy.',
    message: `touch ${pwned}`,
  })) as { delivered: boolean; error?: string };
  assert.strictEqual(shellOnly.delivered, false, JSON.stringify(shellOnly));
  assert.strictEqual(board(a, 'idle')?.error_point, 'no_terminal');
  assert.match(
    board(a, 'idle')?.error_reason ?? '',
    /no terminal runs idle in its foreground \(looked for process "idle-agent", window_hint "idle agent"\): "idle agent": no process "idle-agent" runs in it.*Nothing was typed/,
  );
  await sleep(2500); // longer than the default steps take (400 ms, then Enter 1 s after the text)
  watch.dispose();
  assert.deepStrictEqual(started, [], 'no command started in the shell');
  assert.ok(!fs.existsSync(pwned), 'the line did not run');

  // Delivered once the agent-like program holds the same terminal (and then in flight, for the gate).
  idleTerm.shellIntegration!.executeCommand(idleAgent);
  await untilAsync('idle-agent in the foreground of its terminal', async () => {
    const shell = await idleTerm.processId;
    const p = shell ? (await processesUnder(shell)).find((x) => x.name === 'idle-agent') : undefined;
    return !!p && (await foregroundOf(shell!, p.pid)) === 'foreground';
  });
  const held = (await vscode.commands.executeCommand('agentLens.dispatchBrief', { agent: 'idle', taskId: 't1', brief: 'Stay busy.' })) as {
    delivered: boolean;
    board: Board;
  };
  assert.ok(held.delivered, `delivered to the terminal where idle-agent holds the foreground: ${JSON.stringify(held)}`);
  assert.strictEqual(held.board.delivered_to, 'idle agent');
  return idleTerm;
}

/**
 * Seed 002 end to end in a real VS Code: team.toml registers agents; "Dispatch Brief" writes the brief with
 * its contract, the steps type the line into the agent's real terminal, the agent answers through the
 * doorbell with the CLI, and the tree, the status bar and a notification show the board; the report opens.
 */
describe('handoff: dispatch into real terminals, the doorbell, the board', function () {
  this.timeout(300_000);

  it('a scripted agent: launched by the dispatch, handshake, in progress → done, report opens; a routing trigger fires', async () => {
    const a = await api();
    await waitFor('the hub', () => a.hub(), 20_000);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-handoff-e2e-'));
    await useHandoff(
      a,
      root,
      `# registered by the e2e test\n[worker]\nmode = "embedded"\ndisplay_name = "Worker"\nprocess = "handoff-worker"\nlaunch = "${WORKER}"\n\n[site]\nmode = "web"\n`,
    );
    const tree = a.ui.tree();
    assert.ok(
      tree.some((i) => i.label === 'Worker' && i.group === 'Handoff'),
      JSON.stringify(tree),
    );
    assert.ok(
      tree.some((i) => i.label === 'site' && /not drivable from VS Code/.test(i.description)),
      'a web agent is listed as not drivable',
    );

    // No terminal runs the worker yet: the dispatch launches it and waits until its process shows up.
    const first = (await vscode.commands.executeCommand('agentLens.firstHandshake', { agent: 'worker' })) as {
      delivered: boolean;
      error?: string;
    };
    assert.ok(first?.delivered, `handshake delivered: ${JSON.stringify(first)}`);
    await waitFor('the handshake progress (board ready)', () => board(a, 'worker')?.state === 'ready', 30_000);
    const term = vscode.window.terminals.find((t) => t.name === 'Worker');
    assert.ok(term, 'the dispatch opened a terminal for the worker');

    const r = (await vscode.commands.executeCommand('agentLens.dispatchBrief', {
      agent: 'worker',
      taskId: '1203-01',
      brief: 'Write a greeting.\n\nSuccess: the report says it is done.',
    })) as { delivered: boolean; brief_path: string; report_path: string };
    assert.ok(r.delivered, JSON.stringify(r));
    assert.ok(fs.readFileSync(r.brief_path, 'utf8').includes('## Doorbell contract'), 'the brief carries the generated contract');
    await waitFor(
      'in progress with the progress event',
      () => board(a, 'worker')?.state === 'in_progress' && board(a, 'worker')?.last_event?.status === 'progress',
      30_000,
    );
    // The views are redrawn at most every 100 ms: the status bar follows the boards a moment later.
    await waitFor('the in-flight item', () => a.ui.statusBar().handoff === '$(mail) 1', 2000);
    assert.ok(a.ui.tree().some((i) => i.label === 'Worker' && /in progress · 1203-01/.test(i.description)));
    await screenshot('handoff-in-progress');
    await waitFor('done', () => board(a, 'worker')?.state === 'done', 30_000);
    assert.strictEqual(board(a, 'worker')!.report_path, r.report_path);
    assert.ok(fs.readFileSync(r.report_path, 'utf8').includes('✅'), 'the report was written');
    await waitFor('the done notification', () => a.handoff()!.notices.find((n) => n.agent === 'worker' && n.state === 'done'), 10_000);
    await waitFor('nothing in flight on the status bar', () => a.ui.statusBar().handoff === undefined, 2000);
    const opened = await vscode.commands.executeCommand('agentLens.openReport', { agent: 'worker' });
    assert.strictEqual(opened, r.report_path);
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.fsPath, r.report_path);
    await screenshot('handoff-done');
    await screenshot('readme-handoff-board', { expand: ['Handoff'] });

    // A second dispatch finds the running worker by its process: no new terminal.
    const count = vscode.window.terminals.length;
    const again = (await vscode.commands.executeCommand('agentLens.dispatchBrief', {
      agent: 'worker',
      taskId: '1203-02',
      brief: 'Again.',
    })) as { delivered: boolean; board: Board };
    assert.ok(again.delivered);
    assert.strictEqual(again.board.delivered_to, 'Worker');
    assert.strictEqual(vscode.window.terminals.length, count);
    await waitFor('the second task done', () => board(a, 'worker')?.state === 'done' && board(a, 'worker')?.task_id === '1203-02', 30_000);

    // The in-flight gate, seen from the palette's command: refused while a task is in flight, then cancel frees it.
    const idleTerm = await idleAgentTerminal(a, root);
    const refused = (await vscode.commands.executeCommand('agentLens.dispatchBrief', {
      agent: 'idle',
      taskId: 't2',
      brief: 'Another.',
    })) as { refused?: string };
    assert.match(refused.refused ?? '', /in flight: wait for its doorbell .* or cancel it/);
    await vscode.commands.executeCommand('agentLens.cancelTask', { agent: 'idle', reason: 'e2e' });
    assert.strictEqual(board(a, 'idle')?.state, 'cancelled');

    // "Register External Agent…" writes only the new section; every other byte of the hand-written file stays.
    const teamFile = path.join(root, 'team.toml');
    const before = fs.readFileSync(teamFile, 'utf8');
    await vscode.commands.executeCommand('agentLens.registerAgent', {
      key: 'docs',
      mode: 'embedded',
      display_name: 'Docs',
      launch: 'docs-agent',
      process: 'docs-agent',
      window_hint: 'docs',
      description: 'Writes the docs.',
    });
    const afterText = fs.readFileSync(teamFile, 'utf8');
    assert.ok(afterText.startsWith(before), 'the existing sections are byte-identical');
    assert.match(afterText.slice(before.length), /\[docs\]\nmode = "embedded"\ndisplay_name = "Docs"/);
    await waitFor('the registered agent in the tree', () => a.ui.tree().some((i) => i.label === 'Docs' && i.group === 'Handoff'), 10_000);
    const dir = (await vscode.commands.executeCommand('agentLens.initHandoff', { agent: 'docs' })) as string;
    for (const f of ['read.md', 'memory.md', 'status.json', 'briefs', 'reports']) assert.ok(fs.existsSync(path.join(dir, f)), f);
    assert.match(fs.readFileSync(path.join(dir, 'read.md'), 'utf8'), /Writes the docs\./);

    // A routing trigger: when the agent in "router source" comes to rest, the worker gets a brief.
    const src = await shellTerminal('router source', {
      AGENT_LENS_FAKE_CAST: path.join(ROOT, 'test', 'fixtures', 'live', 'claude-code', '02-plain-answer', 'session.cast'),
      AGENT_LENS_FAKE_SPEED: '4',
    });
    await vscode.commands.executeCommand('agentLens.addRoute', {
      from: 'router source',
      to: 'worker',
      template: 'Review what {from_name} ({from_agent}) did: {last_reply}',
    });
    assert.ok(a.ui.tree().some((i) => i.group === 'Routes' && i.label === 'router source → worker'));
    src.shellIntegration!.executeCommand(`PATH=${path.join(ROOT, 'test', 'e2e', 'fake-agent')}:$PATH claude`);
    await waitFor('the route to fire', () => a.handoff()!.fired.find((f) => f.agent === 'worker'), 90_000);
    const fired = a.handoff()!.fired.find((f) => f.agent === 'worker')!;
    assert.strictEqual(fired.result, 'delivered');
    const brief = fs.readFileSync(path.join(root, 'worker', 'briefs', `${fired.taskId}-brief.md`), 'utf8');
    assert.match(brief, /Review what router source \(claude-code\) did:/);
    await waitFor(
      'the routed task done',
      () => board(a, 'worker')?.state === 'done' && board(a, 'worker')?.task_id === fired.taskId,
      30_000,
    );
    await sleep(1500);
    assert.strictEqual(a.handoff()!.fired.filter((f) => f.agent === 'worker').length, 1, 'once per transition');
    await screenshot('handoff-routed');
    // As a user removes it: the Routes row's inline button (the menu passes the row, not an id).
    if (UI_DRIVER) {
      await vscode.commands.executeCommand('workbench.view.extension.agentLens');
      const row = '.part.sidebar .monaco-list-row[aria-label^="router source → worker"]';
      await ui('handoff-remove-route', {
        actions: [{ hover: row }, { sleep: 300 }, { click: `${row} .action-label[aria-label="Remove Routing Trigger"]` }],
        shot: false,
      });
    } else await vscode.commands.executeCommand('agentLens.removeRoute', { route: a.handoff()!.routes[0].id });
    await waitFor('the route gone', () => a.handoff()!.routes.length === 0, 10_000);
    term!.sendText('exit', true);
    for (const t of [idleTerm, src]) t.dispose();
  });

  it('the real Claude Code: the dispatch types the line into its terminal, it reads the brief and reports done through its Bash tool', async () => {
    const a = await api();
    const mockLog = path.join(ARTIFACTS, 'mock-anthropic-handoff.jsonl');
    // The home and its project folder come first: the handoff root sits inside the project, where Claude reads without asking.
    const placeholder = createAnthropicMock({ script: { title: 't', turns: [] } });
    await placeholder.close();
    let home!: ReturnType<typeof prepareClaudeHome>;
    const taskId = '1203-09';
    const mock = createAnthropicMock({
      script: {
        title: 'Handoff task',
        turns: [
          { type: 'tool', name: 'Read', text: 'I will read the brief.', input: { file_path: '__BRIEF__' } },
          {
            type: 'tool',
            name: 'Bash',
            text: 'Reporting through the doorbell.',
            input: { command: '__REPORT__', description: 'Write the report and ring the doorbell' },
          },
          { type: 'text', text: 'Done: the report is written and the doorbell rang.\n', chunks: 'lines' },
        ],
      },
      logFile: mockLog,
    });
    const port = await mock.listen();
    home = prepareClaudeHome({ baseUrl: `http://127.0.0.1:${port}`, agentsDir: path.join(ROOT, '.agents') });
    const root = path.join(home.cwd, '.agent-lens', 'handoff');
    await useHandoff(a, root, '[claude]\nmode = "embedded"\ndisplay_name = "Claude Code"\nprocess = "claude"\n');
    const h = a.handoff()!;
    const brief = path.join(root, 'claude', 'briefs', `${taskId}-brief.md`);
    const report = path.join(root, 'claude', 'reports', `${taskId}-report.md`);
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const cmd = `printf '## ✅ Done\\nok\\n## 📄 Files changed\\nnone\\n## 🔍 Evidence\\nmock\\n## ⚠️ Left over\\nnone\\n' > ${q(report)} && ${q(h.cli)} task report --id claude::${taskId} --status done --summary 'report written by Claude Code' --report ${q(report)}`;
    // The scripted model's tool inputs name the real paths.
    (mock as unknown as { opts: { script: { turns: { input: Record<string, string> }[] } } }).opts.script.turns[0].input.file_path = brief;
    (mock as unknown as { opts: { script: { turns: { input: Record<string, string> }[] } } }).opts.script.turns[1].input.command = cmd;
    const t = await shellTerminal('claude handoff', home.env, vscode.TerminalLocation.Editor);
    try {
      t.show();
      t.shellIntegration!.executeCommand(`cd ${q(home.cwd)} && ${[home.command, ...home.args].map(q).join(' ')}`);
      await waitState(a, t, 'claude-code', 'idle', 60_000);
      await sleep(2500);
      const r = (await vscode.commands.executeCommand('agentLens.dispatchBrief', {
        agent: 'claude',
        taskId,
        brief: 'Write the report and ring the doorbell.',
      })) as { delivered: boolean; board: Board; error?: string };
      assert.ok(r.delivered, JSON.stringify(r));
      assert.strictEqual(r.board.delivered_to, 'claude handoff', 'found by its process, four levels at most below the shell');
      await waitFor(
        'the typed line at the model',
        () => fs.existsSync(mockLog) && fs.readFileSync(mockLog, 'utf8').includes(`Read ${brief} and execute it.`),
        60_000,
      );
      // Bash asks for approval in the default permission mode: approve it as a user would.
      await waitFor('the Bash approval dialog', () => stateOf(a, t)?.state === 'waiting', 60_000);
      await screenshot('handoff-claude-approval');
      t.sendText('\r', false);
      await waitFor('done from the real CLI', () => board(a, 'claude')?.state === 'done', 60_000);
      assert.strictEqual(board(a, 'claude')!.last_event!.summary, 'report written by Claude Code');
      assert.ok(fs.readFileSync(report, 'utf8').includes('✅ Done'));
      assert.ok(a.ui.tree().some((i) => i.label === 'Claude Code' && /^done · 1203-09/.test(i.description)));
      await screenshot('handoff-claude-done');
      await typeLine(t, '/exit');
      await waitState(a, t, 'claude-code', 'exited', 30_000);
    } finally {
      t.dispose();
      await killRunProcesses(home.runId).catch(() => undefined);
      await mock.close();
    }
  });
});
