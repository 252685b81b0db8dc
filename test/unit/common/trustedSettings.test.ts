import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { SETTING_POLICY, type SettingLayers, settingValue, workspaceMayChoose } from '../../../src/common/trustedSettings';
import { ROOT } from '../helpers';

/** The pure half of Restricted Mode for settings: which layers count, and that it says what package.json says. */

interface Manifest {
  contributes: { configuration: { properties: Record<string, { scope?: string }> } };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations?: string[] } };
}

describe('trusted settings: the policy table and the layers that count', () => {
  it('has a policy for every agentLens setting, and it matches package.json (machine scope, restrictedConfigurations)', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;
    const settings = pkg.contributes.configuration.properties;
    const restricted = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
    assert.deepStrictEqual(
      Object.keys(SETTING_POLICY).sort(),
      Object.keys(settings)
        .filter((k) => k.startsWith('agentLens.'))
        .sort(),
    );
    for (const [key, policy] of Object.entries(SETTING_POLICY)) {
      const scope = settings[key].scope;
      const declared = scope === 'machine' || scope === 'application' ? scope : restricted.includes(key) ? 'trusted' : 'workspace';
      assert.strictEqual(policy, declared, key);
    }
  });

  it('untrusted: default then user settings; trusted: workspace and folder settings on top, except for machine settings', () => {
    const layers: SettingLayers = { defaultValue: 1, globalValue: 2, workspaceValue: 3, workspaceFolderValue: 4 };
    assert.strictEqual(settingValue('trusted', layers, false), 2);
    assert.strictEqual(settingValue('trusted', layers, true), 4);
    assert.strictEqual(settingValue('trusted', { defaultValue: 1, workspaceValue: 3 }, false), 1);
    assert.strictEqual(settingValue('trusted', { defaultValue: 1, workspaceValue: 3 }, true), 3);
    assert.strictEqual(settingValue('machine', layers, true), 2);
    assert.strictEqual(settingValue('machine', { workspaceValue: ['/repo'] }, true), undefined);
    assert.strictEqual(settingValue('workspace', layers, false), 4);
    assert.strictEqual(settingValue('trusted', undefined, true), undefined);
    assert.deepStrictEqual(
      [workspaceMayChoose('trusted', false), workspaceMayChoose('trusted', true), workspaceMayChoose('machine', true)],
      [false, true, false],
    );
  });

  it('merges objects key by key (as VS Code does) and replaces arrays and scalars', () => {
    const agents = { defaultValue: { a: true, b: true }, globalValue: { b: false }, workspaceValue: { a: false } };
    assert.deepStrictEqual(settingValue('trusted', agents, false), { a: true, b: false });
    assert.deepStrictEqual(settingValue('trusted', agents, true), { a: false, b: false });
    assert.deepStrictEqual(settingValue('trusted', { defaultValue: [1, 2], globalValue: [3] }, false), [3]);
    const sneaky = settingValue(
      'trusted',
      { defaultValue: {}, globalValue: JSON.parse('{"__proto__": {"polluted": true}}') as unknown },
      false,
    ) as Record<string, unknown>;
    assert.strictEqual(({} as Record<string, unknown>).polluted, undefined);
    assert.ok(Object.prototype.hasOwnProperty.call(sneaky, '__proto__'), 'kept as a plain key');
  });
});
