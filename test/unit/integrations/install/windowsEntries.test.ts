import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { hookCommand, reporterCommandPath } from '../../../../src/integrations/commands';
import { HOOK_SHELLS } from '../../../../src/integrations/hookShells';
import { HOOK_TABLES, hookEntries, type JsonHookAgent } from '../../../../src/integrations/install/hookTable';
import { isOurHandler, ownEntries, parseOurCommand } from '../../../../src/integrations/install/ownEntries';
import { type HookTarget, hookTargets } from '../../../../src/integrations/install/targets';
import { windowsHookLine } from '../../../../src/integrations/windowsHookLines';

/**
 * Hooks written for Windows (src/integrations/hookShells.ts): each agent's lines in its shell's syntax, Node named in
 * every line, the fields that pick the shell where the agent has one. Installed, re-installed and uninstalled like
 * the POSIX ones: Agent Lens's lines of every platform and version are found and replaced, a user's hook that
 * merely looks like one of them is never touched. (Run here with the platform given; the lines are not executed.)
 */

const HOME = 'C:\\Users\\张三 O’Brien\\.agent-lens';
const NODE = { path: 'C:\\Program Files\\nodejs\\node.exe', electron: false };
const WIN = { platform: 'win32' as const, node: NODE };
const REPORTER = reporterCommandPath(HOME, 'win32');
const AGENTS = Object.keys(HOOK_TABLES) as JsonHookAgent[];

const handler = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });
const group = (command: string) => ({ hooks: [handler(command)] });

/** Users' Windows hooks that look like Agent Lens's lines and are not. */
function lookalikes(): string[] {
  const ours = windowsHookLine('powershell', { node: NODE.path, electron: false, script: REPORTER }, 'claude-code', false);
  const script = { node: NODE.path, electron: false };
  return [
    `& '${NODE.path}' '${REPORTER}' claude-code`,
    ours.replace('claude-code', 'claude-code; Remove-Item x'),
    ours.replace('report.cjs', 'my-report.cjs'),
    ours.replace('.agent-lens', 'tools'),
    ours.replace('\\bin\\', '\\scripts\\'),
    ours.replace('exit 0', 'exit 0; calc'),
    windowsHookLine('powershell', { ...script, script: 'C:\\Users\\x\\.agent-lens\\bin\\..\\bin\\report.cjs' }, 'codex', false),
    windowsHookLine('powershell', { ...script, script: 'bin\\report.cjs' }, 'codex', true),
    windowsHookLine('cmd', { ...script, script: 'C:\\Users\\x\\.agent-lens\\bin\\report.js' }, 'droid', false),
    windowsHookLine('cmd', { ...script, script: REPORTER }, 'droid', false).replace(' droid)', ' droid --verbose)'),
  ];
}

