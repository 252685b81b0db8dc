import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SnapshotLogSource } from '../../../../src/sources/logs/snapshotSource';
import type { Observation } from '../../../../src/store/observation';
import { FIXTURES } from '../../helpers';
import { logTo } from '../../../../src/common/log';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => T | undefined | false, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

interface Snapshot {
  file: string;
  content: unknown;
}

/** A run's session file and its index, each content in the order cn wrote them (FACTS.md §7). */
function writes(scenario: string): { index: boolean; text: string }[] {
  return fs
    .readFileSync(path.join(FIXTURES, 'live', 'continue-cli', scenario, 'continue-session-snapshots.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Snapshot)
    .map((s) => ({ index: s.file.endsWith('/sessions.json'), text: s.content === '' ? '' : JSON.stringify(s.content, null, 2) }));
}

/** As cn writes: truncate, a moment with nothing in the file, then the whole text (not atomic). */
async function rewrite(file: string, text: string): Promise<void> {
  fs.writeFileSync(file, '');
  await sleep(30);
  fs.writeFileSync(file, text);
}

/** Real files in a temp folder, rewritten as cn rewrites them, read by the real source (fs.watch and its poll). */
describe('Continue CLI session files (real files, real watcher)', function () {
  this.timeout(30_000);
  let root: string;
  let source: SnapshotLogSource | undefined;
  const warnings: string[] = [];
  const seen: Observation[] = [];

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'al-continue-'));
    warnings.length = 0;
    seen.length = 0;
  });
  afterEach(() => {
    source?.dispose();
    source = undefined;
    fs.rmSync(root, { recursive: true, force: true });
  });

  const start = async () => {
    source = new SnapshotLogSource({
      agent: 'continue-cli',
      dirs: [root],
      sink: (o) => seen.push(o),
      log: logTo((level, msg) => void (level === 'warn' && warnings.push(msg))),
    });
    await source.start();
  };

  /** Replays a run's writes into `<root>/sessions/` (created after the source started, as cn's first run does). */
  async function replay(scenario: string): Promise<{ file: string; cwd: string }> {
    const dir = path.join(root, 'sessions');
    fs.mkdirSync(dir, { recursive: true });
    const session = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'live', 'continue-cli', scenario, 'continue-session.json'), 'utf8')) as {
      sessionId: string;
      workspaceDirectory: string;
    };
    const file = path.join(dir, `${session.sessionId}.json`);
    for (const w of writes(scenario)) {
      if (w.index) fs.writeFileSync(path.join(dir, 'sessions.json'), w.text);
      else await rewrite(file, w.text);
      await sleep(200);
    }
    return { file, cwd: session.workspaceDirectory };
  }

  it('04 (approved Bash): one completed, at the file’s time, for the session, once the reply is written', async () => {
    await start();
    const { file, cwd } = await replay('04-bash-approve');
    const o = await until('the completed turn', () => seen.find((x) => x.state === 'completed'));
    await sleep(2500); // a poll more: nothing is told twice
    assert.deepStrictEqual(
      seen.map((x) => x.state),
      ['completed'],
    );
    assert.deepStrictEqual(o.locator, { sessionId: path.basename(file, '.json'), cwd, logPath: file });
    assert.strictEqual(o.source, 'jsonl-watcher');
    // The title's rewrite after the reply moved the time on: the outcome keeps the reply's.
    assert.ok(o.at <= fs.statSync(file).mtimeMs && o.at > Date.now() - 20_000, String(o.at));
    assert.deepStrictEqual(warnings, []);
  });

  it('05 (denied Bash): failed, permission rejected; 07 (Esc) beside it: nothing', async () => {
    await start();
    await replay('05-bash-deny');
    await replay('07-esc-interrupt');
    await until('the denial', () => seen.length > 0);
    await sleep(2500);
    assert.deepStrictEqual(
      seen.map((x) => [x.state, x.reason]),
      [['failed', 'permission rejected']],
    );
    assert.deepStrictEqual(warnings, []);
  });

  it('at start, a file written today tells its outcome, one written days ago does not until it changes again', async () => {
    const dir = path.join(root, 'sessions');
    fs.mkdirSync(dir);
    const text = fs.readFileSync(path.join(FIXTURES, 'live', 'continue-cli', '02-plain-answer', 'continue-session.json'), 'utf8');
    const today = path.join(dir, 'today.json');
    const old = path.join(dir, 'old.json');
    fs.writeFileSync(today, text);
    fs.writeFileSync(old, text);
    const days = Date.now() / 1000 - 3 * 86_400;
    fs.utimesSync(old, days, days);
    await start();
    assert.deepStrictEqual(
      seen.map((x) => x.locator.logPath),
      [today],
    );
    const session = JSON.parse(text) as { history: unknown[] };
    const next = [{ message: { role: 'user', content: 'and Spain?' } }, { message: { role: 'assistant', content: 'Madrid.' } }];
    await rewrite(old, JSON.stringify({ ...session, history: [...session.history, ...next] }, null, 2));
    await until('the old session’s new turn', () => seen.find((x) => x.locator.logPath === old));
    assert.deepStrictEqual(
      seen.map((x) => [path.basename(x.locator.logPath!), x.state]),
      [
        ['today.json', 'completed'],
        ['old.json', 'completed'],
      ],
    );
  });
});
