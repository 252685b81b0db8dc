// The file-format layer of the OpenCode db reader, checked against files written by real SQLite
// (python3's sqlite3): record decoding of every storage class, deep b-trees, overflow chains,
// big-endian WAL checksums, and torn or truncated files.
import * as assert from 'assert';
import * as cp from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OpenCodeDb, OpenCodeDbError, type Row } from '../../../src/sources/logs/opencodeDb';
import { decodeRecord, fullPayload, leafCells, parseColumns, readSchema, walkLeaves, type Value } from '../../../src/formats/sqlite/btree';
import { Snapshot } from '../../../src/formats/sqlite/file';
import { emptyWal, extendWal, readWalHeader } from '../../../src/formats/sqlite/wal';

const HAS_PYTHON = cp.spawnSync('python3', ['-c', 'import sqlite3'], { stdio: 'ignore' }).status === 0;

// The reader's first poll only returns parts of known sessions, hence session 's'.
const PART = `CREATE TABLE session (id text PRIMARY KEY, time_updated integer);
INSERT INTO session VALUES ('s', 1);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX part_session_idx ON part (session_id);`;

/**
 * Runs python with `con` open on db in WAL mode (autocheckpoint off) and exits without closing it,
 * so every write stays in the -wal file, as in a running OpenCode. Prints whatever `out` holds as JSON.
 */
