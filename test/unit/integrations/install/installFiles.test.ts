import * as assert from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as agents from '../../../../src/integrations/install/agents';
import { hookEntries } from '../../../../src/integrations/install/hookTable';
import { addHooks, InstallError } from '../../../../src/integrations/install/jsonHooks';
import { backupPath, fileState, installInto, recordPath, uninstallFrom } from '../../../../src/integrations/install/settingsFile';
import { hookTargets } from '../../../../src/integrations/install/targets';
import { forAll, hooksOf, ours, parse, REPORTER, settings, write } from './settingsArb';

let tmp: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-install-'));
  env = { AGENT_LENS_HOME: path.join(tmp, 'lens') };
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('install: settings files', () => {
  it('uninstall after install restores the original bytes and mode, and leaves no bookkeeping', () => {
    forAll(
      fc.tuple(settings, fc.constantFrom(0o600, 0o640, 0o644)),
      ([s, mode], a) => {
        const file = path.join(tmp, `${a}-${Math.random()}`, 'settings.json');
        write(file, s.text, mode);
        const entries = hookEntries(a, REPORTER);
        assert.strictEqual(installInto(file, entries, { env }), true);
        assert.strictEqual(fs.statSync(file).mode & 0o777, mode);
        assert.strictEqual(fileState(file, entries), 'installed');
        const installed = fs.readFileSync(file);
        assert.strictEqual(installInto(file, entries, { env }), false);
        assert.ok(fs.readFileSync(file).equals(installed));
        assert.strictEqual(uninstallFrom(file, { env }), true);
        assert.strictEqual(fs.readFileSync(file, 'utf8'), s.text);
        assert.strictEqual(fs.statSync(file).mode & 0o777, mode);
        assert.ok(!fs.existsSync(backupPath(file)) && !fs.existsSync(recordPath(file, env)));
      },
      60,
    );
  });

  it('creates a missing file with its folder, and deletes it again', () => {
    const file = path.join(tmp, 'new', 'dir', 'hooks.json');
    const entries = hookEntries('codex', REPORTER);
    assert.strictEqual(installInto(file, entries, { env }), true);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), addHooks(undefined, entries));
    assert.ok(!fs.existsSync(backupPath(file)));
    assert.strictEqual(uninstallFrom(file, { env }), true);
    assert.ok(!fs.existsSync(file));
    assert.strictEqual(uninstallFrom(file, { env }), false);
  });

  it('keeps a user’s edit made after install, and removes ours', () => {
    forAll(
      settings,
      (s, a) => {
        const file = path.join(tmp, `${a}-${Math.random()}.json`);
        write(file, s.text);
        const entries = hookEntries(a, REPORTER);
        installInto(file, entries, { env });
        const edited = parse(fs.readFileSync(file, 'utf8'));
        edited.addedLater = [1, 2];
        const user = { hooks: [{ type: 'command', command: 'added-later' }] };
        const h = hooksOf(edited);
        h.Stop = [...(h.Stop ?? []), user];
        write(file, JSON.stringify(edited, null, 2));
        uninstallFrom(file, { env });
        const out = parse(fs.readFileSync(file, 'utf8'));
        assert.deepStrictEqual(out.addedLater, [1, 2]);
        assert.deepStrictEqual(hooksOf(out).Stop, [...(hooksOf(s.value).Stop ?? []), user]);
        assert.ok(!Object.values(hooksOf(out)).flat().some(ours));
        for (const [k, v] of Object.entries(s.value)) if (k !== 'hooks') assert.deepStrictEqual(out[k], v);
      },
      40,
    );
  });

  it('an update keeps the pre-install original for uninstall', () => {
    const file = path.join(tmp, 'settings.json');
    const original = '{\n    "model": "opus"\n}';
    write(file, original);
    installInto(file, hookEntries('claude-code', '/old/agent-lens-report'), { env });
    assert.strictEqual(fileState(file, hookEntries('claude-code', REPORTER), env), 'outdated');
    assert.strictEqual(installInto(file, hookEntries('claude-code', REPORTER), { env }), true);
    assert.strictEqual(fileState(file, hookEntries('claude-code', REPORTER), env), 'installed');
    assert.strictEqual(fs.readFileSync(backupPath(file), 'utf8'), original);
    uninstallFrom(file, { env });
    assert.strictEqual(fs.readFileSync(file, 'utf8'), original);
  });

  it('never writes an invalid file: bytes, mtime and bookkeeping untouched', () => {
    for (const text of ['{"a": 1,}', '{"hooks": {"Stop": 3}}', '[]', 'nope']) {
      const file = path.join(tmp, 'settings.json');
      write(file, text);
      const past = new Date(Date.now() - 3600_000);
      fs.utimesSync(file, past, past);
      const mtime = fs.statSync(file).mtimeMs;
      assert.throws(
        () => installInto(file, hookEntries('codex', REPORTER), { env }),
        (e: unknown) => e instanceof InstallError && e.message.includes(file),
      );
      if (text !== '{"hooks": {"Stop": 3}}') assert.throws(() => uninstallFrom(file, { env }), InstallError);
      assert.strictEqual(fs.readFileSync(file, 'utf8'), text);
      assert.strictEqual(fs.statSync(file).mtimeMs, mtime);
      assert.deepStrictEqual(fs.readdirSync(tmp).sort(), ['settings.json']);
    }
  });

  it('edits a symlinked settings file where it points', () => {
    const real = path.join(tmp, 'dotfiles', 'claude.json');
    write(real, '{"a": 1}');
    const link = path.join(tmp, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(link));
    fs.symlinkSync(real, link);
    installInto(link, hookEntries('claude-code', REPORTER), { env });
    assert.ok(fs.lstatSync(link).isSymbolicLink());
    assert.strictEqual(fileState(real, hookEntries('claude-code', REPORTER)), 'installed');
    uninstallFrom(link, { env });
    assert.strictEqual(fs.readFileSync(real, 'utf8'), '{"a": 1}');
  });

  it('falls back to the structural removal when the backup was tampered with or the record is gone', () => {
    const file = path.join(tmp, 'settings.json');
    const entries = hookEntries('codex', REPORTER);
    write(file, '{"a": 1}');
    installInto(file, entries, { env });
    fs.writeFileSync(backupPath(file), '{"evil": true}');
    uninstallFrom(file, { env });
    assert.strictEqual(fs.readFileSync(file, 'utf8'), '{"a": 1}');
    installInto(file, entries, { env });
    fs.rmSync(path.join(env.AGENT_LENS_HOME!, 'installs'), { recursive: true });
    assert.strictEqual(installInto(file, entries, { env }), false, 'already installed: nothing to write');
    uninstallFrom(file, { env });
    assert.strictEqual(fs.readFileSync(file, 'utf8'), '{"a": 1}');
    assert.ok(!fs.existsSync(backupPath(file)));
  });
});

