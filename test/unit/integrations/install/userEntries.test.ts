import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as agents from '../../../../src/integrations/install/agents';
import { hookEntries, type JsonHookAgent } from '../../../../src/integrations/install/hookTable';
import { addHooks, installedState, removeHooks } from '../../../../src/integrations/install/jsonHooks';
import { backupPath, installInto, uninstallFrom } from '../../../../src/integrations/install/settingsFile';
import { hookTargets } from '../../../../src/integrations/install/targets';
import { uninstallAll } from '../../../../src/integrations/install/uninstallAll';
import { shellQuote } from '../../../../src/common/shellQuote';
import { ROOT } from '../../helpers';

/**
 * The installers take out and replace only the hook entries Agent Lens itself wrote. A user's hook that merely
 * mentions the reporter's name survives install, uninstall and reinstall to the byte, and the backup is the
 * file as it was, so uninstalling an untouched file gives back the original bytes.
 */

const REPORTER = '/home/u/.agent-lens/bin/agent-lens-report';
/** The first lines of the plugin files Agent Lens ships (esbuild.mjs's banner, resources/hermes). */
const OPENCODE_BANNER =
  '// agent-lens-report plugin for OpenCode: written by Agent Lens; remove it with "Agent Lens: Uninstall Agent Hooks".';
const HERMES_BANNER = '# agent-lens-report plugin for Hermes: written by Agent Lens; remove it with "Agent Lens: Uninstall Agent Hooks".';
const GATE = 'if [ -e "${AGENT_LENS_HUB%/*}/waiting/$PPID" ]; then exec';

/** Users' hooks that look like ours and are not: each must come through every install and uninstall untouched. */
const LOOKALIKES = [
  '~/bin/post-agent-lens-report-to-slack.sh',
  `exec ${REPORTER}-wrapper claude-code`,
  '/home/u/bin/agent-lens-report-wrapper --agent claude',
  `echo exec ${REPORTER} claude`,
  `echo exec ${REPORTER} claude-code`,
  'exec /usr/local/bin/agent-lens-report claude-code',
  'exec /home/u/tools/agent-lens-report claude-code',
  `exec ${REPORTER} claude-code; notify-send done`,
  `exec ${REPORTER} claude`,
  ` exec ${REPORTER} claude-code`,
  `exec ${REPORTER} claude-code `,
  `exec '${REPORTER}' claude-code`,
  'exec /home/u/.agent-lens/../.agent-lens/bin/agent-lens-report claude-code',
  'exec home/u/.agent-lens/bin/agent-lens-report claude-code',
  `bash -c 'exec ${REPORTER} claude-code'`,
  `${GATE} ${REPORTER} claude-code; else cat >/dev/null; fi; exit 0; rm -f ~/x`,
];

const handler = (command: string) => ({ type: 'command', command });
const group = (command: string) => ({ hooks: [handler(command)] });

/** A settings file whose hooks are all the user's: lookalikes in events Agent Lens writes to and in others. */
function userSettings(): Record<string, unknown> {
  return {
    model: 'opus',
    hooks: {
      SessionStart: [group(LOOKALIKES[0]), { matcher: 'startup', hooks: LOOKALIKES.slice(1, 6).map(handler) }],
      Stop: LOOKALIKES.slice(6, 11).map(group),
      PostToolUse: [{ matcher: '*', hooks: LOOKALIKES.slice(11).map(handler) }],
      AfterTool: [group(LOOKALIKES[3])],
    },
  };
}
const USER_TEXT = `${JSON.stringify(userSettings(), null, 2)}\n`;

const parse = (text: string) => JSON.parse(text) as { hooks: Record<string, unknown[]> } & Record<string, unknown>;
const AGENTS: JsonHookAgent[] = ['claude-code', 'codex', 'gemini', 'copilot'];

let tmp: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-own-'));
  env = { AGENT_LENS_HOME: path.join(tmp, 'lens') };
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** Every user group of `before` is still in `after`, in its event, in the same order, with the same content. */
function assertUserGroupsKept(after: string, label: string): void {
  const [want, got] = [parse(USER_TEXT).hooks, parse(after).hooks];
  for (const [event, groups] of Object.entries(want))
    assert.deepStrictEqual(got[event]?.slice(0, groups.length), groups, `${label}: ${event}`);
}

