/**
 * Regression tests for how Agent Lens writes files (SECURITY-GAPS 4, 10, 11): wait markers never follow a
 * planted symlink and are not written into folders others can change; writeFileAtomic leaves no temp file
 * when it fails and syncs the folder after the rename; a new settings file is 0600 and a settings file an
 * agent rewrote while we merged is merged again, not clobbered.
 */
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { unsafeDirReason, writeFileAtomic } from '../../../../src/common/fsutil';
import { hostPlatform } from '../../../../src/common/platform';
import { hookEntries } from '../../../../src/integrations/install/hookTable';
import { InstallError } from '../../../../src/integrations/install/jsonHooks';
import { installInto, uninstallFrom } from '../../../../src/integrations/install/settingsFile';
import { installReporter } from '../../../../src/integrations/reporter/reporterFiles';
import { writeDiscovery } from '../../../../src/hub/discovery';
import { ROOT } from '../../helpers';

const REPORTER = path.join(ROOT, 'dist/agent-lens-report.js');
/** The real module: the code under test reads its functions through esbuild's live bindings, so a patch here is seen there. */
const realFs = require('fs') as typeof fs;
const isRoot = process.getuid?.() === 0;
/** Windows has no mode bits: unsafeDirReason checks the folder's place in the user's profile there. */
const noModeBits = hostPlatform() === 'win32';

/** Replaces realFs[name] until the returned function is called. */
function patch<K extends keyof typeof fs>(name: K, make: (orig: (typeof fs)[K]) => (typeof fs)[K]): () => void {
  const orig = realFs[name];
  (realFs as unknown as Record<string, unknown>)[name] = make(orig);
  return () => ((realFs as unknown as Record<string, unknown>)[name] = orig);
}

/** A Claude Code permission request: the reporter opens a wait marker for it. */
const PERMISSION = JSON.stringify({
  hook_event_name: 'PermissionRequest',
  session_id: 's1',
  tool_name: 'Bash',
  tool_input: { command: 'rm -rf build' },
});

function report(hubFile: string, stdin: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [REPORTER, 'claude-code'], {
      env: { PATH: process.env.PATH, AGENT_LENS_HUB: hubFile },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let stdout = '';
    p.stdout.on('data', (c) => (stdout += c));
    p.stdin.end(stdin);
    p.on('close', (code) => resolve({ code, stdout }));
  });
}

