/**
 * The macOS readers around the parsers: one ps table shared by a scan's readers (src/sources/process/table.ts),
 * the census answered from a background read (agentCensus.ts); then the same readers run end to end against this
 * machine's procps `ps` and `lsof`, which take the same columns and options — "BSD-format readers run against
 * Linux procps", skipped where there is no procps.
 */
import * as assert from 'assert';
import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ancestry } from '../../../../src/integrations/reporter/client';
import { agentCwds } from '../../../../src/sources/process/agentCwd';
import { AgentCensus, type CensusSources } from '../../../../src/sources/process/agentCensus';
import { parsePs, PS_TABLE_ARGS } from '../../../../src/sources/process/darwin';
import { findAgent, processesUnder, processInfo, readJobs } from '../../../../src/sources/process/processTree';
import { runTool } from '../../../../src/sources/process/runTool';
import { processStartedBefore } from '../../../../src/sources/process/startTicks';
import { ProcessTable, TABLE_READERS, type TableRow } from '../../../../src/sources/process/table';
import { FIXTURES } from '../../helpers';

const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, 'platform', 'darwin', name), 'utf8');

describe('one ps table per scan, shared by its readers', () => {
  const rowsOf = (n: number): TableRow[] => [{ pid: n, ppid: 1, name: 'x', args: [] }];
  /** macOS's table (TABLE_READERS.darwin) with `ps` answered by `read`. */
  const psTable = (read: () => Promise<TableRow[]>, now?: () => number) => new ProcessTable({ ...TABLE_READERS.darwin!, read }, now);

  it('serves readers that ask while it is read, and while it is young enough for them', async () => {
    let now = 1000;
    let reads = 0;
    const t = psTable(
      async () => rowsOf(++reads),
      () => now,
    );
    const [a, b] = await Promise.all([t.rows(1000), t.rows(250)]);
    assert.strictEqual(reads, 1, 'one call for two readers at once');
    assert.strictEqual(a, b);
    now += 600;
    assert.strictEqual(await t.rows(1000), a, 'the scan’s readers take a table 600 ms old');
    assert.notStrictEqual(await t.rows(250), a, 'a foreground check does not');
    assert.strictEqual(reads, 2);
  });

  it('reads again for a process that runs but is newer than the table', async () => {
    let reads = 0;
    const t = psTable(async () => (++reads === 1 ? rowsOf(1) : [...rowsOf(1), { pid: process.pid, ppid: 1, name: 'node', args: [] }]));
    assert.ok((await t.rowsFor([process.pid], 1000)).some((r) => r.pid === process.pid));
    assert.strictEqual(reads, 2);
    await t.rowsFor([999_999_999], 1000);
    assert.strictEqual(reads, 2, 'a process that is gone does not make it read again');
  });

  it('a failed read rejects its readers, and the next asks again', async () => {
    let fail = true;
    const t = psTable(async () => {
      if (fail) throw new Error('ps: timed out');
      return rowsOf(2);
    });
    await assert.rejects(t.rows(1000), /timed out/);
    fail = false;
    assert.deepStrictEqual(await t.rows(1000), rowsOf(2));
  });
});

describe('agent census on macOS: from the ps table and one lsof, read in the background', () => {
  const table = parsePs(fixture('ps-table.txt'));
  const cwds = new Map([
    [41010, '/Users/me/src/agent lens'],
    [41120, '/Users/me/src/中文 app'],
    [41121, '/Users/me/src/中文 app'],
  ]);

  function census(o: { now?: () => number; fail?: boolean } = {}) {
    const asked: number[][] = [];
    const sources: CensusSources = {
      table: async () => {
        if (o.fail) throw new Error('ps failed');
        return { at: o.now?.() ?? Date.now(), rows: table };
      },
      cwds: async (pids) => (asked.push([...pids]), cwds),
    };
    return { c: new AgentCensus('/nonexistent', 'darwin', sources, o.now), asked };
  }

  it('answers nothing until its read lands, then counts a launcher and its program once', async () => {
    const { c, asked } = census();
    assert.strictEqual(c.count('claude-code', '/Users/me/src/agent lens'), undefined, 'never blocks on ps');
    await c.refresh();
    assert.strictEqual(c.count('claude-code', '/Users/me/src/agent lens'), 1);
    assert.strictEqual(c.count('codex', '/Users/me/src/中文 app'), 1, 'node → codex is one session');
    assert.strictEqual(c.count('codex', '/Users/me/src/agent lens'), 0);
    assert.deepStrictEqual(asked, [[41010, 41120, 41121]], 'one lsof, for the agents only');
  });

  it('never answers from a census older than 2 s: it reads again, and says nothing meanwhile', async () => {
    let now = 10_000;
    const { c } = census({ now: () => now });
    await c.refresh();
    now += 1900;
    assert.strictEqual(c.count('claude-code', '/Users/me/src/agent lens'), 1);
    now += 200;
    assert.strictEqual(c.count('claude-code', '/Users/me/src/agent lens'), undefined);
    await c.refresh();
    assert.strictEqual(c.count('claude-code', '/Users/me/src/agent lens'), 1);
  });

  it('cannot tell when ps fails, nor on Windows before its table is read', async () => {
    const { c } = census({ fail: true });
    await c.refresh();
    assert.strictEqual(c.count('claude-code', '/Users/me/src/agent lens'), undefined);
    assert.strictEqual(new AgentCensus('/nonexistent', 'win32').count('claude-code', '/x'), undefined);
  });
});

