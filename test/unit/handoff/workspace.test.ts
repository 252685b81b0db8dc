// The handoff service as the extension runs it (root and registry at the workspace's defaults), in-process with a
// real hub and real files: planted links lead nowhere, a restart touches no planted folder, and keys nobody
// registered stay in memory, capped.
import * as assert from 'assert';
import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HandoffService, type HandoffOptions } from '../../../src/handoff/service';
import { Hub } from '../../../src/hub/hub';
import { snapshot } from '../serveChild';
import { logTo } from '../../../src/common/log';
// The module object itself (not a namespace copy), so a spy set on it is what the bundled service calls.
import nodeFs = require('fs');

let tmp: string;
let repo: string;
let victim: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-wsvc-'));
  repo = path.join(tmp, 'repo');
  victim = path.join(tmp, 'victim');
  fs.mkdirSync(repo);
  fs.mkdirSync(path.join(victim, 'Documents'), { recursive: true });
  fs.mkdirSync(path.join(victim, 'projects'));
  fs.writeFileSync(path.join(victim, 'projects', 'status.json'), '{"mine": "the user own status.json"}\n');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const TEAM = '[Documents]\nmode = "web"\n[projects]\nmode = "web"\ndescription = "planted"\n';

/** The service with the extension's defaults for `repo`; `o` overrides (a user-chosen root, say). */
async function withService<T>(
  fn: (s: HandoffService, log: string[], startMs: number) => Promise<T> | T,
  o: Partial<HandoffOptions> = {},
): Promise<T> {
  const log: string[] = [];
  const hub = new Hub({ bodyLimit: 64 * 1024 });
  const service = new HandoffService({
    root: path.join(repo, '.agent-lens', 'handoff'),
    teamFile: path.join(repo, '.agent-lens', 'team.toml'),
    rootFrom: 'default',
    teamFrom: 'default',
    workspace: repo,
    hub,
    hubFile: path.join(tmp, 'hub.json'),
    hubEnv: 'AGENT_LENS_HUB',
    cli: '/bin/false',
    finder: { find: async () => Promise.reject(new Error('no terminal in this test')) },
    log: logTo((l, m) => void log.push(`${l}: ${m}`)),
    sleep: async () => undefined,
    ...o,
  });
  const t0 = process.hrtime.bigint();
  service.start();
  const startMs = Number(process.hrtime.bigint() - t0) / 1e6;
  try {
    await hub.listen();
    return await fn(service, log, startMs);
  } finally {
    service.dispose();
    await hub.close();
  }
}

/** Asserts nothing under `dir` changed since `before`, after printing what did (paths only). */
function assertUntouched(dir: string, before: string[]): void {
  const now = snapshot(dir);
  const changed = now.filter((l) => !before.includes(l)).map((l) => l.split(' ')[0]);
  console.log(
    `      under the link's target: ${changed.length ? `created or changed ${changed.join(', ')}` : 'nothing created or changed'}`,
  );
  assert.deepStrictEqual(now, before);
}

/** Start, a dispatch and a doorbell event, as the review ran them. */
async function exercise(s: HandoffService) {
  const dispatch = await s.dispatch({ agent: 'projects', taskId: '1204-01', brief: 'the user task text' });
  const ring = s.ringLocal({ id: 'Documents::t1', status: 'progress', summary: 'planted', report_path: null }, 'doorbell');
  return { dispatch, ring };
}