describe('reporter wait markers: no symlink followed, no folder others can write', function () {
  this.timeout(30_000);
  let dir: string;
  let hubs: string;
  let hubFile: string;
  // The reporter runs as our child: its parent (the "agent") is this process.
  const marker = () => path.join(hubs, 'waiting', String(process.pid));
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-marker-'));
    hubs = path.join(dir, 'hubs');
    hubFile = path.join(hubs, 'w.json');
    // Port 1: nothing listens; the marker is written before the request anyway.
    writeDiscovery(hubFile, { v: 1, port: 1, token: 'x', pid: process.pid });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes a marker 0600 in a private folder (the ordinary case still works)', async () => {
    const r = await report(hubFile, PERMISSION);
    assert.deepStrictEqual([r.code, r.stdout], [0, '']);
    assert.ok(fs.lstatSync(marker()).isFile());
    assert.strictEqual(fs.statSync(marker()).mode & 0o777, 0o600);
  });

  it('a symlink planted at the marker path: neither a dangling target is created nor an existing one truncated', async () => {
    fs.mkdirSync(path.join(hubs, 'waiting'), { mode: 0o700 });
    const victim = path.join(dir, 'victim');
    fs.symlinkSync(victim, marker());
    let r = await report(hubFile, PERMISSION);
    assert.deepStrictEqual([r.code, r.stdout], [0, '']);
    assert.ok(!fs.existsSync(victim), 'the reporter created the symlink’s target');
    fs.writeFileSync(victim, 'keep me');
    r = await report(hubFile, PERMISSION);
    assert.deepStrictEqual([r.code, r.stdout], [0, '']);
    assert.strictEqual(fs.readFileSync(victim, 'utf8'), 'keep me', 'the reporter truncated the symlink’s target');
  });

  it('a waiting folder that is a symlink to elsewhere gets no marker', async () => {
    const elsewhere = path.join(dir, 'elsewhere');
    fs.mkdirSync(elsewhere, { mode: 0o700 });
    fs.symlinkSync(elsewhere, path.join(hubs, 'waiting'));
    const r = await report(hubFile, PERMISSION);
    assert.deepStrictEqual([r.code, r.stdout], [0, '']);
    assert.deepStrictEqual(fs.readdirSync(elsewhere), []);
  });

  it('refuses an info folder writable by group or others', async function () {
    if (noModeBits) this.skip(); // Windows: the profile's ACL instead (test/unit/common/userProfile.test.ts)
    fs.chmodSync(hubs, 0o777);
    const r = await report(hubFile, PERMISSION);
    assert.deepStrictEqual([r.code, r.stdout], [0, '']);
    assert.ok(!fs.existsSync(path.join(hubs, 'waiting')), 'wrote into a world-writable folder');
    assert.match(unsafeDirReason(hubs) ?? '', /writable by its group or by others/);
  });

  it('refuses a waiting folder owned by another user (needs root to set up)', async function () {
    if (!isRoot || noModeBits) this.skip();
    fs.mkdirSync(path.join(hubs, 'waiting'), { mode: 0o700 });
    fs.chownSync(path.join(hubs, 'waiting'), 54321, 54321);
    const r = await report(hubFile, PERMISSION);
    assert.deepStrictEqual([r.code, r.stdout], [0, '']);
    assert.ok(!fs.existsSync(marker()));
    assert.match(unsafeDirReason(path.join(hubs, 'waiting')) ?? '', /belongs to uid 54321/);
  });

  it('installReporter replaces a symlinked script (even to identical bytes) and refuses a bin folder others can write', function () {
    if (noModeBits) this.skip(); // Windows: the profile's ACL instead (test/unit/common/userProfile.test.ts)
    const home = path.join(dir, 'home');
    const node = { path: process.execPath, electron: false };
    installReporter(home, REPORTER, node);
    const script = path.join(home, 'bin', 'report.cjs');
    const theirs = path.join(dir, 'theirs.cjs');
    fs.copyFileSync(script, theirs);
    fs.rmSync(script);
    fs.symlinkSync(theirs, script);
    installReporter(home, REPORTER, node);
    assert.ok(fs.lstatSync(script).isFile(), 'the hook script still runs through a link someone else controls');
    fs.chmodSync(path.join(home, 'bin'), 0o777);
    assert.throws(
      () => installReporter(home, REPORTER, node),
      /refusing to install the reporter or CLI: .*writable by its group or by others/,
    );
  });
});

describe('writeFileAtomic: failures leave no temp file; the folder is synced after the rename', () => {
  let dir: string;
  let restore: (() => void) | undefined;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-atomic-'))));
  afterEach(() => {
    restore?.();
    restore = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an fsync that fails (EIO) removes the temp file and keeps the old file', () => {
    const f = path.join(dir, 'settings.json');
    fs.writeFileSync(f, 'old');
    restore = patch('fsyncSync', () => () => {
      throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    });
    assert.throws(() => writeFileAtomic(f, 'new', 0o600), /EIO/);
    restore();
    restore = undefined;
    assert.deepStrictEqual(fs.readdirSync(dir), ['settings.json'], 'temp file left behind');
    assert.strictEqual(fs.readFileSync(f, 'utf8'), 'old');
  });

  it('a write that fails removes the temp file', () => {
    const f = path.join(dir, 'a.json');
    assert.throws(() => writeFileAtomic(f, { not: 'data' } as unknown as string));
    assert.deepStrictEqual(fs.readdirSync(dir), []);
  });

  it('a rename that fails (the target is a non-empty folder) removes the temp file', () => {
    const f = path.join(dir, 'taken');
    fs.mkdirSync(f);
    fs.writeFileSync(path.join(f, 'x'), '');
    assert.throws(() => writeFileAtomic(f, 'data'));
    assert.deepStrictEqual(fs.readdirSync(dir), ['taken']);
  });

  it('beforeRename throwing aborts the write: old file kept, no temp file', () => {
    const f = path.join(dir, 'b.json');
    fs.writeFileSync(f, 'old');
    assert.throws(
      () =>
        writeFileAtomic(f, 'new', undefined, {
          beforeRename: () => {
            throw new Error('changed meanwhile');
          },
        }),
      /changed meanwhile/,
    );
    assert.deepStrictEqual([fs.readdirSync(dir), fs.readFileSync(f, 'utf8')], [['b.json'], 'old']);
  });

  it('fsyncs the folder after the rename', function () {
    if (process.platform === 'win32') this.skip();
    const f = path.join(dir, 'c.json');
    const synced: { dir: boolean; renamed: boolean }[] = [];
    restore = patch('fsyncSync', (orig) => (fd: number) => {
      synced.push({ dir: realFs.fstatSync(fd).isDirectory(), renamed: realFs.existsSync(f) });
      return orig(fd);
    });
    writeFileAtomic(f, 'data');
    assert.deepStrictEqual(synced, [
      { dir: false, renamed: false },
      { dir: true, renamed: true },
    ]);
  });
});