function py(db: string, body: string): unknown {
  const script = `import sqlite3, sys, json, os, base64
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("PRAGMA journal_mode=WAL"); con.execute("PRAGMA wal_autocheckpoint=0")
out = None
${body}
sys.stdout.write(json.dumps(out)); sys.stdout.flush(); os._exit(0)`;
  const r = cp.spawnSync('python3', ['-c', script, db], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.strictEqual(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** Every row of a table through the b-tree layer, blobs as {blob: base64} to compare with python. */
function scan(db: string, table: string): unknown[][] {
  const opened = Snapshot.open(db, {})!;
  const { src } = opened;
  try {
    const info = readSchema(src, [table]).get(table)!;
    const rows: unknown[][] = [];
    walkLeaves(
      src,
      info.root,
      () => true,
      (pgno) => {
        for (const cell of leafCells(src, pgno)) {
          const vals = decodeRecord(fullPayload(src, cell)).map((v: Value | undefined) =>
            v instanceof Uint8Array ? { blob: Buffer.from(v).toString('base64') } : v,
          );
          rows.push([cell.rowid, ...vals]);
        }
      },
    );
    return rows;
  } finally {
    src.close();
  }
}

describe('OpenCodeDb file format (against real SQLite files)', function () {
  this.timeout(30000);
  let dir: string;
  let db: string;
  before(function () {
    if (!HAS_PYTHON) this.skip();
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ocdbf-'));
    db = path.join(dir, 'opencode.db');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('decodes every storage class exactly as SQLite stores it', () => {
    const truth = py(
      db,
      String.raw`
con.execute("CREATE TABLE kinds (a, b)")
ints = [0, 1, -1, 127, -128, 128, 32767, -32768, 8388607, -8388608, 2**31 - 1, -2**31, 2**40, -2**47, 2**53 - 1, -(2**53 - 1)]
vals = [(i, None) for i in ints] + [(0.5, -1e300), (3.25, None), ("", "héllo ✓ 日本"), ("x" * 200000, None),
        (bytes(range(10)), b""), (os.urandom(50000), 7), (None, None)]
# Payload sizes around where a record starts to spill (usable - 35) and where its local part is cut.
vals += [("k" * n, None) for n in range(4040, 4075)] + [("m" * n, 1) for n in range(4080, 12400, 97)]
con.execute("BEGIN")
for v in vals: con.execute("INSERT INTO kinds VALUES (?, ?)", v)
con.execute("COMMIT")
enc = lambda v: {"blob": base64.b64encode(v).decode()} if isinstance(v, bytes) else v
out = [[r[0], enc(r[1]), enc(r[2])] for r in con.execute("SELECT rowid, a, b FROM kinds")]`,
    );
    assert.deepStrictEqual(scan(db, 'kinds'), truth);
  });

  it('walks a three-level b-tree and finds every committed row, none of an open transaction', () => {
    const truth = py(
      db,
      String.raw`
con.executescript("""${PART}""")
con.execute("BEGIN")
for i in range(30000):
    con.execute("INSERT INTO part VALUES (?,?,?,?,?,?)", ("prt_%06d" % i, "msg_%d" % (i // 10), "s", i, i, '{"text":"' + "t" * (i % 300) + '"}'))
con.execute("COMMIT")
out = [r[0] for r in con.execute("SELECT id FROM part ORDER BY id")]
# An open transaction bigger than the page cache spills frames into the WAL without a commit frame.
size = os.path.getsize(sys.argv[1] + "-wal")
con.execute("PRAGMA cache_size=5"); con.execute("BEGIN")
for i in range(3000): con.execute("INSERT INTO part VALUES (?,'m','s',1,1,?)", ("prt_open_%d" % i, "o" * 500))
assert os.path.getsize(sys.argv[1] + "-wal") > size, "no spill"`,
    ) as string[];
    const opened = Snapshot.open(db, {})!;
    const info = readSchema(opened.src, ['part']).get('part')!;
    let depth = 0;
    for (let p = info.root, buf = opened.src.scratch.tree; ; depth++) {
      opened.src.page(p, buf);
      if (buf[0] === 13) break;
      p = buf.readUInt32BE(8);
    }
    opened.src.close();
    assert.ok(depth >= 2, `expected a deep tree, got depth ${depth}`);
    const rows = new OpenCodeDb(db, { sinceMs: 1e15 }).poll().rows.part;
    assert.deepStrictEqual(rows.map((r) => r.id).sort(), truth);
  });

  it('reads a WAL written with big-endian checksums', () => {
    py(db, `con.executescript("""${PART}"""); con.execute("INSERT INTO part VALUES ('prt_1','m','s',1,1,'{}')")`);
    const le = fs.readFileSync(db + '-wal');
    fs.writeFileSync(db + '-wal', toBigEndianWal(le));
    const fd = fs.openSync(db + '-wal', 'r');
    const header = readWalHeader(fd)!;
    const wal = emptyWal(header);
    extendWal(fd, fs.fstatSync(fd).size, wal);
    fs.closeSync(fd);
    assert.strictEqual(header.bigEndian, true);
    assert.ok(wal.frames > 0 && wal.frames === (le.length - 32) / (24 + header.pageSize));
    assert.deepStrictEqual(
      new OpenCodeDb(db, { sinceMs: 1e15 }).poll().rows.part.map((r: Row) => r.id),
      ['prt_1'],
    );
  });

  it('ignores a torn or corrupted last transaction and keeps the ones before it', () => {
    py(
      db,
      `con.executescript("""${PART}""")
con.execute("INSERT INTO part VALUES ('prt_1','m','s',1,1,'{}')")
con.execute("INSERT INTO part VALUES ('prt_2','m','s',2,2,'{}')")`,
    );
    const wal = fs.readFileSync(db + '-wal');
    const frame = 24 + wal.readUInt32BE(8);
    const read = () => new OpenCodeDb(db, { sinceMs: 1e15 }).poll().rows.part.map((r) => r.id);
    assert.deepStrictEqual(read(), ['prt_1', 'prt_2']);
    fs.writeFileSync(db + '-wal', wal.subarray(0, wal.length - 100)); // the last frame half written
    assert.deepStrictEqual(read(), ['prt_1']);
    const flipped = Buffer.from(wal);
    flipped[wal.length - frame + 24 + 10] ^= 0xff; // a bit flipped in the last commit frame's page
    fs.writeFileSync(db + '-wal', flipped);
    assert.deepStrictEqual(read(), ['prt_1']);
  });

  it('reports columns added later by ALTER TABLE as null in older rows', () => {
    py(
      db,
      `con.execute("CREATE TABLE session (id text PRIMARY KEY, time_updated integer)")
con.execute("INSERT INTO session VALUES ('ses_1', 1)")
con.execute("ALTER TABLE session ADD COLUMN title text")
con.execute("INSERT INTO session VALUES ('ses_2', 2, 'two')")`,
    );
    const rows = new OpenCodeDb(db, { sinceMs: 1e15 }).poll().rows.session;
    assert.deepStrictEqual(rows, [
      { id: 'ses_1', time_updated: 1, title: null },
      { id: 'ses_2', time_updated: 2, title: 'two' },
    ]);
  });

  it('random damage to any page ends in rows or an OpenCodeDbError, never another error or a hang', () => {
    py(
      db,
      `con.executescript("""${PART}""")
for i in range(300): con.execute("INSERT INTO part VALUES (?,'m','s',?,?,?)", ("prt_%d" % i, i, i, "d" * (i * 37 % 9000)))
con.execute("PRAGMA wal_checkpoint(TRUNCATE)")`,
    );
    const good = fs.readFileSync(db);
    let seed = 12345;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) >>> 0) % n;
    const kinds = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const bad = Buffer.from(good);
      for (let k = 0; k < 1 + rand(8); k++) bad[100 + rand(bad.length - 100)] = rand(256);
      fs.writeFileSync(db, bad);
      try {
        new OpenCodeDb(db, { sinceMs: 1e15 }).poll();
        kinds.add('rows');
      } catch (e) {
        assert.ok(e instanceof OpenCodeDbError, `iteration ${i}: ${(e as Error).stack}`);
        assert.strictEqual(e.kind, 'corrupt', `iteration ${i}: ${e.message}`);
        kinds.add(e.kind);
      }
    }
    assert.ok(kinds.has('corrupt'), `damage should be noticed sometimes: ${[...kinds]}`);
  });

  it('a truncated main file is a typed error, not a crash or an empty answer', () => {
    py(
      db,
      `con.executescript("""${PART}"""); con.execute("INSERT INTO part VALUES ('prt_1','m','s',1,1,'${'x'.repeat(9000)}')"); con.execute("PRAGMA wal_checkpoint(TRUNCATE)")`,
    );
    const full = fs.readFileSync(db);
    fs.rmSync(db + '-wal', { force: true });
    fs.writeFileSync(db, full.subarray(0, 4096 * 2));
    assert.throws(
      () => new OpenCodeDb(db, { sinceMs: 1e15 }).poll(),
      (e: unknown) => e instanceof OpenCodeDbError && e.kind === 'corrupt',
    );
  });
});

describe('parseColumns', () => {
  it('reads the column names of OpenCode-style DDL, skipping table constraints', () => {
    const sql =
      'CREATE TABLE `part` (\n\t`id` text PRIMARY KEY,\n\t`message_id` text NOT NULL,\n\t"session id" text,\n\t[weird,name] integer DEFAULT (1 + 2),\n' +
      '\tCONSTRAINT `fk_part` FOREIGN KEY (`message_id`) REFERENCES `message`(`id`) ON DELETE CASCADE\n)';
    assert.deepStrictEqual(parseColumns(sql), { names: ['id', 'message_id', 'session id', 'weird,name'], rowidAlias: -1 });
  });
  it('reads each way SQLite quotes a name: doubled quotes inside, and an unclosed quote as part of a bare word', () => {
    assert.deepStrictEqual(parseColumns(`CREATE TABLE t ("a""b" text, 'c''d' text, \`e\`\`f\` int, [g h] int, "unclosed int)`).names, [
      'a"b',
      "c'd",
      'e`f',
      'g h',
      '"unclosed',
    ]);
    assert.deepStrictEqual(parseColumns('CREATE TABLE t ("x"INTEGER PRIMARY KEY)'), { names: ['x'], rowidAlias: 0 });
  });
  it('knows an INTEGER PRIMARY KEY column is the rowid', () => {
    assert.deepStrictEqual(parseColumns('CREATE TABLE t (a text, n INTEGER PRIMARY KEY, PRIMARY KEY (a))'), {
      names: ['a', 'n'],
      rowidAlias: 1,
    });
  });
});

/** Rewrites a little-endian WAL with big-endian checksums (magic 0x377f0683), as a big-endian host writes it. */
function toBigEndianWal(le: Buffer): Buffer {
  const out = Buffer.from(le);
  const sum = (buf: Buffer, from: number, to: number, s: [number, number]) => {
    for (let i = from; i < to; i += 8) {
      s[0] = (s[0] + buf.readUInt32BE(i) + s[1]) >>> 0;
      s[1] = (s[1] + buf.readUInt32BE(i + 4) + s[0]) >>> 0;
    }
  };
  out.writeUInt32BE(0x377f0683, 0);
  const s: [number, number] = [0, 0];
  sum(out, 0, 24, s);
  out.writeUInt32BE(s[0], 24);
  out.writeUInt32BE(s[1], 28);
  const frame = 24 + out.readUInt32BE(8);
  for (let at = 32; at + frame <= out.length; at += frame) {
    sum(out, at, at + 8, s);
    sum(out, at + 24, at + frame, s);
    out.writeUInt32BE(s[0], at + 16);
    out.writeUInt32BE(s[1], at + 20);
  }
  return out;
}