describe('install: a user hook that merely mentions agent-lens-report is the user’s', () => {
  it('addHooks keeps every lookalike, reinstalling changes nothing, removeHooks gives back the bytes', () => {
    for (const a of AGENTS) {
      const entries = hookEntries(a, REPORTER);
      assert.strictEqual(installedState(USER_TEXT, entries), 'absent', `${a}: nothing of ours in a file of lookalikes`);
      assert.strictEqual(removeHooks(USER_TEXT), USER_TEXT, `${a}: uninstall of a file of lookalikes`);
      const once = addHooks(USER_TEXT, entries);
      assertUserGroupsKept(once, a);
      assert.strictEqual(addHooks(once, entries), once, `${a}: reinstall`);
      assert.strictEqual(installedState(once, entries), 'installed', a);
      assert.strictEqual(removeHooks(once), USER_TEXT, `${a}: uninstall after install`);
    }
  });

  it('a lookalike a user put into a group of ours stays when ours goes', () => {
    const entries = hookEntries('claude-code', REPORTER);
    const v = parse(addHooks('{}', entries));
    for (const g of v.hooks.Stop as { hooks: unknown[] }[]) g.hooks.push(handler(LOOKALIKES[0]), handler(LOOKALIKES[5]));
    const text = JSON.stringify(v, null, 2);
    assert.deepStrictEqual(parse(removeHooks(text)).hooks, { Stop: [{ hooks: [handler(LOOKALIKES[0]), handler(LOOKALIKES[5])] }] });
    const again = parse(addHooks(text, entries)).hooks.Stop as { hooks: { command: string }[] }[];
    assert.deepStrictEqual(
      again[0].hooks.map((h) => h.command),
      [LOOKALIKES[0], LOOKALIKES[5]],
    );
  });

  it('settings file: the backup is the file as it was, and install, uninstall and reinstall keep the lookalikes to the byte', () => {
    for (const a of AGENTS) {
      const file = path.join(tmp, a, 'settings.json');
      write(file, USER_TEXT);
      const entries = hookEntries(a, REPORTER);
      for (const round of [1, 2]) {
        assert.strictEqual(installInto(file, entries, { env }), true, `${a} install ${round}`);
        assert.strictEqual(fs.readFileSync(backupPath(file), 'utf8'), USER_TEXT, `${a}: the backup is the original, lookalikes included`);
        assertUserGroupsKept(fs.readFileSync(file, 'utf8'), `${a} installed ${round}`);
        assert.strictEqual(uninstallFrom(file, { env }), true, `${a} uninstall ${round}`);
        assert.strictEqual(fs.readFileSync(file, 'utf8'), USER_TEXT, `${a}: uninstall of an untouched file restores the original bytes`);
      }
    }
  });

  it('settings file changed after install: the structural removal keeps the lookalikes and the change', () => {
    const file = path.join(tmp, 'settings.json');
    write(file, USER_TEXT);
    installInto(file, hookEntries('claude-code', REPORTER), { env });
    const edited = `${fs.readFileSync(file, 'utf8').trimEnd().slice(0, -1).trimEnd()},\n  "theme": "dark"\n}\n`;
    fs.writeFileSync(file, edited);
    uninstallFrom(file, { env });
    assert.deepStrictEqual(parse(fs.readFileSync(file, 'utf8')), { ...userSettings(), theme: 'dark' });
  });

  it('vscode:uninstall (uninstallAll) leaves a never-installed file of lookalikes alone, and restores it after an install', () => {
    const home = path.join(tmp, 'home');
    const envHome = { HOME: home, AGENT_LENS_HOME: path.join(home, '.agent-lens') };
    const claude = path.join(home, '.claude', 'settings.json');
    write(claude, USER_TEXT);
    assert.deepStrictEqual(uninstallAll(envHome, home), { removed: [], failed: [] });
    assert.strictEqual(fs.readFileSync(claude, 'utf8'), USER_TEXT);
    const ctx = {
      env: envHome,
      home,
      reporter: path.join(home, '.agent-lens/bin/agent-lens-report'),
      opencodePluginSource: '',
      hermesSources: [],
    };
    hookTargets(ctx)
      .find((t) => t.agent === 'claude-code')!
      .install();
    assert.deepStrictEqual(uninstallAll(envHome, home).removed, [claude]);
    assert.strictEqual(fs.readFileSync(claude, 'utf8'), USER_TEXT);
  });
});

