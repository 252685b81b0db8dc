import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LogTailer } from '../../../../src/sources/logs/tailer';
import { FIXTURES } from '../../helpers';
import { jsonl, Sink, until } from './tailerSink';

/**
 * droid rewrites its session log's first line in place when the session gets its title (FACTS.md §10:
 * `writeFileSync` of every line again, same inode, the first line longer or shorter, so every later line moves).
 * A real droid log (fixture 09) written line by line, its head rewritten as droid does, read by the tailer.
 */
const REAL = fs
  .readFileSync(path.join(FIXTURES, 'live/droid/09-multistep-quit/droid-session.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l !== '');
const withTitle = (title: string) => JSON.stringify({ ...(JSON.parse(REAL[0]) as object), title });
/** The titles droid gives a session in turn: none yet, the prompt, the generated one (FACTS.md §10). */
const TITLES = ['New Session', 'create a hello world script', 'Mock session', 'Hi'];

describe('LogTailer: a log whose first line is rewritten in place (droid)', function () {
  this.timeout(20000);
  let dir: string;
  let sink: Sink;
  let tailer: LogTailer | undefined;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-head-'));
    sink = new Sink();
  });
  afterEach(async () => {
    await tailer?.dispose();
    tailer = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Writes the log as droid does: appends, and after some of them the whole file again with a new title. */
  async function play(rewritesHead: boolean): Promise<string> {
    const f = path.join(dir, 'sess', 'id.jsonl');
    fs.mkdirSync(path.dirname(f));
    fs.writeFileSync(f, `${withTitle(TITLES[0])}\n`);
    tailer = new LogTailer({ roots: [{ dir, depth: 1, match: jsonl, rewritesHead }], ...sink.options() });
    await tailer.start();
    const body = REAL.slice(1);
    let title = 0;
    for (const [i, line] of body.entries()) {
      fs.appendFileSync(f, `${line}\n`);
      if (i % 3 === 1 && title < TITLES.length - 1) {
        await new Promise((r) => setTimeout(r, 5));
        const lines = fs.readFileSync(f, 'utf8').split('\n').filter(Boolean);
        lines[0] = withTitle(TITLES[++title]);
        fs.writeFileSync(f, `${lines.join('\n')}\n`);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await until(
      () => sink.of(f).at(-1) === body.at(-1),
      5000,
      () => tailer!.flush(),
    );
    return f;
  }

  it('follows the head: every later line once, in order, no reset, nothing but whole records', async () => {
    const f = await play(true);
    const got = sink.of(f);
    assert.deepStrictEqual(sink.resets, []);
    assert.deepStrictEqual(got.slice(1), REAL.slice(1), 'each record after the first once, in order');
    assert.strictEqual(got[0], withTitle(TITLES[0]), 'the first line as it was read');
  });

  it('without following it, the same writes deliver pieces of records or records twice (the case it exists for)', async () => {
    const f = await play(false);
    const got = sink.of(f);
    const broken = got.filter((l) => !REAL.slice(1).includes(l) && !TITLES.some((t) => l === withTitle(t)));
    assert.ok(
      broken.length > 0 || got.length !== REAL.length || sink.resets.length > 0,
      `${got.length} lines, ${sink.resets.length} resets`,
    );
  });
});
