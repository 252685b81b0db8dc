import * as assert from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { hookEntries } from '../../../../src/integrations/install/hookTable';
import { addHooks, groupOf, installedState, removeHooks } from '../../../../src/integrations/install/jsonHooks';
import { backupPath, fileState, installInto, recordPath, uninstallFrom } from '../../../../src/integrations/install/settingsFile';
import { hookTargets } from '../../../../src/integrations/install/targets';
import { eventMaps, ours, parse, REPORTER, write } from './settingsArb';

/**
 * droid's `~/.factory/hooks.json` is the map of events itself (`{"Stop": [{"hooks": [...]}]}`; a `hooks` key in it
 * is ignored, FACTS.md §9): the same installer writes there with `at: 'top'`, as reversibly as into a settings file.
 */
const entries = hookEntries('droid', REPORTER, { platform: 'linux' });
const TOP = 'top' as const;

let tmp: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-top-'));
  env = { AGENT_LENS_HOME: path.join(tmp, 'lens') };
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('install: a file that is the map of events (droid’s hooks.json)', () => {
  it('droid’s table: PreToolUse reported for every tool (it names the dialog’s tool), PostToolUse gated, seconds', () => {
    assert.deepStrictEqual(
      entries.map((e) => [e.event, e.matcher, e.command.startsWith('if '), e.timeout]),
      [
        ['PreToolUse', '*', false, 10],
        ['Notification', undefined, false, 10],
        ['Stop', undefined, false, 10],
        ['UserPromptSubmit', undefined, false, 10],
        ['SessionEnd', undefined, false, 10],
        ['PostToolUse', '*', true, 10],
      ],
    );
  });

  it('puts our groups after the user’s in each event at the top, keeps every other key, and takes back exactly what it added', () => {
    fc.assert(
      fc.property(eventMaps, (s) => {
        const once = addHooks(s.text, entries, 'hooks.json', undefined, TOP);
        const out = parse(once);
        assert.ok(!('hooks' in out) || 'hooks' in s.value, 'nothing under a `hooks` key droid would ignore');
        for (const [k, v] of Object.entries(s.value)) if (!entries.some((e) => e.event === k)) assert.deepStrictEqual(out[k], v);
        for (const e of new Set(entries.map((x) => x.event)))
          assert.deepStrictEqual(out[e], [...((s.value[e] as unknown[]) ?? []), ...entries.filter((x) => x.event === e).map(groupOf)]);
        assert.strictEqual(installedState(once, entries, 'hooks.json', undefined, TOP), 'installed');
        assert.strictEqual(addHooks(once, entries, 'hooks.json', undefined, TOP), once);
        assert.strictEqual(removeHooks(once, 'hooks.json', undefined, TOP), s.text);
      }),
    );
  });

  it('a new file is the bare map of events; the settings layout does not see our events at the top', () => {
    const text = addHooks(undefined, entries, 'hooks.json', undefined, TOP);
    assert.deepStrictEqual(Object.keys(parse(text)), [
      'PreToolUse',
      'Notification',
      'Stop',
      'UserPromptSubmit',
      'SessionEnd',
      'PostToolUse',
    ]);
    assert.strictEqual(installedState(text, entries), 'absent');
    assert.strictEqual(removeHooks(text), text);
  });

  it('on disk: uninstall gives back the bytes; after a user’s edit, the install record alone knows the layout', () => {
    fc.assert(
      fc.property(eventMaps, (s) => {
        const file = path.join(tmp, String(Math.random()), 'hooks.json');
        write(file, s.text);
        assert.strictEqual(installInto(file, entries, { env, at: TOP }), true);
        assert.strictEqual(fileState(file, entries, env, TOP), 'installed');
        assert.strictEqual(uninstallFrom(file, { env, at: TOP }), true);
        assert.strictEqual(fs.readFileSync(file, 'utf8'), s.text);
        assert.ok(!fs.existsSync(backupPath(file)) && !fs.existsSync(recordPath(file, env)));
        // Installed again, then edited by the user: `vscode:uninstall` finds the file by its record, without the table.
        installInto(file, entries, { env, at: TOP });
        const edited = { ...parse(fs.readFileSync(file, 'utf8')), userKey: 1 };
        fs.writeFileSync(file, JSON.stringify(edited, null, 2));
        assert.strictEqual(uninstallFrom(file, { env }), true);
        const left = parse(fs.readFileSync(file, 'utf8'));
        assert.ok(!ours(left), JSON.stringify(left));
        assert.strictEqual(left.userKey, 1);
      }),
      { numRuns: 40 },
    );
  });

  it('the droid target: $FACTORY_HOME_OVERRIDE/.factory/hooks.json, created and deleted again; settings.json untouched', () => {
    const home = path.join(tmp, 'home');
    const settings = path.join(tmp, 'fh', '.factory', 'settings.json');
    write(settings, '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "mine"}]}]}}');
    const ctx = {
      env: { ...env, FACTORY_HOME_OVERRIDE: path.join(tmp, 'fh') },
      home,
      reporter: REPORTER,
      opencodePluginSource: '',
      hermesSources: [],
      platform: 'linux' as const,
    };
    const t = hookTargets(ctx).find((x) => x.agent === 'droid')!;
    assert.strictEqual(t.path, path.join(tmp, 'fh', '.factory', 'hooks.json'));
    assert.match(t.note ?? '', /settings\.json/);
    assert.strictEqual(t.status().state, 'absent');
    assert.strictEqual(t.install(), true);
    assert.strictEqual(t.status().state, 'installed');
    assert.ok(Array.isArray(parse(fs.readFileSync(t.path, 'utf8')).Stop));
    assert.strictEqual(t.uninstall(), true);
    assert.ok(!fs.existsSync(t.path));
    assert.strictEqual(fs.readFileSync(settings, 'utf8'), '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "mine"}]}]}}');
  });
});