describe('the workspace default root and registry never lead out through a link', () => {
  it('.agent-lens/handoff -> victim: nothing is created or changed there; the log and the board name the link', async () => {
    fs.mkdirSync(path.join(repo, '.agent-lens'));
    fs.writeFileSync(path.join(repo, '.agent-lens', 'team.toml'), TEAM);
    fs.symlinkSync(victim, path.join(repo, '.agent-lens', 'handoff'));
    const before = snapshot(victim);
    const link = path.join(repo, '.agent-lens', 'handoff');
    await withService(async (s, log) => {
      const { dispatch, ring } = await exercise(s);
      assertUntouched(victim, before);
      assert.ok(
        log.some((l) => l.startsWith('warn: handoff root') && l.includes(`${link} is a symbolic link (to ${victim})`)),
        log.join('\n'),
      );
      assert.strictEqual(dispatch.submitted, false);
      assert.ok(dispatch.error?.includes(`${link} is a symbolic link`), dispatch.error);
      assert.ok(s.boards.get('projects').error_reason?.includes(link), 'the board says which link');
      assert.strictEqual(ring.ok, true);
      assert.strictEqual(s.boards.get('Documents').last_event?.summary, 'planted', 'boards work in memory');
    });
    assertUntouched(victim, before);
  });

  it('.agent-lens -> victim: the registry is refused naming the link; nothing is written', async () => {
    fs.writeFileSync(path.join(victim, 'team.toml'), TEAM);
    fs.symlinkSync(victim, path.join(repo, '.agent-lens'));
    const before = snapshot(victim);
    await withService(async (s, log) => {
      const { dispatch } = await exercise(s);
      assertUntouched(victim, before);
      assert.ok(s.registry.error()?.message.includes(`${path.join(repo, '.agent-lens')} is a symbolic link`), s.registry.error()?.message);
      assert.deepStrictEqual(s.agents(), []);
      assert.match(dispatch.error ?? '', /not registered/);
      assert.ok(
        log.some((l) => /handoff root .* is a symbolic link/.test(l)),
        log.join('\n'),
      );
    });
    assertUntouched(victim, before);
  });

  it('a root from workspace settings outside the workspace is refused; a user-chosen link is used and logged', async () => {
    fs.mkdirSync(path.join(repo, '.agent-lens'));
    fs.writeFileSync(path.join(repo, '.agent-lens', 'team.toml'), TEAM);
    const before = snapshot(victim);
    await withService(
      async (s) => {
        const { dispatch } = await exercise(s);
        assert.match(dispatch.error ?? '', /is not inside .*user settings/);
      },
      { root: victim, rootFrom: 'workspace' },
    );
    assert.deepStrictEqual(snapshot(victim), before);
    fs.symlinkSync(victim, path.join(tmp, 'mine'));
    await withService(
      async (s, log) => {
        assert.ok(
          log.some((l) => l.includes(`leads through a symbolic link to ${victim}`)),
          log.join('\n'),
        );
        assert.strictEqual((await exercise(s)).dispatch.submitted, true);
      },
      { root: path.join(tmp, 'mine'), rootFrom: 'user' },
    );
    assert.ok(fs.existsSync(path.join(victim, 'projects', 'briefs', '1204-01-brief.md')));
  });

  it('real folders of the workspace are created and written as before', async () => {
    fs.mkdirSync(path.join(repo, '.agent-lens'));
    fs.writeFileSync(path.join(repo, '.agent-lens', 'team.toml'), TEAM);
    await withService(async (s) => {
      const { dispatch, ring } = await exercise(s);
      assert.strictEqual(dispatch.submitted, true, dispatch.error);
      assert.strictEqual(ring.ok, true);
    });
    for (const f of ['projects/read.md', 'projects/briefs/1204-01-brief.md', 'Documents/events.jsonl', 'Documents/status.json'])
      assert.ok(fs.existsSync(path.join(repo, '.agent-lens', 'handoff', f)), f);
  });
});

describe('files planted in a registered agent’s real folder', () => {
  it('an events.jsonl that is a FIFO is refused at once, not waited on; the board still moves', async () => {
    const dir = path.join(repo, '.agent-lens', 'handoff', 'projects');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(repo, '.agent-lens', 'team.toml'), TEAM);
    const fifo = path.join(dir, 'events.jsonl');
    execFileSync('mkfifo', [fifo]);
    // Should the open wait for a reader, this one comes after 3 s: the event then returns and the test fails on
    // its time instead of hanging the run.
    const reader = spawn('sh', ['-c', `sleep 3; cat '${fifo}' > /dev/null`], { stdio: 'ignore' });
    try {
      await withService((s, log) => {
        const t0 = Date.now();
        const r = s.ringLocal({ id: 'projects::t1', status: 'progress', summary: 'x', report_path: null }, 'doorbell');
        assert.ok(Date.now() - t0 < 1000, `took ${Date.now() - t0} ms`);
        assert.strictEqual(r.ok, true);
        assert.ok(
          log.some((l) => /could not append to projects's events log/.test(l)),
          log.join('\n'),
        );
        assert.strictEqual(s.boards.get('projects').last_event?.summary, 'x');
      });
    } finally {
      reader.kill('SIGKILL');
    }
  });
});

