import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { configDirOf } from '../../../../src/agents/registry';
import { OUR_COMMAND_MARK } from '../../../../src/integrations/commands';
import { type HookTarget, hookTargets } from '../../../../src/integrations/install/targets';
import { backupPath, recordPath } from '../../../../src/integrations/install/settingsFile';
import { REPORTER } from './settingsArb';

/**
 * Copilot CLI's hooks: a file of Agent Lens's own in its hooks folder (`$COPILOT_HOME/hooks/agent-lens.json`), in
 * Claude Code's nested shape under the PascalCase event names, which make Copilot send payloads that name their event
 * (test/fixtures/live/copilot/FACTS.md §7). Created by install, deleted by uninstall; a same-named file of the
 * user's is merged into and given back to the byte; the folder's other hook files are never touched.
 */
let tmp: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-copilot-'));
  env = { AGENT_LENS_HOME: path.join(tmp, 'lens'), COPILOT_HOME: path.join(tmp, 'cp') };
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function target(e: NodeJS.ProcessEnv = env, dirs = {}): HookTarget {
  // POSIX lines (they name the reporter wrapper, checked below); Windows lines: windowsHookLines.test.ts.
  const ctx = {
    env: e,
    home: path.join(tmp, 'home'),
    reporter: REPORTER,
    opencodePluginSource: '',
    hermesSources: [],
    platform: 'linux' as const,
  };
  return hookTargets(ctx, dirs).find((t) => t.agent === 'copilot')!;
}

type Group = { matcher?: string; hooks: { type: string; command: string; timeout: number }[] };

describe('install: Copilot CLI hooks file', () => {
  it('lives in the hooks folder of $COPILOT_HOME, ~/.copilot without it, or the folder given for it', () => {
    assert.strictEqual(target().path, path.join(tmp, 'cp', 'hooks', 'agent-lens.json'));
    assert.strictEqual(
      target({ AGENT_LENS_HOME: env.AGENT_LENS_HOME }).path,
      path.join(tmp, 'home', '.copilot', 'hooks', 'agent-lens.json'),
    );
    assert.strictEqual(target(env, { copilot: '/elsewhere' }).path, '/elsewhere/hooks/agent-lens.json');
    assert.strictEqual(configDirOf('copilot', { COPILOT_HOME: '~/cfg' }, '/h'), '/h/cfg');
    assert.strictEqual(configDirOf('copilot', { COPILOT_HOME: '' }, '/h'), '/h/.copilot');
  });

  it('creates the file with PascalCase events in Claude Code’s shape, and deletes it again', () => {
    const t = target();
    const others = path.join(tmp, 'cp', 'hooks', 'team.json');
    fs.mkdirSync(path.dirname(others), { recursive: true });
    fs.writeFileSync(others, '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo hi"}]}]}}');
    assert.strictEqual(t.status().state, 'absent');
    assert.strictEqual(t.install(), true);
    assert.strictEqual(t.status().state, 'installed');
    const hooks = (JSON.parse(fs.readFileSync(t.path, 'utf8')) as { hooks: Record<string, Group[]> }).hooks;
    assert.deepStrictEqual(Object.keys(hooks).sort(), [
      'Notification',
      'PostToolUse',
      'PostToolUseFailure',
      'SessionEnd',
      'Stop',
      'UserPromptSubmit',
    ]);
    for (const [event, groups] of Object.entries(hooks)) {
      assert.strictEqual(groups.length, 1, event);
      // Tool events run for every tool without a matcher; only Notification narrows, by its notification type.
      assert.strictEqual(groups[0].matcher, event === 'Notification' ? 'permission_prompt' : undefined, event);
      const [h] = groups[0].hooks;
      assert.strictEqual(h.type, 'command');
      assert.strictEqual(h.timeout, 10);
      assert.ok(h.command.includes(`${OUR_COMMAND_MARK} copilot`), h.command);
    }
    assert.strictEqual(t.install(), false, 'installed twice: nothing to write');
    assert.strictEqual(t.uninstall(), true);
    assert.ok(!fs.existsSync(t.path));
    assert.ok(!fs.existsSync(backupPath(t.path)) && !fs.existsSync(recordPath(t.path, env)));
    assert.deepStrictEqual(fs.readdirSync(path.dirname(t.path)), ['team.json'], 'the user’s hook files stay');
    assert.strictEqual(t.status().state, 'absent');
    assert.strictEqual(t.uninstall(), false);
  });

  it('merges into a same-named file of the user’s and gives it back to the byte', () => {
    const t = target();
    const mine = '{\n  "version": 1,\n  "hooks": { "SessionStart": [ { "type": "command", "bash": "./hi.sh" } ] }\n}\n';
    fs.mkdirSync(path.dirname(t.path), { recursive: true });
    fs.writeFileSync(t.path, mine, { mode: 0o640 });
    assert.strictEqual(t.install(), true);
    const merged = JSON.parse(fs.readFileSync(t.path, 'utf8')) as { version: number; hooks: Record<string, unknown[]> };
    assert.strictEqual(merged.version, 1);
    assert.deepStrictEqual(merged.hooks.SessionStart, [{ type: 'command', bash: './hi.sh' }]);
    assert.strictEqual(t.status().state, 'installed');
    assert.strictEqual(t.uninstall(), true);
    assert.strictEqual(fs.readFileSync(t.path, 'utf8'), mine);
    assert.strictEqual(fs.statSync(t.path).mode & 0o777, 0o640);
  });

  it('reports hooks with another reporter path of ours as outdated, and replaces them', () => {
    const t = target();
    t.install();
    const moved = fs
      .readFileSync(t.path, 'utf8')
      .split(REPORTER)
      .join(path.join(env.AGENT_LENS_HOME!, 'bin', 'agent-lens-report'));
    fs.writeFileSync(t.path, moved);
    assert.strictEqual(t.status().state, 'outdated');
    assert.strictEqual(t.install(), true);
    assert.strictEqual(t.status().state, 'installed');
    assert.ok(!fs.readFileSync(t.path, 'utf8').includes(env.AGENT_LENS_HOME!));
  });
});
