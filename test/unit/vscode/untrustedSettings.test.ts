import * as assert from 'assert';
import * as fs from 'fs';
import Module from 'module';
import * as path from 'path';
import type * as ConfigModule from '../../../src/vscode/config';
import { ROOT } from '../helpers';

/**
 * Restricted Mode: a repository's `.vscode/settings.json` must not point Agent Lens's log readers at files it
 * ships, nor switch off detection or notifications, before the user trusts it. VS Code is told so in
 * package.json, and readConfig does not rely on VS Code alone.
 */

/**
 * Settings any workspace may set, trusted or not, each with the reason that is harmless. A new `agentLens.*`
 * setting goes here only with its reason; otherwise it is restricted or machine-scoped. None is, today.
 */
const SAFE_IN_ANY_WORKSPACE: Record<string, string> = {};

interface Setting {
  scope?: string;
  default?: unknown;
}
interface Manifest {
  contributes: { configuration: { properties: Record<string, Setting> } };
  capabilities: { untrustedWorkspaces: { supported: unknown; restrictedConfigurations?: string[] } };
}
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;
const SETTINGS = manifest.contributes.configuration.properties;
const RESTRICTED = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
const USER_ONLY_SCOPES = ['machine', 'application'];

describe('Restricted Mode: package.json leaves no agentLens setting to an untrusted workspace by accident', () => {
  it('every agentLens.* setting is restricted, machine-scoped, or on the allow-list with its reason', () => {
    const keys = Object.keys(SETTINGS).filter((k) => k.startsWith('agentLens.'));
    assert.ok(keys.length >= 10, 'the settings were found');
    const loose = keys.filter(
      (k) => !RESTRICTED.includes(k) && !USER_ONLY_SCOPES.includes(SETTINGS[k].scope ?? '') && !(k in SAFE_IN_ANY_WORKSPACE),
    );
    assert.deepStrictEqual(
      loose,
      [],
      'add these to capabilities.untrustedWorkspaces.restrictedConfigurations, give them "scope": "machine", or list them in SAFE_IN_ANY_WORKSPACE with the reason',
    );
    for (const [k, why] of Object.entries(SAFE_IN_ANY_WORKSPACE)) assert.ok(k in SETTINGS && why.length > 20, k);
    for (const k of RESTRICTED) assert.ok(k in SETTINGS, `${k} is restricted but is no setting`);
    assert.strictEqual(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
  });

  it('the log readers’ paths are machine-scoped; detection, notification and handoff settings wait for trust', () => {
    for (const k of ['claudeConfigDirs', 'codexHomes', 'opencodeDatabases'])
      assert.strictEqual(SETTINGS[`agentLens.sessionLogs.${k}`].scope, 'machine', k);
    const trustOnly = [
      'agents',
      'notifications.enabled',
      'notifications.delaySeconds',
      'processScan.intervalSeconds',
      'sessionLogs.enabled',
      'handoff.teamFile',
      'handoff.root',
    ];
    assert.deepStrictEqual(
      trustOnly.map((k) => `agentLens.${k}`).filter((k) => !RESTRICTED.includes(k)),
      [],
    );
  });
});

// ---- readConfig over a stand-in for VS Code's configuration ---------------------------------------------------

interface Layers {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** A stand-in whose `get()` applies every layer, as a VS Code that did not honour package.json would. */
function fakeVscode(state: { trusted: boolean; user: Record<string, unknown>; workspace: Record<string, unknown> }) {
  const layers = (key: string): Layers => ({
    defaultValue: SETTINGS[key]?.default,
    globalValue: state.user[key],
    workspaceValue: state.workspace[key],
  });
  const applied = (l: Layers) =>
    [l.defaultValue, l.globalValue, l.workspaceValue].reduce((a, v) =>
      v === undefined
        ? a
        : typeof v === 'object' && !Array.isArray(v) && typeof a === 'object'
          ? { ...(a as object), ...(v as object) }
          : v,
    );
  return {
    workspace: {
      get isTrusted() {
        return state.trusted;
      },
      getConfiguration: (section?: string) => {
        const full = (key: string) => (section ? `${section}.${key}` : key);
        return { get: (key: string) => applied(layers(full(key))), inspect: (key: string) => ({ key: full(key), ...layers(full(key)) }) };
      },
    },
  };
}

/** src/vscode/config.ts bound to `fake` instead of the extension host's `vscode`. */
function configWith(fake: unknown): typeof ConfigModule {
  const loader = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
  const original = loader._load;
  loader._load = function (this: unknown, request: string, ...rest: unknown[]) {
    return request === 'vscode' ? fake : original.call(this, request, ...rest);
  };
  try {
    return require('../../../src/vscode/config') as typeof ConfigModule;
  } finally {
    loader._load = original;
  }
}

describe('Restricted Mode: readConfig takes an untrusted workspace’s values from nowhere but user settings', () => {
  const state = { trusted: false, user: {} as Record<string, unknown>, workspace: {} as Record<string, unknown> };
  const config = configWith(fakeVscode(state));
  // What a hostile repository's .vscode/settings.json sets, and what the user set for themselves.
  const repo = {
    'agentLens.agents': { 'claude-code': false },
    'agentLens.notifications.enabled': false,
    'agentLens.notifications.delaySeconds': 3600,
    'agentLens.processScan.intervalSeconds': 0,
    'agentLens.sessionLogs.enabled': false,
    'agentLens.sessionLogs.claudeConfigDirs': ['/repo/fake-claude'],
    'agentLens.sessionLogs.codexHomes': ['/repo/fake-codex'],
    'agentLens.sessionLogs.opencodeDatabases': ['/repo/opencode.db'],
  };
  const user = {
    'agentLens.notifications.delaySeconds': 30,
    'agentLens.sessionLogs.claudeConfigDirs': ['/home/u/claude-alt'],
    'agentLens.agents': { aider: false },
  };
  beforeEach(() => Object.assign(state, { user, workspace: repo }));

  it('untrusted: every workspace value is ignored, the user’s own count', () => {
    state.trusted = false;
    const c = config.readConfig();
    assert.strictEqual(c.agents['claude-code'], true);
    assert.strictEqual(c.agents.aider, false, 'the user’s own switch');
    assert.deepStrictEqual(
      [c.notificationsEnabled, c.notificationDelaySeconds, c.processScanIntervalSeconds, c.sessionLogsEnabled],
      [true, 30, 2, true],
    );
    assert.deepStrictEqual(c.sessionLogPaths, {
      'claude-code': ['/home/u/claude-alt'],
      codex: [],
      opencode: [],
      gemini: [],
      copilot: [],
      qwen: [],
      kilocode: [],
      droid: [],
      'continue-cli': [],
    });
  });

  it('trusted: the workspace’s switches count, its log paths still do not (they are the machine’s)', () => {
    state.trusted = true;
    const c = config.readConfig();
    assert.deepStrictEqual(
      [
        c.agents['claude-code'],
        c.agents.aider,
        c.notificationsEnabled,
        c.notificationDelaySeconds,
        c.processScanIntervalSeconds,
        c.sessionLogsEnabled,
      ],
      [false, false, false, 3600, 0, false],
    );
    assert.deepStrictEqual(c.sessionLogPaths, {
      'claude-code': ['/home/u/claude-alt'],
      codex: [],
      opencode: [],
      gemini: [],
      copilot: [],
      qwen: [],
      kilocode: [],
      droid: [],
      'continue-cli': [],
    });
  });
});

describe('Restricted Mode: package.json says what an untrusted workspace cannot do', () => {
  it('package.json declares limited support for untrusted workspaces, and says why', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const nls = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
    assert.strictEqual(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
    // The text is localised: package.json names its key, package.nls.json holds the English.
    const key = /^%(.+)%$/.exec(pkg.capabilities.untrustedWorkspaces.description)?.[1];
    assert.ok(key, 'capabilities.untrustedWorkspaces.description is a %key% of package.nls.json');
    assert.match(nls[key], /launch/);
  });
});