describe('install: Windows hook lines', () => {
  it('each agent’s lines are in its Windows shell, name Node and the script, and parse as ours', () => {
    for (const agent of AGENTS) {
      const choice = HOOK_SHELLS[agent].win32;
      for (const e of hookEntries(agent, REPORTER, WIN)) {
        const parsed = parseOurCommand(e.command);
        assert.ok(parsed, `${agent} ${e.event}: ${e.command}`);
        assert.strictEqual(parsed.shell, choice.shell, e.command);
        assert.strictEqual(parsed.home, HOME, e.command);
        assert.strictEqual(parsed.node, NODE.path, e.command);
        assert.strictEqual(parsed.agent, agent);
        assert.strictEqual(parsed.gated, HOOK_TABLES[agent].rows.find((r) => r.event === e.event && r.matcher === e.matcher)!.gated);
        assert.deepStrictEqual(e.fields, choice.fields, `${agent}: the fields that pick the shell`);
        assert.ok(isOurHandler(handler(e.command, e.fields ?? {}), ownEntries()), e.command);
      }
    }
    // The answering hook runs permission.cjs beside report.cjs; POSIX hosts get no Windows fields.
    const claude = hookEntries('claude-code', REPORTER, WIN);
    assert.match(claude.find((e) => e.event === 'PermissionRequest')!.command, /\\bin\\permission\.cjs' claude-code/);
    assert.deepStrictEqual(claude.find((e) => e.event === 'Stop')!.fields, { shell: 'powershell' });
    assert.ok(hookEntries('claude-code', '/h/.agent-lens/bin/agent-lens-report', { platform: 'darwin' }).every((e) => !e.fields));
  });

  it('reads no lookalike as ours', () => {
    for (const c of lookalikes()) {
      const parsed = parseOurCommand(c);
      assert.ok(!parsed || !isOurHandler(handler(c), ownEntries()), c);
    }
  });

  describe('a settings file on Windows: install, reinstall, uninstall', () => {
    let tmp: string;
    let env: NodeJS.ProcessEnv;
    beforeEach(() => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'al-win-entries-'));
      env = { AGENT_LENS_HOME: path.join(tmp, 'lens'), CLAUDE_CONFIG_DIR: path.join(tmp, 'claude') };
    });
    afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

    const target = (node = NODE): HookTarget =>
      hookTargets({ env, home: tmp, reporter: REPORTER, opencodePluginSource: '', hermesSources: [], platform: 'win32', node }).find(
        (t) => t.agent === 'claude-code',
      )!;

    /** The user's settings; `old`: with an older POSIX line of this same home, Agent Lens's (a dotfile that came along). */
    function userFile(old = true): string {
      const l = lookalikes();
      const text = `${JSON.stringify(
        {
          theme: 'dark',
          hooks: {
            Stop: l.slice(0, 5).map(group),
            PostToolUse: [{ matcher: '*', hooks: l.slice(5).map((c) => handler(c)) }],
            ...(old ? { SessionEnd: [group(hookCommand('/home/u/.agent-lens/bin/agent-lens-report', 'claude-code', false))] } : {}),
          },
        },
        null,
        2,
      )}\n`;
      fs.mkdirSync(path.join(tmp, 'claude'), { recursive: true });
      fs.writeFileSync(path.join(tmp, 'claude', 'settings.json'), text);
      return text;
    }

    const commandsIn = (file: string): string[] =>
      Object.values((JSON.parse(fs.readFileSync(file, 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> }).hooks)
        .flat()
        .flatMap((g) => g.hooks.map((h) => h.command));

    it('writes the Windows lines beside the user’s hooks, replaces the old POSIX one, and gives the user’s bytes back', () => {
      const theirs = userFile(false);
      userFile();
      const t = target();
      assert.strictEqual(t.status().state, 'outdated', 'an older line of ours is there');
      assert.strictEqual(t.install(), true);
      assert.strictEqual(t.status().state, 'installed');
      const commands = commandsIn(t.path);
      for (const c of lookalikes()) assert.ok(commands.includes(c), `the user's hook stays: ${c}`);
      assert.ok(!commands.some((c) => c.startsWith('exec ')), 'the POSIX line of ours is replaced');
      const ours = hookEntries('claude-code', REPORTER, WIN).map((e) => e.command);
      assert.deepStrictEqual(
        commands.filter((c) => !lookalikes().includes(c)),
        commands.filter((c) => ours.includes(c)),
      );
      const written = fs.readFileSync(t.path, 'utf8');
      assert.match(written, /"shell": "powershell"/);
      assert.strictEqual(t.install(), false, 'reinstalled: nothing to change');
      assert.strictEqual(t.uninstall(), true);
      assert.strictEqual(fs.readFileSync(t.path, 'utf8'), theirs, 'uninstall gives back the file without anything of ours');
      assert.strictEqual(t.status().state, 'absent');
    });

    it('a new Node path makes the lines outdated; reinstall replaces them in place; a changed file keeps the user’s part', () => {
      userFile();
      target().install();
      const moved = target({ path: 'D:\\tools\\node\\node.exe', electron: false });
      assert.strictEqual(moved.status().state, 'outdated');
      assert.strictEqual(moved.install(), true);
      assert.strictEqual(moved.status().state, 'installed');
      const count = commandsIn(moved.path).filter((c) => c.includes('D:\\tools\\node\\node.exe')).length;
      assert.strictEqual(count, HOOK_TABLES['claude-code'].rows.length, 'one line per row, none twice');
      // The user edits the file: uninstall removes only what is ours.
      const edited = fs.readFileSync(moved.path, 'utf8').replace('"theme": "dark"', '"theme": "light"');
      fs.writeFileSync(moved.path, edited);
      assert.strictEqual(moved.uninstall(), true);
      assert.deepStrictEqual(commandsIn(moved.path).sort(), lookalikes().sort());
      assert.match(fs.readFileSync(moved.path, 'utf8'), /"theme": "light"/);
    });
  });
});
