// OpenCodeDb against real SQLite: a python3 writer (its sqlite3 module is the real library) keeps a
// WAL-mode db open with autocheckpoint off, so the rows under test live only in the -wal file.
import * as assert from 'assert';
import * as cp from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as readline from 'readline';
import { defaultOpenCodeDbPath, OpenCodeDb, OpenCodeDbError, type Row } from '../../../../src/sources/logs/opencodeDb';
import { readWalHeader } from '../../../../src/formats/sqlite/wal';

const HAS_PYTHON = cp.spawnSync('python3', ['-c', 'import sqlite3'], { stdio: 'ignore' }).status === 0;

/** The OpenCode 1.18 schema subset (column order as in the real db), indexes included: they share the file. */
const SCHEMA = `
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL,
  directory text NOT NULL, title text NOT NULL, version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE INDEX part_session_idx ON part (session_id);`;

// timeout=0: any lock our reader took would surface at once as "database is locked" in `errors`.
const WRITER = String.raw`
import sqlite3, sys, json, time, threading
con = sqlite3.connect(sys.argv[1], timeout=0, isolation_level=None, check_same_thread=False)
con.execute("PRAGMA journal_mode=WAL"); con.execute("PRAGMA wal_autocheckpoint=0")
con.executescript(sys.argv[2])
lock = threading.Lock(); errors = []; state = {"tx": 0, "ckpt": 0, "run": False}
def tx(stmts):
    with lock:
        try:
            con.execute("BEGIN IMMEDIATE")
            for sql, params in stmts: con.execute(sql, params)
            con.execute("COMMIT")
        except Exception as e:
            errors.append(str(e))
            try: con.execute("ROLLBACK")
            except Exception: pass
def churn(sid, rate, every):
    n = 0
    while state["run"]:
        t = int(time.time() * 1000); n += 1; m = "msg_churn_%06d" % n
        tx([("INSERT INTO message VALUES (?,?,?,?,?)", (m, sid, t, t, '{"role":"assistant"}'))] +
           [("INSERT INTO part VALUES (?,?,?,?,?,?)", ("prt_churn_%06d_%d" % (n, k), m, sid, t, t, '{"type":"text","text":"' + "x" * 700 + '"}')) for k in range(3)] +
           [("UPDATE session SET time_updated=? WHERE id=?", (t, sid))])
        state["tx"] += 1
        if every and n % every == 0:
            with lock: con.execute("PRAGMA wal_checkpoint(PASSIVE)"); state["ckpt"] += 1
        time.sleep(1.0 / rate)
for line in sys.stdin:
    c = json.loads(line); r = {}
    if c["op"] == "tx": tx(c["stmts"])
    elif c["op"] == "query":
        with lock: r["rows"] = con.execute(c["sql"], c.get("params", [])).fetchall()
    elif c["op"] == "checkpoint":
        with lock: r["rows"] = con.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
    elif c["op"] == "churn":
        state["run"] = True; th = threading.Thread(target=churn, args=(c["sid"], c["rate"], c["every"])); th.start()
    elif c["op"] == "stop":
        state["run"] = False; th.join()
    r.update(errors=errors, tx=state["tx"], ckpt=state["ckpt"])
    print(json.dumps(r), flush=True)
`;

type Stmt = [sql: string, params: unknown[]];
interface Reply {
  rows?: unknown[][];
  errors: string[];
  tx: number;
  ckpt: number;
}

/** A python3 process holding the db open; each call waits for its reply. */
class Writer {
  private readonly proc: cp.ChildProcessWithoutNullStreams;
  private readonly waiting: ((r: Reply) => void)[] = [];
  constructor(readonly db: string) {
    this.proc = cp.spawn('python3', ['-c', WRITER, db, SCHEMA]);
    readline.createInterface({ input: this.proc.stdout }).on('line', (l) => this.waiting.shift()?.(JSON.parse(l)));
  }
  send(c: object): Promise<Reply> {
    return new Promise((res) => {
      this.waiting.push(res);
      this.proc.stdin.write(JSON.stringify(c) + '\n');
    });
  }
  tx(...stmts: Stmt[]): Promise<Reply> {
    return this.send({ op: 'tx', stmts });
  }
  async query(sql: string, params: unknown[] = []): Promise<unknown[][]> {
    return (await this.send({ op: 'query', sql, params })).rows!;
  }
  /** SIGKILL: the connection is never closed, so SQLite does not checkpoint the WAL away. */
  kill(): void {
    this.proc.kill('SIGKILL');
  }
}

