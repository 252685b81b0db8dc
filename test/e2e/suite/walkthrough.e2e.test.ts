import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TeamAgent } from '../../../src/handoff/team/schema';
import {
  claudeSettingsFile,
  codexUserHooksFile,
  geminiSettingsFile,
  hermesPluginTarget,
  opencodePluginFile,
} from '../../../src/integrations/install/agents';
import { agentFound } from '../../../src/integrations/install/found';
import { configDirOf } from '../../../src/agents/registry';
import type { HookStatus } from '../../../src/integrations/install/status';
import { api, QUICK_INPUT, QUICK_INPUT_FIELD, ROOT, screenshot, shellTerminal, stateOf, ui, UI_DRIVER, waitFor, waitState } from './util';
import { answer, installedWalkthrough, links, placeholder, snapshot, walkthroughDriver, within } from './walkthroughDriver';
import type { AgentKind } from '../../../src/common/agents';

/**
 * The walkthrough (contributes.walkthroughs) in a real VS Code: it opens, and each step's buttons run their
 * command the way a click does — no arguments — with what the command asks answered by the runner's keyboard
 * (scripts/e2e/run.mjs drives the page with playwright), then each command's effect is checked: a terminal
 * that Agent Lens reads, the side bar, the focused terminal, hook files written and restored, team.toml and a
 * dispatched brief done by a scripted agent, the board's report, the state history in the output, a .cast
 * saved and replayed. Where nobody can type (npm run test:vscode), the same commands get their answers as
 * arguments. Steps whose UI could not be driven fall back to arguments too, and fail the last test.
 */

const FAKE_BIN = path.join(ROOT, 'test', 'e2e', 'fake-agent');
const WORKER = path.join(FAKE_BIN, 'handoff-worker');
const CAST = path.join(ROOT, 'test', 'fixtures', 'recordings', 'claude-code', '04-bash-permission-approve', 'session.cast');
const MARK = 'agent-lens-report';

type Dispatched = { delivered: boolean; board?: { task_id: string | null }; error?: string };

