import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { asciiJson } from '../../../../src/hooks/decision';
import { markerName, reporterCommandPath, SESSION_MARKER_PREFIX } from '../../../../src/integrations/commands';
import { cliBatch, installCli, installReporter } from '../../../../src/integrations/reporter/reporterFiles';
import { ROOT } from '../../helpers';

/**
 * What Windows gets instead of the sh wrappers: the scripts alone (hook lines start Node on them), a batch file for
 * the CLI, wait markers named by session, the answering hook's decision in ASCII. The reporter script itself is
 * the gate the wrapper was: started by Node directly with no hub, it reads its stdin, prints nothing, exits 0.
 */
describe('reporter on Windows: scripts only, started by Node directly', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-win-reporter-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const node = { path: process.execPath, electron: false };
  const bundled = path.join(ROOT, 'dist', 'agent-lens-report.js');

  it('installReporter writes report.cjs and permission.cjs, no #!/bin/sh wrapper, and returns the script', () => {
    const home = path.join(dir, 'home');
    const got = installReporter(home, bundled, node, 'win32');
    assert.deepStrictEqual(fs.readdirSync(path.join(home, 'bin')).sort(), ['permission.cjs', 'report.cjs']);
    assert.strictEqual(got, reporterCommandPath(home, 'win32'));
    assert.ok(got.endsWith('\\report.cjs') || got.endsWith('/report.cjs'), got);
    installReporter(home, bundled, node, 'linux');
    assert.deepStrictEqual(fs.readdirSync(path.join(home, 'bin')).sort(), [
      'agent-lens-permission',
      'agent-lens-report',
      'permission.cjs',
      'report.cjs',
    ]);
  });

  it('installCli writes agent-lens.cmd: CRLF, % doubled, arguments passed on, Electron run as Node', () => {
    const home = path.join(dir, 'home');
    const cmd = installCli(home, path.join(ROOT, 'dist', 'cli.js'), node, 'win32');
    assert.strictEqual(path.basename(cmd), 'agent-lens.cmd');
    assert.ok(!fs.readFileSync(cmd, 'utf8').includes('#!'));
    assert.ok(fs.existsSync(path.join(home, 'bin', 'agent-lens.cjs')), 'the script the batch file finds beside itself');
    assert.strictEqual(
      cliBatch(
        { path: 'C:\\Program Files\\100%\\Code.exe', electron: true },
        'C:\\Users\\张三\\.agent-lens\\bin\\agent-lens.cjs',
        'C:\\Users\\张三',
      ),
      [
        '@echo off',
        'rem agent-lens: written by Agent Lens on activation (briefs name this path).',
        'setlocal',
        'set "ELECTRON_RUN_AS_NODE=1"',
        '"C:\\Program Files\\100%%\\Code.exe" "%~dp0agent-lens.cjs" %*',
        '',
      ].join('\r\n'),
    );
  });

  it('agent-lens.cmd is ASCII for a user named 张三: cmd.exe reads batch files in the console’s code page, not UTF-8', () => {
    const profile = 'C:\\Users\\张三';
    for (const [nodePath, word] of [
      ['C:\\Users\\张三\\AppData\\Local\\Volta\\bin\\node.exe', '"%USERPROFILE%\\AppData\\Local\\Volta\\bin\\node.exe"'],
      [
        'c:\\users\\张三\\AppData\\Local\\Programs\\Microsoft VS Code\\Code.exe',
        '"%USERPROFILE%\\AppData\\Local\\Programs\\Microsoft VS Code\\Code.exe"',
      ],
      ['C:\\Program Files\\nodejs\\node.exe', '"C:\\Program Files\\nodejs\\node.exe"'],
      ['C:\\Users\\张三三\\node.exe', '"C:\\Users\\张三三\\node.exe"'], // another profile that starts alike: left as it is
    ]) {
      const text = cliBatch({ path: nodePath, electron: false }, `${profile}\\.agent-lens\\bin\\agent-lens.cjs`, `${profile}\\`);
      const run = text.split('\r\n')[3];
      assert.strictEqual(run, `${word} "%~dp0agent-lens.cjs" %*`);
    }
    const text = cliBatch({ path: 'C:\\Users\\张三\\node.exe', electron: false }, `${profile}\\.agent-lens\\bin\\agent-lens.cjs`, profile);
    assert.match(text, /^[\x00-\x7f]*$/, text);
  });

  it('the script with no hub (or a hub file that is gone): stdin read whole, nothing printed, exit 0', () => {
    const script = path.join(dir, 'report.cjs');
    fs.copyFileSync(bundled, script);
    const payload = JSON.stringify({ hook_event_name: 'Stop', session_id: 's', pad: 'x'.repeat(2 * 1024 * 1024) });
    for (const hub of [undefined, path.join(dir, 'gone', 'hub.json')]) {
      const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, ...(hub ? { AGENT_LENS_HUB: hub } : {}) };
      const started = Date.now();
      const r = spawnSync(process.execPath, [script, 'claude-code'], { input: payload, env, timeout: 20_000 });
      assert.strictEqual(r.error, undefined, String(r.error));
      assert.deepStrictEqual([r.status, r.stdout.toString(), r.stderr.toString()], [0, '', ''], String(hub));
      assert.ok(Date.now() - started < 10_000);
    }
  });

  it('wait markers: the agent’s pid off Windows; on Windows one name per agent and session, the pid without one', () => {
    assert.strictEqual(markerName(4242, 'codex', 'abc', 'linux'), '4242');
    assert.strictEqual(markerName(4242, 'codex', 'abc', 'darwin'), '4242');
    const a = markerName(1, 'codex', 'abc', 'win32');
    assert.match(a, new RegExp(`^${SESSION_MARKER_PREFIX}[0-9a-f]{32}$`));
    assert.strictEqual(markerName(2, 'codex', 'abc', 'win32'), a, 'the shell that ran the hook does not matter');
    assert.notStrictEqual(markerName(1, 'claude-code', 'abc', 'win32'), a);
    assert.notStrictEqual(markerName(1, 'codex', 'abd', 'win32'), a);
    assert.strictEqual(markerName(7, 'codex', '../../x', 'win32').includes('/'), false, 'a session id is never a path');
    assert.strictEqual(markerName(7, 'codex', undefined, 'win32'), '7');
  });

  it('the answering hook’s decision is ASCII and still the same JSON', () => {
    const v = { hookSpecificOutput: { decision: { behavior: 'deny', message: '不要 rm -rf — “no” 😀\u007f' } } };
    const out = asciiJson(JSON.stringify(v));
    assert.ok(/^[\x20-\x7e]*$/.test(out), out);
    assert.deepStrictEqual(JSON.parse(out), v);
  });
});