const session = (id: string, t: number): Stmt => [
  'INSERT INTO session VALUES (?,?,?,?,?,?,?,?,?)',
  [id, 'proj', null, 'slug', '/tmp/demo', 'title', '1.18.33', t, t],
];
const message = (id: string, sid: string, t: number): Stmt => [
  'INSERT INTO message VALUES (?,?,?,?,?)',
  [id, sid, t, t, JSON.stringify({ role: 'assistant', time: { created: t } })],
];
const part = (id: string, mid: string, sid: string, t: number, text = 'hello'): Stmt => [
  'INSERT INTO part VALUES (?,?,?,?,?,?)',
  [id, mid, sid, t, t, JSON.stringify({ type: 'text', text })],
];
const ids = (rows: Row[]) => rows.map((r) => r.id).sort();
const sha = (f: string) => crypto.createHash('sha1').update(fs.readFileSync(f)).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('OpenCodeDb (live SQLite writer, WAL mode)', function () {
  this.timeout(30000);
  let dir: string;
  let db: string;
  let writer: Writer;
  const now = Date.now();

  before(function () {
    if (!HAS_PYTHON) this.skip();
  });
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ocdb-'));
    db = path.join(dir, 'opencode.db');
    writer = new Writer(db);
    await writer.query('SELECT 1');
  });
  afterEach(() => {
    writer?.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sees rows that exist only in the WAL, with every column', async () => {
    const big = 'y'.repeat(20000); // spills into overflow pages
    await writer.tx(session('ses_1', now), message('msg_1', 'ses_1', now), part('prt_1', 'msg_1', 'ses_1', now, big));
    assert.ok(fs.statSync(db + '-wal').size > 0, 'the rows should still be in the WAL');
    assert.ok(!fs.readFileSync(db).includes(Buffer.from('ses_1')), 'the main file must not have them yet');
    const r = new OpenCodeDb(db).poll();
    assert.strictEqual(r.changed, true);
    assert.deepStrictEqual(ids(r.rows.session), ['ses_1']);
    assert.deepStrictEqual(
      r.rows.message.map((m) => [m.id, m.session_id, m.time_updated]),
      [['msg_1', 'ses_1', now]],
    );
    const [p] = r.rows.part;
    assert.deepStrictEqual(JSON.parse(p.data as string), { type: 'text', text: big });
    assert.deepStrictEqual(Object.values(p), (await writer.query('SELECT * FROM part'))[0]);
  });

  it('returns only new and updated rows on later polls, and nothing when idle', async () => {
    await writer.tx(
      session('ses_1', now),
      message('msg_1', 'ses_1', now),
      part('prt_1', 'msg_1', 'ses_1', now),
      part('prt_2', 'msg_1', 'ses_1', now),
    );
    const reader = new OpenCodeDb(db);
    assert.strictEqual(reader.poll().rows.part.length, 2);
    assert.deepStrictEqual(reader.poll(), { rows: { session: [], message: [], part: [] }, changed: false });
    await writer.tx(part('prt_3', 'msg_1', 'ses_1', now + 5), [
      'UPDATE part SET time_updated=?, data=? WHERE id=?',
      [now + 6, '{"type":"text","text":"edited"}', 'prt_1'],
    ]);
    const r = reader.poll();
    assert.deepStrictEqual(ids(r.rows.part), ['prt_1', 'prt_3']);
    assert.strictEqual(r.rows.part.find((x) => x.id === 'prt_1')!.data, '{"type":"text","text":"edited"}');
    assert.deepStrictEqual([r.rows.session, r.rows.message], [[], []]);
    assert.strictEqual(reader.poll().changed, false);
  });

  it('does not miss a row stamped in the same millisecond as the high-water mark', async () => {
    await writer.tx(session('ses_1', now), message('msg_1', 'ses_1', now), part('prt_1', 'msg_1', 'ses_1', now + 9));
    const reader = new OpenCodeDb(db);
    assert.deepStrictEqual(ids(reader.poll().rows.part), ['prt_1']);
    await writer.tx(part('prt_2', 'msg_1', 'ses_1', now + 9)); // same ms, committed after the poll
    await writer.tx(part('prt_0', 'msg_1', 'ses_1', now + 8)); // a little older (another process's clock)
    assert.deepStrictEqual(ids(reader.poll().rows.part), ['prt_0', 'prt_2'], 'prt_1 must not come back');
  });

  it('first poll: only sessions updated within sinceMs; later updates of old sessions still arrive', async () => {
    const old = now - 3 * 24 * 3600_000;
    await writer.tx(session('ses_old', old), message('msg_old', 'ses_old', old), part('prt_old', 'msg_old', 'ses_old', old));
    await writer.tx(session('ses_new', now), message('msg_new', 'ses_new', now), part('prt_new', 'msg_new', 'ses_new', now));
    const reader = new OpenCodeDb(db, { clock: { now: () => now } });
    const first = reader.poll().rows;
    assert.deepStrictEqual([ids(first.session), ids(first.message), ids(first.part)], [['ses_new'], ['msg_new'], ['prt_new']]);
    await writer.tx(
      ['UPDATE session SET time_updated=? WHERE id=?', [now + 1, 'ses_old']],
      part('prt_old2', 'msg_old', 'ses_old', now + 1),
    );
    const next = reader.poll().rows;
    assert.deepStrictEqual([ids(next.session), ids(next.part)], [['ses_old'], ['prt_old2']]);
  });

  it('never blocks a writer that keeps committing and checkpointing, and misses no row', async () => {
    await writer.tx(session('ses_1', now));
    const reader = new OpenCodeDb(db);
    const seen = new Set<string>();
    const salts = new Set<string>();
    const collect = () => {
      for (const p of reader.poll().rows.part) seen.add(p.id as string);
      const fd = fs.openSync(db + '-wal', 'r');
      const h = readWalHeader(fd);
      fs.closeSync(fd);
      if (h) salts.add(`${h.salt1}:${h.salt2}`);
    };
    collect();
    await writer.send({ op: 'churn', sid: 'ses_1', rate: 100, every: 20 });
    const end = Date.now() + 3000;
    while (Date.now() < end) {
      collect();
      await sleep(5);
    }
    const done = await writer.send({ op: 'stop' });
    collect();
    assert.deepStrictEqual(done.errors, [], 'the writer must never see SQLITE_BUSY');
    assert.ok(done.tx > 30 && done.ckpt >= 2, `churn too slow to mean anything: ${done.tx} tx, ${done.ckpt} checkpoints`);
    assert.ok(salts.size >= 2, 'the WAL should have been restarted at least once');
    const truth = (await writer.query('SELECT id FROM part')).map((r) => r[0] as string);
    assert.deepStrictEqual(
      truth.filter((id) => !seen.has(id)),
      [],
    );
    assert.strictEqual(seen.size, truth.length);
    // Only the first poll must scan everything; a restart costs a rescan only if the reader fell a whole WAL generation behind.
    assert.ok(
      reader.stats.fullScans <= 1 + done.ckpt / 2,
      `restarts should be followed incrementally: ${JSON.stringify(reader.stats)}, ${done.ckpt} checkpoints`,
    );
  });

  it('follows a WAL restart: from the old tail when it survives, by a full rescan when it was overwritten', async () => {
    await writer.tx(session('ses_1', now), message('msg_1', 'ses_1', now));
    const reader = new OpenCodeDb(db);
    reader.poll();
    await writer.tx(part('prt_a', 'msg_1', 'ses_1', now + 1));
    await writer.send({ op: 'checkpoint' });
    // Restarts the WAL and touches other pages: prt_a's leaf is now only in the old generation's tail.
    await writer.tx(session('ses_2', now + 2));
    const r = reader.poll().rows;
    assert.deepStrictEqual([ids(r.part), ids(r.session)], [['prt_a'], ['ses_2']]);
    assert.strictEqual(reader.stats.fullScans, 1, 'the old tail should have been used');
    await writer.tx(part('prt_c', 'msg_1', 'ses_1', now + 3));
    await writer.send({ op: 'checkpoint' });
    for (let i = 0; i < 8; i++) await writer.tx(part(`prt_d${i}`, 'msg_1', 'ses_1', now + 4, 'z'.repeat(3000)));
    assert.deepStrictEqual(ids(reader.poll().rows.part), ['prt_c', ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `prt_d${i}`)]);
    assert.strictEqual(reader.stats.fullScans, 2, 'the new generation overwrote the old tail: rescan');
  });

  it('leaves the -wal and -shm files (and the directory) untouched', async () => {
    await writer.tx(session('ses_1', now), message('msg_1', 'ses_1', now), part('prt_1', 'msg_1', 'ses_1', now));
    await sleep(20);
    const snap = () =>
      fs
        .readdirSync(dir)
        .sort()
        .map((f) => [f, sha(path.join(dir, f)), fs.statSync(path.join(dir, f)).mtimeMs]);
    const before = snap();
    assert.deepStrictEqual(
      before.map((e) => e[0]),
      ['opencode.db', 'opencode.db-shm', 'opencode.db-wal'],
    );
    const reader = new OpenCodeDb(db);
    assert.strictEqual(reader.poll().rows.part.length, 1);
    reader.close();
    assert.deepStrictEqual(snap(), before);
  });

  it('reads a db left behind by a killed writer (WAL never checkpointed)', async () => {
    await writer.tx(session('ses_1', now), message('msg_1', 'ses_1', now), part('prt_1', 'msg_1', 'ses_1', now));
    writer.kill();
    await sleep(50);
    assert.deepStrictEqual(ids(new OpenCodeDb(db).poll().rows.part), ['prt_1']);
  });
});