async function poll<T>(probe: () => Promise<T | undefined>, ms: number): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** This machine's procps and lsof stand in for macOS's: the same options, columns and field output. */
const hasTools = (() => {
  try {
    execFileSync('ps', ['-axww', '-o', 'pid=', '-p', String(process.pid)], { stdio: 'ignore' });
    execFileSync('lsof', ['-v'], { stdio: 'ignore' });
    return process.platform === 'linux';
  } catch {
    return false;
  }
})();

describe('the process tools, spawned', () => {
  it('run in the C locale; what they print counts on a non-zero exit; missing, hung or too talkative, they reject', async function () {
    if (process.platform === 'win32') this.skip();
    assert.strictEqual(await runTool('sh', ['-c', 'echo "$LC_ALL $TZ"; exit 1'], { env: { TZ: 'UTC0' } }), 'C UTC0\n');
    await assert.rejects(runTool('no-such-tool-agent-lens', []), /no-such-tool-agent-lens is not on PATH/);
    await assert.rejects(runTool('sleep', ['5'], { timeoutMs: 100 }), /no answer within 100 ms/);
    await assert.rejects(runTool('sh', ['-c', 'head -c 5000 /dev/zero'], { maxBuffer: 1000 }), /failed/);
  });
});

describe('BSD-format readers run against Linux procps', function () {
  this.timeout(30_000);
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'al-bsd-')));
  const work = path.join(dir, 'agent lens 中文');
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  before(function () {
    if (!hasTools) this.skip();
    fs.mkdirSync(work);
    fs.symlinkSync('/bin/sleep', path.join(dir, 'claude'));
  });

  it('the table: this process with its parent and job fields, as /proc has them', () => {
    const rows = parsePs(execFileSync('ps', PS_TABLE_ARGS, { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } }), 15);
    const me = rows.find((r) => r.pid === process.pid)!;
    assert.strictEqual(me.ppid, process.ppid);
    assert.strictEqual(me.exe, 'node');
    assert.strictEqual(me.args.at(-1), process.argv.at(-1));
  });

  it('an agent below a shell, its folder through lsof, its start order, its job: all through the darwin path', async () => {
    const sh = spawn('bash', ['-c', `cd "${work}" && "${dir}/claude" 30 & wait`], { stdio: 'ignore' });
    try {
      const found = await poll(async () => findAgent(await processesUnder(sh.pid!, 'darwin')), 10_000);
      assert.strictEqual(found?.agent, 'claude-code');
      assert.deepStrictEqual(await agentCwds([found!.pid, 999_999_999], 'darwin'), new Map([[found!.pid, work]]));
      // Its parent as /proc names it (bash may run the backgrounded list in a subshell of its own).
      const parent = (await processInfo(found!.pid, 'linux'))?.ppid;
      assert.ok(parent === sh.pid || (await processInfo(parent!, 'linux'))?.ppid === sh.pid, `parent ${parent}`);
      assert.strictEqual((await processInfo(found!.pid, 'darwin'))?.ppid, parent);
      assert.strictEqual(await processStartedBefore(1, found!.pid, 'darwin'), true);
      assert.strictEqual(await processStartedBefore(found!.pid, 1, 'darwin'), false);
      const [bsd] = (await readJobs([sh.pid!], 'darwin'))!;
      const [proc] = (await readJobs([sh.pid!], 'linux'))!;
      assert.deepStrictEqual([bsd.pgid, bsd.tpgid], [proc.pgid, proc.tpgid]);
    } finally {
      sh.kill('SIGKILL');
    }
  });

  it('the reporter’s ancestry from one ps -axo pid=,ppid= is the one /proc gives', () => {
    const viaPs = ancestry(process.pid, 64, 'darwin');
    assert.ok(viaPs.length >= 1 && viaPs[0] === process.ppid);
    assert.deepStrictEqual(viaPs, ancestry(process.pid, 64, 'linux'));
  });
});