describe('a restart with many planted folders, and keys nobody registered', () => {
  it('10,000 planted folders: start lists no folder and rewrites no planted status.json', async () => {
    const root = path.join(repo, '.agent-lens', 'handoff');
    fs.mkdirSync(root, { recursive: true });
    fs.writeFileSync(path.join(repo, '.agent-lens', 'team.toml'), '[w]\nmode = "web"\n');
    const old = new Date('2020-01-01T00:00:00Z');
    const planted = Array.from({ length: 10_000 }, (_, i) => path.join(root, `a${i}`, 'status.json'));
    for (const f of planted) {
      fs.mkdirSync(path.dirname(f));
      fs.writeFileSync(f, JSON.stringify({ agent: path.basename(path.dirname(f)), state: 'in_progress', task_id: 'x' }));
      fs.utimesSync(f, old, old);
    }
    fs.mkdirSync(path.join(root, 'w'));
    fs.writeFileSync(path.join(root, 'w', 'status.json'), JSON.stringify({ agent: 'w', state: 'done', task_id: 't0' }));
    // Count what start lists and opens: the fs module is shared with the bundled service.
    const listed: string[] = [];
    const opened: string[] = [];
    const { readdirSync, openSync } = nodeFs;
    const spy =
      (into: string[], f: (...x: unknown[]) => unknown) =>
      (p: unknown, ...a: unknown[]) => (into.push(String(p)), f(p, ...a));
    Object.assign(nodeFs, { readdirSync: spy(listed, readdirSync as never), openSync: spy(opened, openSync as never) });
    let ms = 0;
    let boards: string[][] = [];
    try {
      await withService((s, _log, startMs) => {
        ms = startMs;
        boards = s.boards.all().map((b) => [b.agent, b.state]);
      });
    } finally {
      Object.assign(nodeFs, { readdirSync, openSync });
    }
    const inRoot = (p: string) => p === root || p.startsWith(`${root}${path.sep}`);
    console.log(
      `      10,000 planted folders: start() took ${ms.toFixed(1)} ms; listed ${listed.filter(inRoot).length} folders and opened ${opened.filter(inRoot).length} files under the root`,
    );
    const changed = planted.filter((f) => fs.statSync(f).mtimeMs !== old.getTime());
    console.log(`      ${boards.length} boards after start, ${changed.length} planted status.json rewritten`);
    assert.deepStrictEqual(boards, [['w', 'idle']], 'only the registered agent has a board');
    assert.deepStrictEqual(
      listed.filter((p) => p === root),
      [],
      'the root is never listed',
    );
    const w = path.join(root, 'w');
    assert.deepStrictEqual(
      opened.filter((p) => inRoot(p) && p !== w && !p.startsWith(`${w}${path.sep}`)),
      [],
      'no file opened but the registered agent’s',
    );
    assert.strictEqual(changed.length, 0, `${changed.length} planted status.json rewritten`);
    assert.strictEqual(
      JSON.parse(fs.readFileSync(path.join(root, 'w', 'status.json'), 'utf8')).state,
      'idle',
      'the registered agent reads idle (seed 002 §7.5)',
    );
  });

  it('1,000 events and 1,000 refused dispatches with new keys: no folder, at most 32 boards, one warning', async () => {
    fs.mkdirSync(path.join(repo, '.agent-lens'));
    fs.writeFileSync(path.join(repo, '.agent-lens', 'team.toml'), '[w]\nmode = "web"\n');
    await withService(async (s, log) => {
      const heap0 = process.memoryUsage().heapUsed;
      for (let i = 0; i < 1000; i++)
        assert.strictEqual(
          s.ringLocal({ id: `k${i}::t1`, status: 'progress', summary: 's'.repeat(400), report_path: null }, 'doorbell').ok,
          true,
        );
      for (let i = 0; i < 1000; i++) await s.dispatch({ agent: `d${i}`, taskId: 't1', brief: 'b' });
      s.ringLocal({ id: 'w::t1', status: 'progress', summary: 'mine', report_path: null }, 'doorbell');
      const boards = s.boards.all();
      const warnings = log.filter((l) => /unregistered agents are kept in memory only/.test(l));
      console.log(
        `      2,000 new keys: ${boards.length} boards, ${s.boards.ungrouped.length} ungrouped kept, ${String((s.boards as { dropped?: number }).dropped)} events dropped, ${warnings.length} cap warning(s), heap +${((process.memoryUsage().heapUsed - heap0) / 2 ** 20).toFixed(1)} MB`,
      );
      assert.ok(boards.length <= 33, `${boards.length} boards`);
      assert.strictEqual(
        boards.filter((b) => b.agent.startsWith('k')).length,
        32,
        'the first 32 unregistered keys keep a board, in memory',
      );
      assert.ok(s.boards.ungrouped.length <= 20);
      assert.strictEqual(warnings.length, 1, warnings.join('\n'));
      assert.strictEqual((s.boards as { dropped?: number }).dropped, 1000 - 32);
    });
    assert.deepStrictEqual(fs.readdirSync(path.join(repo, '.agent-lens', 'handoff')), ['w'], 'only the registered agent has a folder');
  });
});
