import * as assert from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OUR_COMMAND_MARK } from '../../../../src/integrations/commands';
import * as agents from '../../../../src/integrations/install/agents';
import { hookEntries, type JsonHookAgent } from '../../../../src/integrations/install/hookTable';
import {
  addHooks,
  groupOf,
  type HookEntry,
  InstallError,
  installedState,
  removeHooks,
} from '../../../../src/integrations/install/jsonHooks';
import { backupPath, fileState, installInto, recordPath, uninstallFrom } from '../../../../src/integrations/install/settingsFile';

const REPORTER = '/home/u/.agent-lens/bin/agent-lens-report';
const AGENTS: JsonHookAgent[] = ['claude-code', 'codex', 'gemini'];
const EVENTS = ['PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd', 'Notification', 'AfterTool', 'BeforeEdit'];

let tmp: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-install-'));
  env = { AGENT_LENS_HOME: path.join(tmp, 'lens') };
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

// ---- generated settings files ---------------------------------------------------------------------------------

const key = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,8}$/).filter((k) => k !== 'hooks');
const leaf = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null));
const value = fc.oneof(leaf, fc.array(leaf, { maxLength: 3 }), fc.dictionary(key, leaf, { maxKeys: 3 }));
const userGroup = fc.record(
  {
    matcher: fc.constantFrom('*', 'Bash', 'Edit|Write'),
    hooks: fc.array(
      fc.record(
        { type: fc.constant('command'), command: fc.stringMatching(/^[a-z ./-]{1,20}$/), timeout: fc.nat(60) },
        { requiredKeys: ['type', 'command'] },
      ),
      { minLength: 1, maxLength: 2 },
    ),
  },
  { requiredKeys: ['hooks'] },
);
// Non-empty when present: a `hooks` object or event array that only ever held ours is dropped on removal.
const userHooks = fc.option(
  fc.dictionary(fc.constantFrom(...EVENTS), fc.array(userGroup, { minLength: 1, maxLength: 3 }), { minKeys: 1, maxKeys: 4 }),
  { nil: undefined },
);

const settings: fc.Arbitrary<{ text: string; value: Record<string, unknown> }> = fc
  .record({
    pairs: fc.uniqueArray(fc.tuple(key, value), { selector: (p) => p[0], maxLength: 5 }),
    hooks: userHooks,
    at: fc.nat(5),
    indent: fc.constantFrom('  ', '    ', '\t', ''),
    eol: fc.constantFrom('\n', '\r\n'),
    finalNewline: fc.boolean(),
  })
  .map(({ pairs, hooks, at, indent, eol, finalNewline }) => {
    const entries: [string, unknown][] = [...pairs];
    if (hooks) entries.splice(Math.min(at, entries.length), 0, ['hooks', hooks]);
    const v = Object.fromEntries(entries);
    const text = JSON.stringify(v, null, indent).split('\n').join(eol) + (finalNewline ? eol : '');
    return { text, value: JSON.parse(text) as Record<string, unknown> };
  });

const agent = fc.constantFrom(...AGENTS);
/** A property over a generated value and an agent whose table is installed. */
const forAll = <T>(arb: fc.Arbitrary<T>, body: (v: T, a: JsonHookAgent) => void, numRuns?: number): void =>
  fc.assert(fc.property(arb, agent, body), numRuns ? { numRuns } : {});
const parse = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;
type Groups = Record<string, unknown[]>;
const hooksOf = (v: Record<string, unknown>): Groups => (v.hooks ?? {}) as Groups;
const ours = (g: unknown): boolean => JSON.stringify(g).includes(OUR_COMMAND_MARK);

function write(file: string, text: string, mode = 0o644): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  fs.chmodSync(file, mode);
}

describe('install: hook table', () => {
  it('gates only the per-tool events and uses each agent’s timeout unit', () => {
    const claude = hookEntries('claude-code', REPORTER);
    assert.deepStrictEqual(
      claude.filter((e) => e.command.startsWith('if ')).map((e) => e.event),
      ['PostToolUse', 'PostToolUseFailure'],
    );
    assert.strictEqual(claude.find((e) => e.event === 'PreToolUse')?.matcher, 'AskUserQuestion');
    const codex = hookEntries('codex', REPORTER);
    assert.ok(
      codex.every((e) => e.matcher === undefined),
      'Codex: no matcher matches every tool',
    );
    assert.deepStrictEqual(
      codex.filter((e) => e.timeout === 3).map((e) => e.event),
      ['Interrupt', 'SessionEnd'],
    );
    const gemini = hookEntries('gemini', REPORTER);
    assert.ok(gemini.every((e) => e.timeout === 10_000 && e.name === 'agent-lens'));
    assert.ok([...claude, ...codex, ...gemini].every((e) => e.command.includes(OUR_COMMAND_MARK)));
  });
});