describe('OpenCodeDb (no writer)', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ocdb-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a missing db is not an error, and is picked up once it appears', function () {
    if (!HAS_PYTHON) this.skip();
    const db = path.join(dir, 'opencode.db');
    const reader = new OpenCodeDb(db);
    assert.deepStrictEqual(reader.poll(), { rows: { session: [], message: [], part: [] }, changed: false });
    const t = Date.now();
    const script = `import sqlite3,sys,os\nc=sqlite3.connect(sys.argv[1]);c.execute("PRAGMA journal_mode=WAL");c.executescript(sys.argv[2])\nc.execute("INSERT INTO session VALUES ('ses_1','p',NULL,'s','/d','t','1',${t},${t})");c.commit();os._exit(0)`;
    assert.strictEqual(cp.spawnSync('python3', ['-c', script, db, SCHEMA]).status, 0);
    assert.deepStrictEqual(ids(reader.poll().rows.session), ['ses_1']);
  });

  it('a garbage file is a typed error, and the reader keeps working afterwards', () => {
    const db = path.join(dir, 'opencode.db');
    fs.writeFileSync(db, crypto.randomBytes(8192));
    const reader = new OpenCodeDb(db);
    assert.throws(
      () => reader.poll(),
      (e: unknown) => e instanceof OpenCodeDbError && e.kind === 'corrupt' && /not a SQLite database/.test(e.message),
    );
    assert.throws(() => reader.poll(), OpenCodeDbError, 'the same broken file is reported again, not silently skipped');
    fs.rmSync(db);
    assert.strictEqual(reader.poll().changed, false);
  });

  it('defaultOpenCodeDbPath follows OPENCODE_DB and XDG_DATA_HOME', () => {
    assert.strictEqual(defaultOpenCodeDbPath({}, '/home/u'), '/home/u/.local/share/opencode/opencode.db');
    assert.strictEqual(defaultOpenCodeDbPath({ XDG_DATA_HOME: '/x' }, '/home/u'), '/x/opencode/opencode.db');
    assert.strictEqual(defaultOpenCodeDbPath({ OPENCODE_DB: '/db/oc.db', XDG_DATA_HOME: '/x' }, '/h'), '/db/oc.db');
    assert.strictEqual(defaultOpenCodeDbPath({ OPENCODE_DB: 'dev.db' }, '/h'), '/h/.local/share/opencode/dev.db');
  });
});