describe('install: entries older versions wrote are still found and replaced', () => {
  /** What versions of Agent Lens wrote, elsewhere or earlier: other accounts' homes, a quoted path, this home. */
  function oldEntries(): string {
    const here = path.join(env.AGENT_LENS_HOME!, 'bin', 'agent-lens-report');
    const other = '/Users/jane/.agent-lens/bin/agent-lens-report';
    const spaced = '/home/Jane Doe/.agent-lens/bin/agent-lens-report';
    const v = parse(addHooks(USER_TEXT, hookEntries('claude-code', other)));
    const quoted = (agent: string) => `exec ${shellQuote(spaced)} ${agent}`;
    v.hooks.Notification.push(group(quoted('claude-code')));
    v.hooks.SessionStart.push(group(`exec ${here} claude-code`), group(`${GATE} ${here} claude-code; else cat >/dev/null; fi; exit 0`));
    (v.hooks.Stop as { hooks: unknown[] }[]).push({ hooks: [handler('say done'), handler(quoted('claude-code'))] });
    return `${JSON.stringify(v, null, 2)}\n`;
  }

  it('an install replaces them (the user’s lookalikes stay), and an uninstall leaves none', () => {
    const file = path.join(tmp, 'settings.json');
    write(file, oldEntries());
    const entries = hookEntries('claude-code', REPORTER);
    installInto(file, entries, { env });
    const after = fs.readFileSync(file, 'utf8');
    assert.strictEqual(installedState(after, entries), 'installed');
    assertUserGroupsKept(after, 'after install');
    const stop = parse(after).hooks.Stop as { hooks: { command: string }[] }[];
    assert.deepStrictEqual(
      stop
        .map((g) => g.hooks.map((h) => h.command))
        .flat()
        .filter((c) => c.includes('Jane')),
      [],
      'a mixed group loses only ours',
    );
    assert.ok(stop.some((g) => g.hooks.length === 1 && g.hooks[0].command === 'say done'));
    assert.strictEqual(fs.readFileSync(backupPath(file), 'utf8'), oldEntries(), 'the backup is the file as it was');
    uninstallFrom(file, { env });
    const left = fs.readFileSync(file, 'utf8');
    assertUserGroupsKept(left, 'after uninstall');
    const commands = Object.values(parse(left).hooks)
      .flat()
      .flatMap((g) => (g as { hooks: { command: string }[] }).hooks.map((h) => h.command));
    assert.deepStrictEqual(
      commands.filter((c) => !LOOKALIKES.includes(c) && c !== 'say done'),
      [],
      'nothing of ours is left',
    );
  });

  it('Gemini: an entry named agent-lens with the exact command is ours wherever its home was', () => {
    const moved = { name: 'agent-lens', type: 'command', command: 'exec /opt/al/bin/agent-lens-report gemini', timeout: 10_000 };
    const text = JSON.stringify(
      { hooks: { AfterAgent: [{ hooks: [moved] }], BeforeAgent: [group('exec /opt/al/bin/agent-lens-report gemini')] } },
      null,
      2,
    );
    const entries = hookEntries('gemini', REPORTER);
    const out = parse(addHooks(text, entries));
    assert.ok(!JSON.stringify(out.hooks.AfterAgent).includes('/opt/al'), 'the named entry was replaced');
    assert.deepStrictEqual(
      out.hooks.BeforeAgent[0],
      group('exec /opt/al/bin/agent-lens-report gemini'),
      'without the name and in another home it is not ours',
    );
  });
});

describe('install: plugin files are Agent Lens’s only by their exact first line', () => {
  const banner = (f: string) => fs.readFileSync(f, 'utf8').split('\n')[0];

  it('the shipped plugins start with a banner the installer knows', () => {
    assert.deepStrictEqual(agents.PLUGIN_BANNERS, [OPENCODE_BANNER, HERMES_BANNER]);
    const hermes = path.join(ROOT, 'resources', 'hermes', 'agent-lens');
    for (const f of fs.readdirSync(hermes).filter((n) => /\.(py|yaml)$/.test(n)))
      assert.strictEqual(banner(path.join(hermes, f)), HERMES_BANNER, f);
    assert.strictEqual(banner(path.join(ROOT, 'src', 'integrations', 'plugins', 'opencode.ts')), OPENCODE_BANNER);
    assert.ok(fs.readFileSync(path.join(ROOT, 'esbuild.mjs'), 'utf8').includes(`banner: { js: '${OPENCODE_BANNER}' }`));
  });

  it('OpenCode: a user’s file at our path whose first line mentions the mark is neither overwritten nor deleted', () => {
    const source = path.join(tmp, 'opencode-plugin.js');
    write(source, `${OPENCODE_BANNER}\nexport const A = 1;\n`);
    const plugin = agents.opencodePlugin(source, {}, tmp);
    const mine = `// my wrapper around the ${agents.PLUGIN_MARK} output\nexport const Mine = 1;\n`;
    write(plugin.files[0].target, mine);
    assert.strictEqual(agents.pluginState(plugin), 'absent');
    assert.throws(() => agents.installPlugin(plugin), /did not write it/);
    assert.throws(() => agents.uninstallPlugin(plugin), /did not write it/);
    assert.strictEqual(fs.readFileSync(plugin.files[0].target, 'utf8'), mine);
  });

  it('Hermes: a user’s file in the folder whose first line mentions the mark is not a leftover of ours', () => {
    const src = path.join(tmp, 'src', '__init__.py');
    write(src, `${HERMES_BANNER}\ndef register(ctx): pass\n`);
    const plugin = agents.hermesPlugin([src], { HERMES_HOME: path.join(tmp, 'hermes') }, tmp);
    const notes = path.join(plugin.dir!, 'notes.py');
    write(notes, `# notes on the ${agents.PLUGIN_MARK} for Hermes\n`);
    agents.installPlugin(plugin);
    assert.strictEqual(agents.pluginState(plugin), 'installed');
    agents.uninstallPlugin(plugin);
    assert.deepStrictEqual(fs.readdirSync(plugin.dir!), ['notes.py']);
  });
});