describe('settings files: new ones 0600, concurrent agent writes merged, not clobbered', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let restore: (() => void) | undefined;
  const entries = hookEntries('claude-code', '/x/bin/agent-lens-report');
  const ours = (text: string) => text.includes('agent-lens-report') || text.includes('AGENT_LENS_HUB');
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-settings-'));
    env = { AGENT_LENS_HOME: path.join(dir, 'al') };
  });
  afterEach(() => {
    restore?.();
    restore = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** An "agent" that saves `settings` each time (or only the first time) we open our temp file for `file`, i.e. after our read. */
  function agentWritesDuringMerge(file: string, settings: (n: number) => object, times = 1): () => number {
    const temp = new RegExp(`^\\.${path.basename(file).replace(/\./g, '\\.')}\\.\\d+\\.\\d+\\.tmp$`);
    let n = 0;
    restore = patch(
      'openSync',
      (orig) =>
        ((p: fs.PathLike, ...rest: unknown[]) => {
          if (n < times && typeof p === 'string' && path.dirname(p) === path.dirname(file) && temp.test(path.basename(p)))
            realFs.writeFileSync(file, JSON.stringify(settings(++n)));
          return (orig as (...a: unknown[]) => number)(p, ...rest);
        }) as typeof fs.openSync,
    );
    return () => n;
  }

  it('creates a new settings file 0600 and keeps an existing file’s mode', function () {
    if (process.platform === 'win32') this.skip();
    const fresh = path.join(dir, 'new', 'settings.json');
    installInto(fresh, entries, { env });
    assert.strictEqual(fs.statSync(fresh).mode & 0o777, 0o600);
    const old = path.join(dir, 'old.json');
    fs.writeFileSync(old, '{"model": "x"}\n');
    fs.chmodSync(old, 0o640);
    installInto(old, entries, { env });
    assert.strictEqual(fs.statSync(old).mode & 0o777, 0o640);
  });

  it('install: an agent saving its settings between our read and our rename keeps its change, and our hooks go in too', () => {
    const f = path.join(dir, 'settings.json');
    fs.writeFileSync(f, JSON.stringify({ model: 'a' }));
    const writes = agentWritesDuringMerge(f, () => ({ model: 'a', theme: 'dark' }));
    assert.strictEqual(installInto(f, entries, { env }), true);
    const text = fs.readFileSync(f, 'utf8');
    assert.strictEqual(writes(), 1);
    assert.strictEqual(JSON.parse(text).theme, 'dark', 'the agent’s concurrent write was clobbered');
    assert.ok(ours(text), 'our hooks are missing');
  });

  it('install into a file that keeps changing fails with a clear error and leaves the agent’s content', () => {
    const f = path.join(dir, 'busy.json');
    fs.writeFileSync(f, '{}');
    agentWritesDuringMerge(f, (n) => ({ n }), 100);
    assert.throws(
      () => installInto(f, entries, { env }),
      (e: unknown) => e instanceof InstallError && /kept changing/.test((e as Error).message),
    );
    const text = fs.readFileSync(f, 'utf8');
    assert.ok(!ours(text));
    assert.strictEqual(JSON.parse(text).n, 3);
    assert.deepStrictEqual(
      fs.readdirSync(dir).filter((n) => n.endsWith('.tmp')),
      [],
    );
  });

  it('uninstall: a concurrent agent write is kept, our hooks still removed', () => {
    const f = path.join(dir, 'u.json');
    fs.writeFileSync(f, JSON.stringify({ model: 'a' }));
    installInto(f, entries, { env });
    const withHooks = JSON.parse(fs.readFileSync(f, 'utf8')) as object;
    agentWritesDuringMerge(f, () => ({ ...withHooks, theme: 'dark' }));
    assert.strictEqual(uninstallFrom(f, { env }), true);
    const text = fs.readFileSync(f, 'utf8');
    assert.strictEqual(JSON.parse(text).theme, 'dark', 'the agent’s concurrent write was clobbered');
    assert.ok(!ours(text));
  });
});