describe('walkthrough: it opens, and every step’s buttons work', function () {
  this.timeout(420_000);
  const failures: string[] = [];
  let info: ReturnType<typeof installedWalkthrough>;
  let fullId = '';
  let agentTerminal: vscode.Terminal | undefined;
  const step = (id: string) => {
    const s = info.walkthrough.steps.find((x) => x.id === id);
    assert.ok(s, `step ${id}`);
    return s;
  };
  const button = (stepId: string, command: string) => {
    const l = links(step(stepId)).commands.find((x) => x.command === command);
    assert.ok(l, `step ${stepId} has a button for ${command}`);
    return l;
  };

  const { click, acceptDefaults, showStep } = walkthroughDriver(failures, () => fullId);

  before(async () => {
    const a = await api();
    await waitFor('the hub', () => a.hub(), 20_000);
    info = installedWalkthrough();
    fullId = `${info.pkg.publisher}.${info.pkg.name}#${info.walkthrough.id}`;
    for (const t of vscode.window.terminals) t.dispose();
  });

  after(async () => {
    for (const t of vscode.window.terminals) t.dispose();
    const c = vscode.workspace.getConfiguration();
    await c.update('terminal.integrated.env.linux', undefined, vscode.ConfigurationTarget.Global);
    await c.update('agentLens.handoff.root', undefined, vscode.ConfigurationTarget.Global);
    await c.update('agentLens.handoff.teamFile', undefined, vscode.ConfigurationTarget.Global);
  });

  it('every step has its media in the installed extension and buttons for commands that exist', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    const names = info.walkthrough.steps.map((s) => s.id);
    assert.deepStrictEqual(names, ['startAgent', 'installHooks', 'notifications', 'dispatchBrief', 'historyAndCast']);
    for (const s of info.walkthrough.steps) {
      assert.ok(s.media?.markdown, `${s.id} has markdown media`);
      const md = path.join(info.dir, s.media.markdown);
      assert.ok(fs.existsSync(md), `${md} is in the .vsix`);
      for (const img of fs.readFileSync(md, 'utf8').matchAll(/!\[[^\]]*\]\(([^)]+)\)/g))
        assert.ok(fs.existsSync(path.resolve(path.dirname(md), img[1])), `${s.media.markdown}: image ${img[1]} is in the .vsix`);
      const { commands, web } = links(s);
      assert.ok(commands.length >= 1, `${s.id} has a command button`);
      for (const l of commands) assert.ok(all.has(l.command), `${s.id}: “${l.title}” runs ${l.command}, which exists`);
      for (const u of web) assert.ok(u.startsWith(info.pkg.repository.url), `${s.id}: ${u} points into the repository`);
      // Each step says what it changes and how to undo it.
      assert.match(s.description, /Changes/, `${s.id} says what it changes`);
      if (!/Changes no file|Changes: only/.test(s.description)) assert.match(s.description, /Undo/, `${s.id} says how to undo it`);
    }
  });

  it('opens with workbench.action.openWalkthrough', async () => {
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', fullId, false);
    const tab = await waitFor(
      'the walkthrough editor',
      () => {
        const t = vscode.window.tabGroups.activeTabGroup.activeTab;
        return t && !(t.input instanceof vscode.TabInputText) && !(t.input instanceof vscode.TabInputTerminal) ? t : undefined;
      },
      15_000,
    );
    console.log(`      active tab: ${tab.label}`);
    if (UI_DRIVER)
      await ui('walkthrough', {
        actions: [
          { waitFor: '.gettingStartedContainer', hasText: info.walkthrough.title },
          { waitFor: '.getting-started-step', hasText: info.walkthrough.steps[0].title },
        ],
      });
  });

  it('step 1: Open a Terminal, start an agent, Show the Side Bar, Focus Agent Terminal…', async () => {
    const a = await api();
    await showStep(step('startAgent'), 'walkthrough-start-agent');
    // The terminal a user opens gets the stand-in agent on its PATH: `claude` plays a real recording.
    await vscode.workspace
      .getConfiguration()
      .update(
        'terminal.integrated.env.linux',
        { PATH: `${FAKE_BIN}:${process.env.PATH ?? ''}`, AGENT_LENS_FAKE_CAST: CAST },
        vscode.ConfigurationTarget.Global,
      );
    const opened = new Promise<vscode.Terminal>((resolve) => {
      const sub = vscode.window.onDidOpenTerminal((t) => {
        sub.dispose();
        resolve(t);
      });
    });
    await click(button('startAgent', 'workbench.action.terminal.new'));
    const t = (agentTerminal = await within(opened, 15_000, 'the new terminal'));
    await waitFor('shell integration in the new terminal', () => t.shellIntegration, 30_000);
    t.shellIntegration!.executeCommand('claude');
    await waitState(a, t, 'claude-code', 'waiting', 30_000);
    const row = a.ui.tree().find((i) => i.group === 'Needs you' && i.id === a.terminalId(t));
    assert.ok(row, `the new terminal is under Needs you: ${JSON.stringify(a.ui.tree())}`);

    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await click(button('startAgent', 'workbench.view.extension.agentLens'));
    if (UI_DRIVER) await ui('walkthrough-side-bar', { actions: [{ waitFor: '.part.sidebar', hasText: 'Claude Code' }], shot: false });

    const other = await shellTerminal('elsewhere');
    other.show();
    await waitFor('another terminal in front', () => vscode.window.activeTerminal === other, 10_000);
    await click(
      button('startAgent', 'agentLens.focusTerminal'),
      { name: 'walkthrough-focus', req: { actions: answer({ hasText: 'Claude Code' }), shot: false } },
      () => acceptDefaults('agentLens.focusTerminal', 1),
    );
    await waitFor('the agent’s terminal in front', () => vscode.window.activeTerminal === t, 10_000);
    other.dispose();
  });

  it('step 2: Install Agent Hooks… writes each agent’s file; Uninstall Agent Hooks… restores them', async function () {
    const a = await api();
    await showStep(step('installHooks'), 'walkthrough-install-hooks');
    const home = os.homedir();
    if (!path.resolve(home).startsWith(path.resolve(os.tmpdir()))) {
      console.log(`      HOME ${home} is not a throw-away home: the hook buttons are not clicked here`);
      this.skip();
    }
    const byAgent: [AgentKind, string][] = [
      ['claude-code', claudeSettingsFile()],
      ['codex', codexUserHooksFile()],
      ['opencode', opencodePluginFile()],
      ['gemini', geminiSettingsFile()],
      ['hermes', hermesPluginTarget()],
      ['qwen', path.join(configDirOf('qwen', process.env, home), 'settings.json')],
      ['kilocode', opencodePluginFile(process.env, home, 'kilocode')],
      ['droid', path.join(configDirOf('droid', process.env, home), 'hooks.json')],
      ['copilot', path.join(configDirOf('copilot', process.env, home), 'hooks', 'agent-lens.json')],
    ];
    const files = byAgent.map(([, f]) => f);
    const before = new Map(files.map((f) => [f, snapshot(f)]));
    // The picker ticks the agents found on this machine (on PATH, or their config folder exists); none found: all.
    const found = byAgent.filter(([agent, f]) => agentFound(agent, f).found).map(([, f]) => f);
    const expected = found.length ? found : files;
    const installed = await click<HookStatus[]>(
      button('installHooks', 'agentLens.installHooks'),
      {
        name: 'walkthrough-hooks-picker',
        req: {
          actions: [{ waitFor: QUICK_INPUT, hasText: 'Install Agent Lens hooks' }, { sleep: 500 }],
          after: [{ press: 'Enter', selector: QUICK_INPUT_FIELD }],
        },
      },
      () => acceptDefaults<HookStatus[]>('agentLens.installHooks', 1),
    );
    assert.ok(installed && installed.length >= 1, `hooks installed for the agents picked by default: ${JSON.stringify(installed)}`);
    // Already ours before the click: not ticked again. Everything else expected is, and nothing else.
    const oursBefore = (f: string) =>
      (before.get(f) ?? '').length > 0 &&
      (fs.statSync(f).isDirectory() || Buffer.from(before.get(f)!, 'base64').toString('utf8').includes(MARK));
    assert.deepStrictEqual(
      installed.map((h) => h.path).sort(),
      expected.filter((f) => !oursBefore(f)).sort(),
      `the agents found on this machine (${found.join(', ') || 'none: all'}) are the ones picked`,
    );
    for (const h of installed) {
      assert.strictEqual(h.state, 'installed', JSON.stringify(h));
      assert.ok(files.includes(h.path), `${h.path} is one of the files the step names`);
      const p = fs.statSync(h.path).isDirectory() ? path.join(h.path, fs.readdirSync(h.path)[0]) : h.path;
      assert.match(fs.readFileSync(p, 'utf8'), new RegExp(MARK), `${p} holds Agent Lens's hooks`);
    }
    console.log(`      installed: ${installed.map((h) => h.path.replace(home, '~')).join(', ')}`);
    await waitFor(
      'the Agent hooks group to count them',
      () => a.ui.tree().find((r) => r.label === 'Agent hooks' && r.description.startsWith(`${installed.length} of`)),
      10_000,
    );

    const removed = await click<HookStatus[]>(
      button('installHooks', 'agentLens.uninstallHooks'),
      {
        name: 'walkthrough-unhook-picker',
        req: {
          actions: [{ waitFor: QUICK_INPUT, hasText: 'Remove Agent Lens hooks' }, { sleep: 500 }],
          shot: false,
          after: [{ press: 'Enter', selector: QUICK_INPUT_FIELD }],
        },
      },
      () => acceptDefaults<HookStatus[]>('agentLens.uninstallHooks', 1),
    );
    assert.ok(removed && removed.length === installed.length, `the same agents are preselected for removal: ${JSON.stringify(removed)}`);
    for (const h of removed) assert.strictEqual(h.state, 'absent', JSON.stringify(h));
    for (const f of files) {
      const was = before.get(f) ?? null;
      const now = snapshot(f);
      if (was !== null) assert.strictEqual(now, was, `${f} is restored byte for byte`);
      else
        assert.ok(
          now === null || now === '[]' || !Buffer.from(now, 'base64').toString('utf8').includes(MARK),
          `${f} holds nothing of ours: ${now}`,
        );
    }
  });

  it('step 3: Register External Agent…, Dispatch Brief…, Show Handoff Status, Open team.toml', async () => {
    const a = await api();
    await showStep(step('dispatchBrief'), 'walkthrough-dispatch-step');
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-walkthrough-'));
    const teamFile = path.join(root, 'team.toml');
    const c = vscode.workspace.getConfiguration('agentLens.handoff');
    await c.update('root', root, vscode.ConfigurationTarget.Global);
    await c.update('teamFile', teamFile, vscode.ConfigurationTarget.Global);
    await waitFor('the handoff service on a fresh folder', () => a.handoff()?.root === root && a.handoff()?.teamFile === teamFile, 20_000);
    assert.ok(!fs.existsSync(teamFile));

    // The brief (the active editor, later): a text editor has the focus now, not the walkthrough's webview.
    const doc = await vscode.workspace.openTextDocument({
      language: 'markdown',
      content: 'Write a greeting.\n\nSuccess: the report says it is done.\n',
    });
    await vscode.window.showTextDocument(doc);
    const given: Partial<TeamAgent> = {
      key: 'worker',
      mode: 'embedded',
      display_name: 'Worker',
      launch: WORKER,
      process: 'handoff-worker',
      window_hint: undefined,
      description: 'Answers the walkthrough test',
    };
    const registered = await click<TeamAgent>(
      button('dispatchBrief', 'agentLens.registerAgent'),
      {
        name: 'walkthrough-register',
        req: {
          actions: [
            // The key's box opens with its validation hint in place of the prompt: its placeholder names it.
            ...answer({ field: placeholder('claude'), text: 'worker' }),
            ...answer({ field: placeholder('How does it run'), text: 'embedded' }),
            ...answer({ hasText: 'Display name', text: 'Worker' }),
            ...answer({ hasText: 'Command that starts it', text: WORKER }),
            ...answer({ hasText: 'process name', text: 'handoff-worker' }),
            ...answer({ hasText: 'stable part of its terminal name' }),
            { waitFor: QUICK_INPUT, hasText: 'What it is for' },
            { fill: QUICK_INPUT_FIELD, text: 'Answers the walkthrough test' },
            { sleep: 300 },
          ],
          after: [{ press: 'Enter', selector: QUICK_INPUT_FIELD }],
        },
      },
      () => vscode.commands.executeCommand<TeamAgent>('agentLens.registerAgent', given),
    );
    assert.strictEqual(registered?.key, 'worker', JSON.stringify(registered));
    const toml = fs.readFileSync(teamFile, 'utf8');
    assert.match(toml, /\[worker\]\nmode = "embedded"\ndisplay_name = "Worker"/);
    assert.ok(toml.includes(`launch = "${WORKER}"`) && toml.includes('process = "handoff-worker"'), toml);
    await waitFor('Worker in the Handoff group', () => a.ui.tree().some((i) => i.group === 'Handoff' && i.label === 'Worker'), 10_000);

    // The brief: the active editor.
    await vscode.window.showTextDocument(doc);
    const dispatched = await click<Dispatched>(
      button('dispatchBrief', 'agentLens.dispatchBrief'),
      {
        name: 'walkthrough-dispatch',
        req: {
          actions: [
            ...answer({ field: placeholder('Dispatch a brief') }),
            ...answer({ hasText: 'Task id for worker' }),
            { waitFor: placeholder('Where is the brief') },
            { sleep: 300 },
          ],
          after: [{ press: 'Enter', selector: QUICK_INPUT_FIELD }],
        },
      },
      () =>
        vscode.commands.executeCommand<Dispatched>('agentLens.dispatchBrief', { agent: 'worker', taskId: 'walk-01', brief: doc.getText() }),
    );
    assert.ok(dispatched?.delivered, `delivered: ${JSON.stringify(dispatched)}`);
    const taskId = dispatched.board?.task_id;
    assert.ok(taskId, JSON.stringify(dispatched));
    const board = () => a.handoff()?.boards.find((b) => b.agent === 'worker');
    await waitFor('the worker to report done', () => board()?.state === 'done' && board()?.task_id === taskId, 60_000);
    assert.match(fs.readFileSync(path.join(root, 'worker', 'briefs', `${taskId}-brief.md`), 'utf8'), /Write a greeting\./);
    assert.ok(
      a.ui.tree().some((i) => i.label === 'Worker' && i.description.startsWith(`done · ${taskId}`)),
      JSON.stringify(a.ui.tree().filter((i) => i.group === 'Handoff')),
    );
    await screenshot('walkthrough-board', { expand: ['Handoff'] });

    await click(
      button('dispatchBrief', 'agentLens.showHandoffStatus'),
      { name: 'walkthrough-status', req: { actions: answer({ hasText: 'worker: done' }), shot: false } },
      () => acceptDefaults('agentLens.showHandoffStatus', 1),
    );
    await waitFor('the report open', () => vscode.window.activeTextEditor?.document.uri.fsPath === board()?.report_path, 15_000);

    await click(button('dispatchBrief', 'agentLens.openTeamFile'));
    await waitFor('team.toml open', () => vscode.window.activeTextEditor?.document.uri.fsPath === teamFile, 15_000);
    for (const t of vscode.window.terminals) if (t !== agentTerminal) t.dispose();
  });

  it('step 4: Show State History, Record Terminal to .cast, Replay Recording…', async () => {
    const a = await api();
    const t = agentTerminal;
    assert.ok(t, 'the agent terminal of step 1');
    await showStep(step('historyAndCast'), 'walkthrough-history-step');
    await click(button('historyAndCast', 'agentLens.showHistory'));
    // The output shows the agent terminal's transitions (the only terminal left): its last lines name Claude Code.
    if (UI_DRIVER)
      await ui('walkthrough-history', { actions: [{ waitFor: '.part.panel .view-lines', hasText: 'Claude Code' }, { sleep: 500 }] });

    await waitFor('the agent to finish its recording', () => ['stopped', 'exited'].includes(stateOf(a, t)?.state ?? ''), 60_000);
    t.show();
    await waitFor('the agent terminal active', () => vscode.window.activeTerminal === t, 10_000);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
    const fallbackCast = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'al-walk-')), 'walkthrough.cast');
    const saved = await click<string>(
      button('historyAndCast', 'agentLens.recordTerminal'),
      {
        name: 'walkthrough-save-cast',
        req: { actions: [{ waitFor: QUICK_INPUT_FIELD }, { sleep: 1200 }], after: [{ press: 'Enter', selector: QUICK_INPUT_FIELD }] },
      },
      // Without a runner to answer the save dialog, the active terminal (no id: a user has none) and a path.
      () => vscode.commands.executeCommand<string>('agentLens.recordTerminal', undefined, fallbackCast),
    );
    assert.ok(saved && fs.existsSync(saved), `saved ${saved}`);
    if (saved !== fallbackCast) assert.strictEqual(path.dirname(saved), folder, 'saved where the dialog proposed: the workspace folder');
    const header = JSON.parse(fs.readFileSync(saved, 'utf8').split('\n')[0]) as { version: number; command?: string };
    assert.strictEqual(header.version, 2);
    assert.strictEqual(header.command, 'claude');

    await click(
      button('historyAndCast', 'agentLens.replayRecording'),
      {
        name: 'walkthrough-open-cast',
        req: {
          actions: [{ waitFor: QUICK_INPUT_FIELD }, { sleep: 800 }, { fill: QUICK_INPUT_FIELD, text: saved }, { sleep: 800 }],
          after: [{ press: 'Enter', selector: QUICK_INPUT_FIELD }],
        },
      },
      () => vscode.commands.executeCommand('agentLens.replayRecording', vscode.Uri.file(saved)),
    );
    const text = await waitFor(
      'the replay document',
      () => vscode.window.activeTextEditor?.document.getText().includes('"state"') && vscode.window.activeTextEditor.document.getText(),
      20_000,
    );
    const states = text
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => (JSON.parse(l) as { state: string }).state);
    for (const s of ['working', 'waiting']) assert.ok(states.includes(s), `replayed states ${states.join(', ')} lack ${s}`);
    await screenshot('walkthrough-replay');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('every button was driven through its UI (no fallback to arguments)', () => {
    if (!UI_DRIVER) console.log('      (no UI runner: npm run test:vscode answers with arguments)');
    assert.deepStrictEqual(failures, []);
  });
});