describe('install: agent targets', () => {
  it('follows each agent’s config folder variables', () => {
    const h = '/h';
    const cases: [string, string][] = [
      [agents.claudeSettingsFile({}, h), '/h/.claude/settings.json'],
      [agents.claudeSettingsFile({ CLAUDE_CONFIG_DIR: '/c' }, h), '/c/settings.json'],
      [agents.codexUserHooksFile({}, h), '/h/.codex/hooks.json'],
      [agents.codexUserHooksFile({ CODEX_HOME: '/x' }, h), '/x/hooks.json'],
      [agents.geminiSettingsFile({}, h), '/h/.gemini/settings.json'],
      [agents.geminiSettingsFile({ GEMINI_CLI_HOME: '/g' }, h), '/g/.gemini/settings.json'],
      [agents.opencodePluginFile({}, h), '/h/.config/opencode/plugin/agent-lens.js'],
      [agents.opencodePluginFile({ XDG_CONFIG_HOME: '/x' }, h), '/x/opencode/plugin/agent-lens.js'],
      [agents.opencodePluginFile({ OPENCODE_CONFIG_DIR: '/o', XDG_CONFIG_HOME: '/x' }, h), '/o/plugin/agent-lens.js'],
      [agents.opencodePluginFile({}, h, 'kilocode'), '/h/.config/kilo/plugin/agent-lens.js'],
      [agents.opencodePluginFile({ XDG_CONFIG_HOME: '/x' }, h, 'kilocode'), '/x/kilo/plugin/agent-lens.js'],
      [
        agents.opencodePluginFile({ KILO_CONFIG_DIR: '/k', OPENCODE_CONFIG_DIR: '/o', XDG_CONFIG_HOME: '/x' }, h, 'kilocode'),
        '/k/plugin/agent-lens.js',
      ],
      [agents.hermesPluginTarget({}, h), '/h/.hermes/plugins/agent-lens'],
      [agents.hermesPluginTarget({ HERMES_HOME: '/m' }, h), '/m/plugins/agent-lens'],
    ];
    for (const [got, want] of cases) assert.strictEqual(got, want);
  });

  it('tells whether the system hooks folder (or its parent) is writable', () => {
    assert.strictEqual(agents.systemWritable(path.join(tmp, 'codex', 'hooks.json')), true);
    fs.mkdirSync(path.join(tmp, 'ro'), { mode: 0o500 });
    assert.strictEqual(
      agents.systemWritable(path.join(tmp, 'ro', 'codex', 'hooks.json')),
      process.getuid?.() === 0,
      'root may write anywhere',
    );
    write(path.join(tmp, 'a-file'), '');
    assert.throws(
      () => installInto(path.join(tmp, 'a-file', 'hooks.json'), hookEntries('codex', REPORTER), { env }),
      (e) => e instanceof InstallError && /^Cannot (read|change) .*\((ENOTDIR|EEXIST)\)/.test(e.message),
    );
  });
});