describe('install: addHooks / removeHooks', () => {
  it('keeps every user hook, in front of ours, and every unrelated key', () => {
    forAll(settings, (s, a) => {
      const entries = hookEntries(a, REPORTER);
      const out = parse(addHooks(s.text, entries));
      for (const [k, v] of Object.entries(s.value)) if (k !== 'hooks') assert.deepStrictEqual(out[k], v);
      const [before, after] = [hooksOf(s.value), hooksOf(out)];
      for (const event of new Set([...Object.keys(before), ...entries.map((e) => e.event)])) {
        const mine = entries.filter((e) => e.event === event).map(groupOf);
        assert.deepStrictEqual(after[event], [...(before[event] ?? []), ...mine]);
      }
      assert.strictEqual(installedState(addHooks(s.text, entries), entries), 'installed');
    });
  });

  it('is idempotent (installing twice gives the bytes of once) and removes only ours: removeHooks(addHooks(x)) is x', () => {
    forAll(settings, (s, a) => {
      const once = addHooks(s.text, hookEntries(a, REPORTER));
      assert.strictEqual(addHooks(once, hookEntries(a, REPORTER)), once);
      const back = removeHooks(once);
      assert.deepStrictEqual(parse(back), s.value);
      assert.strictEqual(back, s.text);
    });
  });

  it('with comments anywhere: keeps every one, and removal gives back the bytes', () => {
    const commented = fc.tuple(settings, fc.infiniteStream(fc.boolean())).map(([s, marks]) => {
      const it = marks[Symbol.iterator]();
      return s.text
        .split('\n')
        .map((l, i) => (it.next().value ? `${l.replace(/\r$/, '')} // c${i}${l.endsWith('\r') ? '\r' : ''}` : l))
        .join('\n');
    });
    forAll(commented, (text, a) => {
      const out = addHooks(text, hookEntries(a, REPORTER));
      for (const c of text.match(/\/\/ c\d+/g) ?? []) assert.ok(out.includes(c), c);
      assert.strictEqual(removeHooks(out), text);
    });
  });

  it('writes in the file’s own indentation and line ends', () => {
    const entries = hookEntries('codex', REPORTER);
    const tabs = addHooks('{\r\n\t"model": "x"\r\n}\r\n', entries);
    assert.ok(tabs.startsWith('{\r\n\t"model": "x",\r\n\t"hooks": {\r\n\t\t"PermissionRequest": [\r\n\t\t\t{'), tabs);
    assert.ok(!/[^\r]\n/.test(tabs));
    assert.strictEqual(addHooks('{"a":1}', entries).split('\n').length, 1, 'a one-line file stays one line');
    assert.strictEqual(addHooks(undefined, entries), `${JSON.stringify({ hooks: parse(addHooks('{}', entries)).hooks }, null, 2)}\n`);
  });

  it('keeps comments (Gemini CLI allows them), and removal gives back the bytes', () => {
    const text = `// mine
{
  /* theme */ "theme": "dark", // trailing, with a comma
  "hooks": {
    "AfterTool": [
      { "hooks": [{ "type": "command", "command": "lint" }] } // after edits
    ] // tools
  }
}
`;
    const entries = hookEntries('gemini', REPORTER);
    const out = addHooks(text, entries);
    for (const c of ['// mine', '/* theme */', '// trailing, with a comma', '// after edits', '// tools']) assert.ok(out.includes(c), c);
    assert.strictEqual(installedState(out, entries), 'installed');
    assert.strictEqual(removeHooks(out), text);
    assert.strictEqual(removeHooks(addHooks('{\n  "a": 1 // one\n}', entries)), '{\n  "a": 1 // one\n}');
  });

  it('replaces an outdated entry of ours in place and drops ours from events the table no longer has', () => {
    const [old, stale] = [
      hookEntries('claude-code', '/home/old/.agent-lens/bin/agent-lens-report'),
      { event: 'Retired', command: 'exec /home/old/.agent-lens/bin/agent-lens-report claude-code', timeout: 5 } as HookEntry,
    ];
    const user = { hooks: [{ type: 'command', command: 'notify-send done' }] };
    const later = { matcher: 'x', hooks: [{ type: 'command', command: 'added after ours' }] };
    const v = parse(addHooks(JSON.stringify({ hooks: { Stop: [user] } }, null, 2), [...old, stale]));
    hooksOf(v).Stop.push(later);
    const text = JSON.stringify(v, null, 2);
    const entries = hookEntries('claude-code', REPORTER);
    assert.strictEqual(installedState(text, entries), 'outdated');
    const out = parse(addHooks(text, entries));
    assert.deepStrictEqual(hooksOf(out).Stop, [user, groupOf(entries.find((e) => e.event === 'Stop')!), later]);
    assert.strictEqual(hooksOf(out).Retired, undefined);
    assert.strictEqual(installedState(JSON.stringify(out), entries), 'installed');
  });

  it('tells partial from absent', () => {
    const entries = hookEntries('codex', REPORTER);
    assert.strictEqual(installedState(undefined, entries), 'absent');
    assert.strictEqual(installedState('{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}', entries), 'absent');
    assert.strictEqual(installedState(addHooks('{}', entries.slice(1)), entries), 'partial');
  });

  it('takes our handler out of a group a user added theirs to, and keeps theirs', () => {
    const entries = hookEntries('codex', REPORTER);
    const v = parse(addHooks('{}', entries));
    const stop = hooksOf(v).Stop[0] as { hooks: unknown[] };
    stop.hooks.push({ type: 'command', command: 'say done' });
    const text = JSON.stringify(v, null, 2);
    assert.strictEqual(installedState(text, entries), 'outdated');
    assert.deepStrictEqual(hooksOf(parse(removeHooks(text))), { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] });
    const again = parse(addHooks(text, entries));
    assert.deepStrictEqual(
      (hooksOf(again).Stop as { hooks: unknown[] }[]).map((g) => g.hooks.length),
      [1, 1],
    );
  });

  it('refuses files whose shape it cannot keep, naming the problem', () => {
    const entries = hookEntries('claude-code', REPORTER);
    const bad: [string, RegExp][] = [
      ['{"a": 1,}', /not valid JSON \(PropertyNameExpected at line 1/],
      ['{"a": ', /not valid JSON/],
      ['[1, 2]', /holds a JSON array, not an object/],
      ['{"hooks": []}', /"hooks" in .* is a JSON array, not an object/],
      ['{"hooks": {"Stop": {}}}', /"hooks.Stop" in .* is a JSON object, not an array/],
      ['{"hooks": {}, "hooks": {}}', /has "hooks" twice/],
      ['{"hooks": {"Stop": [], "Stop": []}}', /has "Stop" twice/],
    ];
    for (const [text, msg] of bad) {
      assert.throws(
        () => addHooks(text, entries, '/x/settings.json'),
        (e: unknown) => e instanceof InstallError && msg.test(e.message) && /fix or move it, then install again/.test(e.message),
      );
    }
    assert.throws(() => removeHooks('{"a": '), InstallError);
    // Not ours to judge: keys we do not write (Gemini's old `hooks.enabled`).
    assert.doesNotThrow(() => addHooks('{"hooks": {"enabled": true}}', hookEntries('gemini', REPORTER)));
  });

  it('drops a `hooks` object that only ever held ours (the file-level uninstall restores the bytes)', () => {
    assert.strictEqual(removeHooks(addHooks('{"hooks": {}, "a": 1}', hookEntries('codex', REPORTER))), '{"a": 1}');
  });
});

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
      [agents.geminiSettingsFile(h), '/h/.gemini/settings.json'],
      [agents.opencodePluginFile({}, h), '/h/.config/opencode/plugin/agent-lens.js'],
      [agents.opencodePluginFile({ XDG_CONFIG_HOME: '/x' }, h), '/x/opencode/plugin/agent-lens.js'],
      [agents.opencodePluginFile({ OPENCODE_CONFIG_DIR: '/o', XDG_CONFIG_HOME: '/x' }, h), '/o/plugin/agent-lens.js'],
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
