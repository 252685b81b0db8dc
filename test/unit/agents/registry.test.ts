/**
 * The agent registry (src/agents) is the one list of agents: every other list — the agent ids, the detector's
 * signatures, the hook installer's choices, the reporter's agents, the log sources, package.json's setting and
 * the README's table — is derived from it or must agree with it, and this says where they do not.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AGENT_VERSIONS } from '../../../harness/homeBase';
import { AGENTS, configDirOf } from '../../../src/agents/registry';
import { agentTable } from '../../../src/agents/table';
import { UNVERIFIED } from '../../../src/agents/descriptor';
import { HOOK_EVENTS, REPORTING_AGENTS } from '../../../src/agents/hookEvents';
import { OPENCODE_FAMILY } from '../../../src/agents/opencode/family';
import { AGENT_KINDS } from '../../../src/common/agents';
import { SIGNATURES } from '../../../src/detect/signatures';
import { HOOK_TABLES } from '../../../src/integrations/install/hookTable';
import { hookTargets } from '../../../src/integrations/install/targets';
import { LINE_DECODERS, SNAPSHOT_DECODERS } from '../../../src/jsonl';
import { SETTING_POLICY } from '../../../src/common/trustedSettings';
import { defaultLogLocations, tailRoots } from '../../../src/sources/logs/logSources';
import { defaultOpenCodeDbPath } from '../../../src/sources/logs/opencodeDb';
import { ROOT } from '../helpers';
import { agentFolders, generatedFiles } from './generate';

const ids = AGENTS.map((a) => a.id);
const withHooks = (kind?: 'settings' | 'plugin') =>
  AGENTS.filter((a) => (kind ? a.hooks === kind : a.hooks))
    .map((a) => a.id)
    .sort();
const WRITE = process.env.AGENT_LENS_WRITE === '1';
const WRITE_HINT = 'run npm run agents:generate';
const README_TABLE = /<!-- agents:[^\n]*-->\n([^]*?)\n<!-- \/agents -->/;

describe('agent registry: one folder per agent, every list agrees', () => {
  it('lists each folder of src/agents once, in the order of the agent ids, each with its own screen rules', () => {
    const folders = fs
      .readdirSync(path.join(ROOT, 'src/agents'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    assert.deepStrictEqual([...ids].sort(), folders.sort());
    assert.deepStrictEqual(
      agentFolders(ROOT).map((f) => [f.id, f.rank]),
      AGENTS.map((a) => [a.id, a.rank]),
      'each descriptor’s rank is the one its folder’s index.ts states',
    );
    assert.strictEqual(new Set(AGENTS.map((a) => a.rank)).size, AGENTS.length, 'no two agents share a rank');
    assert.deepStrictEqual(ids, [...AGENT_KINDS]);
    for (const a of AGENTS) assert.strictEqual(a.screen.agent, a.id, `src/agents/${a.id}/screen.ts names another agent`);
    assert.deepStrictEqual(
      SIGNATURES,
      AGENTS.map((a) => a.screen),
    );
  });

  it('the hook installer offers, and the reporter accepts, exactly the agents whose descriptor has hooks', () => {
    assert.deepStrictEqual([...REPORTING_AGENTS].sort(), withHooks());
    assert.deepStrictEqual(Object.keys(HOOK_TABLES).sort(), withHooks('settings'));
    assert.deepStrictEqual(
      AGENTS.filter((a) => a.hookRows)
        .map((a) => a.id)
        .sort(),
      withHooks('settings'),
      'every agent with settings hooks has its rows',
    );
    assert.deepStrictEqual(
      [...Object.keys(HOOK_EVENTS), ...OPENCODE_FAMILY].sort(),
      withHooks(),
      'the reporter reads the events of every agent with hooks (OpenCode’s and Kilo’s through opencodeMeaning)',
    );
    const ctx = { env: {}, home: '/home/u', reporter: '/x/agent-lens-report', opencodePluginSource: '/x/p.js', hermesSources: [] };
    assert.deepStrictEqual([...new Set(hookTargets(ctx).map((t) => t.agent))].sort(), withHooks());
  });

  it('hook files and session logs live in each agent’s own configuration folder, as its environment says', () => {
    const ctx = {
      env: {
        CLAUDE_CONFIG_DIR: '/c',
        CODEX_HOME: '/x',
        OPENCODE_CONFIG_DIR: '/o',
        HERMES_HOME: '/h',
        GEMINI_CLI_HOME: '/g',
        QWEN_HOME: '/q',
        KILO_CONFIG_DIR: '/k',
        FACTORY_HOME_OVERRIDE: '/f',
        COPILOT_HOME: '/cp',
      },
      home: '/home/u',
      reporter: '/r',
      opencodePluginSource: '/p.js',
      hermesSources: [],
    };
    for (const t of hookTargets(ctx).filter((x) => x.scope === 'user'))
      assert.ok(t.path.startsWith(`${configDirOf(t.agent, ctx.env, ctx.home)}/`), `${t.agent}: ${t.path}`);
    assert.deepStrictEqual(
      tailRoots(defaultLogLocations(ctx.env, ctx.home)).map((r) => [r.agent, path.dirname(r.dir)]),
      [
        ['claude-code', '/c'],
        ['codex', '/x'],
        ['gemini', '/g/.gemini'],
        ['copilot', '/cp'],
        ['qwen', '/q'],
        ['droid', '/f/.factory'],
      ],
    );
    assert.deepStrictEqual(
      AGENTS.filter((a) => a.logs?.format === 'jsonl').map((a) => a.id),
      Object.keys(LINE_DECODERS),
      'every agent with JSON-lines logs has a decoder in src/jsonl, and no other',
    );
    assert.deepStrictEqual(
      AGENTS.filter((a) => a.logs?.format === 'sqlite').map((a) => a.id),
      [...OPENCODE_FAMILY],
      'the SQLite reader (src/sources/logs/opencodeDb.ts) reads OpenCode’s schema only: OpenCode’s database and Kilo’s',
    );
    assert.deepStrictEqual(
      AGENTS.filter((a) => a.logs?.format === 'json-snapshot').map((a) => a.id),
      Object.keys(SNAPSHOT_DECODERS),
      'every agent whose session file is rewritten whole has a decoder in src/jsonl, and no other',
    );
    assert.deepStrictEqual(
      [
        defaultLogLocations(ctx.env, ctx.home)['continue-cli'],
        defaultLogLocations({ CONTINUE_GLOBAL_DIR: '/cn' }, ctx.home)['continue-cli'],
      ],
      [['/home/u/.continue'], ['/cn']],
      'Continue keeps its sessions in $CONTINUE_GLOBAL_DIR, else ~/.continue',
    );
    assert.deepStrictEqual(defaultOpenCodeDbPath(ctx.env, ctx.home), '/home/u/.local/share/opencode/opencode.db');
    assert.deepStrictEqual(defaultOpenCodeDbPath(ctx.env, ctx.home, 'kilocode'), '/home/u/.local/share/kilo/kilo.db');
    assert.deepStrictEqual(
      [
        defaultOpenCodeDbPath({ XDG_DATA_HOME: '/d' }, ctx.home, 'kilocode'),
        defaultOpenCodeDbPath({ XDG_DATA_HOME: '/d', KILO_DB: 'other.db' }, ctx.home, 'kilocode'),
        defaultOpenCodeDbPath({ KILO_DB: '/db/k.db', OPENCODE_DB: '/db/o.db' }, ctx.home, 'kilocode'),
      ],
      ['/d/kilo/kilo.db', '/d/kilo/other.db', '/db/k.db'],
      'Kilo opens KILO_DB (absolute, or a name in its data folder), else kilo.db in its data folder',
    );
  });

  it('each agent’s session-log setting is in package.json, a list of paths, and the machine’s alone', () => {
    const props = (
      JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        contributes: { configuration: { properties: Record<string, { type: string; scope?: string }> } };
      }
    ).contributes.configuration.properties;
    const settings = AGENTS.flatMap((a) => (a.logs ? [a.logs.setting] : []));
    assert.deepStrictEqual(
      Object.keys(props).filter((k) => k.startsWith('agentLens.sessionLogs.') && k !== 'agentLens.sessionLogs.enabled'),
      settings,
      'package.json lists a session-log location setting for each agent with logs, in the registry’s order',
    );
    for (const k of settings) {
      assert.deepStrictEqual([props[k].type, props[k].scope, SETTING_POLICY[k]], ['array', 'machine', 'machine'], k);
    }
  });

  it('package.json’s agentLens.agents switch lists every agent, on by default (AGENT_LENS_WRITE=1 rewrites it)', () => {
    const file = path.join(ROOT, 'package.json');
    const text = fs.readFileSync(file, 'utf8');
    const pkg = JSON.parse(text) as {
      contributes: {
        configuration: { properties: Record<string, { default: Record<string, boolean>; properties: Record<string, unknown> }> };
      };
    };
    const setting = pkg.contributes.configuration.properties['agentLens.agents'];
    const want = {
      default: Object.fromEntries(ids.map((id) => [id, true])),
      properties: Object.fromEntries(ids.map((id) => [id, { type: 'boolean' }])),
    };
    if (WRITE && JSON.stringify([setting.default, setting.properties]) !== JSON.stringify([want.default, want.properties])) {
      Object.assign(setting, want);
      fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
      return;
    }
    assert.deepStrictEqual(Object.keys(setting.properties), ids, WRITE_HINT);
    assert.deepStrictEqual(setting.default, want.default, WRITE_HINT);
  });

  it('the lists generated from the folders are current (AGENT_LENS_WRITE=1 rewrites them)', () => {
    for (const [rel, want] of Object.entries(generatedFiles(ROOT))) {
      const file = path.join(ROOT, rel);
      const have = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      if (have !== want && WRITE) fs.writeFileSync(file, want);
      else assert.strictEqual(have, want, `${rel} differs from the folders of src/agents: ${WRITE_HINT}`);
    }
  });

  it('the versions the harness installs are the versions the descriptors say were verified', () => {
    for (const [id, version] of Object.entries(AGENT_VERSIONS))
      assert.strictEqual(AGENTS.find((a) => a.id === id)?.screen.seenIn.split(' ')[0], version, id);
  });

  it('a verified agent whose dialogs VS Code does not answer says why, and only such an agent', () => {
    for (const a of AGENTS) {
      const answered = a.hookRows?.rows.some((r) => r.program === 'answer') || a.pluginAnswers || a.dialogKeys || a.menu;
      const verified = a.screen.seenIn !== UNVERIFIED;
      assert.strictEqual(Boolean(a.doc.notAnswered), verified && !answered, `${a.id}: notAnswered ${JSON.stringify(a.doc.notAnswered)}`);
    }
  });

  it('the README’s table of agents is the registry’s (AGENT_LENS_WRITE=1 rewrites it)', () => {
    const file = path.join(ROOT, 'README.md');
    const readme = fs.readFileSync(file, 'utf8');
    const m = README_TABLE.exec(readme);
    assert.ok(m, 'README.md has no <!-- agents: … --> … <!-- /agents --> block');
    const want = agentTable(AGENTS);
    if (m[1] !== want && WRITE) fs.writeFileSync(file, readme.replace(m[1], want));
    else assert.strictEqual(m[1], want, `the README’s table differs from src/agents: ${WRITE_HINT}`);
  });
});