describe('install: plugin files', () => {
  const src = (name: string, body: string, comment = '//'): string => {
    const f = path.join(tmp, 'src', name);
    write(f, `${comment === '#' ? agents.PLUGIN_BANNERS[1] : agents.PLUGIN_BANNERS[0]}\n${body}\n`);
    return f;
  };

  it('OpenCode: installs, reports outdated, reinstalls, uninstalls', () => {
    const plugin = agents.opencodePlugin(src('opencode-plugin.js', 'export const A = 1;'), {}, tmp);
    const target = plugin.files[0].target;
    assert.strictEqual(agents.pluginState(plugin), 'absent');
    assert.strictEqual(agents.installPlugin(plugin), true);
    assert.strictEqual(agents.pluginState(plugin), 'installed');
    assert.strictEqual(agents.installPlugin(plugin), false);
    fs.writeFileSync(target, `${agents.PLUGIN_BANNERS[0]}\nexport const A = 0;\n`);
    assert.strictEqual(agents.pluginState(plugin), 'outdated');
    agents.installPlugin(plugin);
    assert.ok(fs.readFileSync(target).equals(fs.readFileSync(plugin.files[0].source)));
    fs.writeFileSync(path.join(path.dirname(target), 'mine.js'), 'export const M = 1;\n');
    assert.strictEqual(agents.uninstallPlugin(plugin), true);
    assert.ok(!fs.existsSync(target));
    assert.deepStrictEqual(fs.readdirSync(path.dirname(target)), ['mine.js'], 'the shared folder and its other plugins stay');
    assert.strictEqual(agents.uninstallPlugin(plugin), false);
  });

  it('OpenCode: never overwrites or deletes a user’s file of the same name', () => {
    const plugin = agents.opencodePlugin(src('opencode-plugin.js', 'export const A = 1;'), {}, tmp);
    write(plugin.files[0].target, 'export const Mine = 1;\n');
    assert.strictEqual(agents.pluginState(plugin), 'absent');
    assert.throws(
      () => agents.installPlugin(plugin),
      (e: unknown) => e instanceof InstallError && /did not write it.*move or rename it/.test(e.message),
    );
    assert.throws(
      () => agents.uninstallPlugin(plugin),
      (e: unknown) => e instanceof InstallError && /remove it yourself/.test(e.message),
    );
    assert.strictEqual(fs.readFileSync(plugin.files[0].target, 'utf8'), 'export const Mine = 1;\n');
    write(path.join(tmp, 'plain.js'), 'export {};\n');
    assert.throws(
      () => agents.installPlugin(agents.opencodePlugin(path.join(tmp, 'plain.js'), {}, tmp)),
      /must start with one of the banners/,
      'an unmarked source could never be uninstalled',
    );
  });

  it('Kilo: the same plugin through its hook target, in Kilo’s plugin folder only; uninstall gives back every byte', () => {
    const source = src('opencode-plugin.js', 'export const A = 1;');
    const env = { XDG_CONFIG_HOME: path.join(tmp, 'cfg') };
    const kiloDir = path.join(tmp, 'cfg', 'kilo');
    write(path.join(kiloDir, 'kilo.json'), '{ "model": "mock/mock-model" }\n');
    write(path.join(kiloDir, 'plugin', 'mine.js'), 'export const Mine = 1;\n');
    const tree = (d: string): [string, string][] =>
      fs.existsSync(d)
        ? fs
            .readdirSync(d, { recursive: true, encoding: 'utf8' })
            .sort()
            .map((f) => {
              const p = path.join(d, f);
              return [f, fs.statSync(p).isDirectory() ? '<dir>' : fs.readFileSync(p, 'base64')];
            })
        : [];
    const before = tree(path.join(tmp, 'cfg'));
    const targets = hookTargets({ env, home: tmp, reporter: REPORTER, opencodePluginSource: source, hermesSources: [] });
    const kilo = targets.find((t) => t.agent === 'kilocode')!;
    const opencode = targets.find((t) => t.agent === 'opencode')!;
    assert.strictEqual(kilo.path, path.join(kiloDir, 'plugin', 'agent-lens.js'));
    assert.strictEqual(kilo.status().state, 'absent');
    assert.strictEqual(kilo.install(), true);
    assert.strictEqual(kilo.status().state, 'installed');
    assert.ok(fs.readFileSync(kilo.path).equals(fs.readFileSync(source)), 'the OpenCode bundle, unchanged');
    assert.strictEqual(opencode.status().state, 'absent', 'OpenCode’s folder is not touched');
    assert.ok(!fs.existsSync(path.join(tmp, 'cfg', 'opencode')));
    assert.strictEqual(kilo.uninstall(), true);
    assert.deepStrictEqual(tree(path.join(tmp, 'cfg')), before);
    assert.strictEqual(kilo.status().state, 'absent');
    const elsewhere = hookTargets(
      { env, home: tmp, reporter: REPORTER, opencodePluginSource: source, hermesSources: [] },
      { kilocode: '/k' },
    );
    assert.strictEqual(
      elsewhere.find((t) => t.agent === 'kilocode')!.path,
      '/k/plugin/agent-lens.js',
      'a Kilo started with KILO_CONFIG_DIR',
    );
  });

  it('Hermes: a folder of ours, with leftovers of older versions and compiled files cleaned up', () => {
    const files = [src('__init__.py', 'def register(ctx): pass', '#'), src('plugin.yaml', 'name: agent-lens', '#')];
    const plugin = agents.hermesPlugin(files, { HERMES_HOME: path.join(tmp, 'hermes') }, tmp);
    const dir = plugin.dir!;
    write(path.join(dir, 'old.py'), `${agents.PLUGIN_BANNERS[1]}\n# v0\n`);
    assert.strictEqual(agents.pluginState(plugin), 'outdated');
    agents.installPlugin(plugin);
    assert.deepStrictEqual(fs.readdirSync(dir).sort(), ['__init__.py', 'plugin.yaml']);
    assert.strictEqual(agents.pluginState(plugin), 'installed');
    fs.rmSync(path.join(dir, 'plugin.yaml'));
    assert.strictEqual(agents.pluginState(plugin), 'partial');
    agents.installPlugin(plugin);
    write(path.join(dir, '__pycache__', '__init__.cpython-311.pyc'), 'x');
    assert.strictEqual(agents.uninstallPlugin(plugin), true);
    assert.ok(!fs.existsSync(dir));
    agents.installPlugin(plugin);
    write(path.join(dir, 'notes.txt'), 'mine');
    agents.uninstallPlugin(plugin);
    assert.deepStrictEqual(fs.readdirSync(dir), ['notes.txt'], 'a user’s own file in the folder stays, and so does the folder');
  });
});
