// Read-only decoding of SQLite table b-trees (https://www.sqlite.org/fileformat.html#b_tree_pages),
// just enough to scan rowid tables: page headers, cells, overflow chains, records. We decode the
// file ourselves instead of running SQLite so that reading never takes a lock and never needs the
// -shm file (see opencodeDbWal.ts). Every offset and page number is range-checked: a page that was
// rewritten while we read must end in an OpenCodeDbError, never in a wrong answer or a hang.
import { OpenCodeDbError } from './wal';

export type Value = string | number | null | Uint8Array;

/** Gives the current committed copy of a page (from the WAL if it has one, else the main file). */
export interface PageSource {
  readonly pageSize: number;
  /** Page size minus the reserved bytes at the end of each page. */
  readonly usable: number;
  readonly pageCount: number;
  /** Reads a page into `into` (pageSize bytes). */
  page(pgno: number, into: Buffer): void;
  /**
   * Reused page buffers, so a scan of a 100 MB db allocates a few pages, not 25 000: `tree` for
   * interior pages, `leaf` for the leaf whose cells are being decoded, `overflow` for overflow chains.
   */
  readonly scratch: { tree: Buffer; leaf: Buffer; overflow: Buffer };
}

const LEAF_TABLE = 13;
const INTERIOR_TABLE = 5;

function fail(what: string): never {
  throw new OpenCodeDbError(`opencode.db: ${what}`);
}

/** SQLite varint: 1–9 bytes, big-endian 7-bit groups, the 9th byte contributes all 8 bits. */
function varint(buf: Buffer, pos: number): [value: number, next: number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    if (pos + i >= buf.length) fail('truncated varint');
    const b = buf[pos + i];
    v = v * 128 + (b & 0x7f);
    if (b < 0x80) return [v, pos + i + 1];
  }
  if (pos + 8 >= buf.length) fail('truncated varint');
  return [v * 256 + buf[pos + 8], pos + 9];
}

function readPage(src: PageSource, pgno: number, buf: Buffer): Buffer {
  if (!Number.isInteger(pgno) || pgno < 1 || pgno > src.pageCount) fail(`page ${pgno} out of range`);
  src.page(pgno, buf);
  return buf;
}

/** A b-tree page and its header fields. */
function header(src: PageSource, pgno: number, buf: Buffer): { buf: Buffer; at: number; type: number; cells: number } {
  readPage(src, pgno, buf);
  const at = pgno === 1 ? 100 : 0; // page 1 starts with the 100-byte database header
  const cells = buf.readUInt16BE(at + 3);
  if (at + 8 + 2 * cells > buf.length) fail(`page ${pgno} claims ${cells} cells`);
  return { buf, at, type: buf[at], cells };
}

function cellOffset(buf: Buffer, at: number, hdr: number, i: number): number {
  const off = buf.readUInt16BE(at + hdr + 2 * i);
  if (off < at + hdr || off >= buf.length) fail('cell offset out of range');
  return off;
}

/**
 * Calls visit(leafPgno) for every leaf of the table b-tree rooted at `root` that `want` accepts.
 * Interior pages are always read (a 50 MB table has only ~40), leaves only when wanted: that is
 * what makes an incremental poll cheap. A b-tree is balanced, so when the first child of an
 * interior page is a leaf, all its children are, and the unwanted ones need not be read at all.
 */
export function walkLeaves(src: PageSource, root: number, want: (pgno: number) => boolean, visit: (pgno: number) => void): void {
  const seen = new Set<number>();
  const check = (pgno: number) => {
    if (seen.has(pgno)) fail(`b-tree cycle at page ${pgno}`);
    seen.add(pgno);
  };
  const stack = [root];
  check(root);
  while (stack.length) {
    const pgno = stack.pop()!;
    const { buf, at, type, cells } = header(src, pgno, src.scratch.tree);
    if (type === LEAF_TABLE) {
      if (want(pgno)) visit(pgno);
      continue;
    }
    if (type !== INTERIOR_TABLE) fail(`page ${pgno} is not a table b-tree page (type ${type})`);
    const children: number[] = [];
    for (let i = 0; i < cells; i++) children.push(buf.readUInt32BE(cellOffset(buf, at, 12, i)));
    children.push(buf.readUInt32BE(at + 8));
    children.forEach(check);
    if (header(src, children[0], src.scratch.tree).type === LEAF_TABLE) {
      for (const c of children) if (want(c)) visit(c);
    } else {
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
  }
}

/** One cell of a table leaf: its rowid, the locally stored start of the record, and how to get the rest. */
export interface Cell {
  rowid: number;
  local: Buffer;
  total: number;
  overflow: number;
}

/** The cells of one table leaf page; they point into src.scratch.leaf, so are valid until the next call. */
export function leafCells(src: PageSource, pgno: number): Cell[] {
  const { buf, at, type, cells } = header(src, pgno, src.scratch.leaf);
  if (type !== LEAF_TABLE) fail(`page ${pgno} is not a table leaf`);
  const u = src.usable;
  const maxLocal = u - 35;
  const minLocal = Math.floor(((u - 12) * 32) / 255) - 23;
  const out: Cell[] = [];
  for (let i = 0; i < cells; i++) {
    let pos = cellOffset(buf, at, 8, i);
    let total: number;
    let rowid: number;
    [total, pos] = varint(buf, pos);
    [rowid, pos] = varint(buf, pos);
    let localLen = total;
    if (total > maxLocal) {
      const k = minLocal + ((total - minLocal) % (u - 4));
      localLen = k <= maxLocal ? k : minLocal;
    }
    if (pos + localLen + (localLen < total ? 4 : 0) > u) fail(`cell ${i} of page ${pgno} overruns the page`);
    const overflow = localLen < total ? buf.readUInt32BE(pos + localLen) : 0;
    out.push({ rowid, local: buf.subarray(pos, pos + localLen), total, overflow });
  }
  return out;
}

/** The whole record of a cell (a fresh buffer when it has overflow pages). */
export function fullPayload(src: PageSource, cell: Cell): Buffer {
  if (!cell.overflow) return cell.local;
  const out = Buffer.allocUnsafe(cell.total);
  let have = cell.local.copy(out, 0);
  let next = cell.overflow;
  const chunk = src.usable - 4;
  let hops = 0;
  while (have < cell.total) {
    if (next === 0 || ++hops > src.pageCount) fail('broken overflow chain');
    const buf = readPage(src, next, src.scratch.overflow);
    have += buf.copy(out, have, 4, 4 + Math.min(chunk, cell.total - have));
    next = buf.readUInt32BE(0);
  }
  return out;
}

function intValue(buf: Buffer, pos: number, n: number): number {
  if (n === 8) return Number(buf.readBigInt64BE(pos));
  return buf.readIntBE(pos, n);
}

const INT_BYTES = [0, 1, 2, 3, 4, 6, 8];

/**
 * Decodes a record (its first `columns` values). With only the local part of a long record, columns that are not (entirely) in
 * `buf` come back as undefined, so a caller can filter on the leading columns before paying for
 * the overflow chain.
 */
export function decodeRecord(buf: Buffer, columns = Infinity): (Value | undefined)[] {
  const [hdrLen, start] = varint(buf, 0);
  if (hdrLen < 1) fail('bad record header');
  const out: (Value | undefined)[] = [];
  // A header cut short by the end of the local part: stop before a possibly split varint.
  const hdrEnd = hdrLen <= buf.length ? hdrLen : buf.length - 9;
  let pos = start;
  let body = hdrLen;
  while (pos < hdrEnd && out.length < columns) {
    let t: number;
    [t, pos] = varint(buf, pos);
    const len = t >= 12 ? (t - 12) >> 1 : t === 7 ? 8 : t < 7 ? INT_BYTES[t] : 0;
    if (body + len > buf.length) out.push(undefined);
    else if (t === 0) out.push(null);
    else if (t <= 6) out.push(intValue(buf, body, len));
    else if (t === 7) out.push(buf.readDoubleBE(body));
    else if (t === 8 || t === 9) out.push(t - 8);
    else if (t < 12) fail(`reserved serial type ${t}`);
    else if (t & 1) out.push(buf.toString('utf8', body, body + len));
    else out.push(new Uint8Array(buf.subarray(body, body + len)));
    body += len;
  }
  if (hdrLen <= buf.length && pos !== hdrLen && out.length < columns) fail('record header overruns');
  return out;
}

/** Column names of a CREATE TABLE statement, and which one (if any) aliases the rowid. */
export function parseColumns(sql: string): { names: string[]; rowidAlias: number } {
  const open = sql.indexOf('(');
  const close = sql.lastIndexOf(')');
  if (open < 0 || close < open) fail('unreadable CREATE TABLE');
  const defs: string[] = [];
  let depth = 0;
  let quote = '';
  let from = open + 1;
  for (let i = from; i < close; i++) {
    const c = sql[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === '`' || c === "'") quote = c;
    else if (c === '[') quote = ']';
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      defs.push(sql.slice(from, i));
      from = i + 1;
    }
  }
  defs.push(sql.slice(from, close));
  const names: string[] = [];
  let rowidAlias = -1;
  for (const def of defs.map((d) => d.trim())) {
    if (/^(constraint|primary|unique|check|foreign)\b/i.test(def)) continue;
    const col = columnName(def);
    if (!col) continue;
    names.push(col.name);
    if (/^integer\s+primary\s+key\b(?!\s+desc)/i.test(col.rest)) rowidAlias = names.length - 1;
  }
  return { names, rowidAlias };
}

const CLOSING: Record<string, string> = { '"': '"', '`': '`', "'": "'", '[': ']' };

/**
 * A column definition's name (quoted as SQLite allows: "…" with "" inside, `…`, […], '…', or a bare word) and the
 * rest. Scanned with indexOf, not a regex: an unclosed quote made the regex's backtracking cost grow with the square
 * of the definition's length (npm run bench). Unclosed, the name is the first word, quote included, as SQLite reads it.
 */
function columnName(def: string): { name: string; rest: string } | undefined {
  const close = CLOSING[def[0]];
  if (close) {
    let at = 0;
    for (;;) {
      at = def.indexOf(close, at + 1);
      // A doubled quote is one quote in the name ([…] has no escape).
      if (at >= 0 && close !== ']' && def[at + 1] === close) {
        at++;
        continue;
      }
      break;
    }
    if (at > 0) {
      const body = def.slice(1, at);
      return { name: close === ']' ? body : body.split(close + close).join(close), rest: def.slice(at + 1).trimStart() };
    }
  }
  const word = /^\S+/.exec(def);
  return word ? { name: word[0], rest: def.slice(word[0].length).trimStart() } : undefined;
}

export interface TableInfo {
  root: number;
  names: string[];
  rowidAlias: number;
}

/** Reads sqlite_schema (the table b-tree on page 1) for the rowid tables we were asked about. */
export function readSchema(src: PageSource, tables: readonly string[]): Map<string, TableInfo> {
  const found = new Map<string, TableInfo>();
  walkLeaves(
    src,
    1,
    () => true,
    (pgno) => {
      for (const cell of leafCells(src, pgno)) {
        const [type, name, , root, sql] = decodeRecord(fullPayload(src, cell));
        if (type !== 'table' || typeof name !== 'string' || !tables.includes(name)) continue;
        if (typeof root !== 'number' || typeof sql !== 'string') fail(`schema row of ${name} is unreadable`);
        if (/\)\s*without\s+rowid\s*;?\s*$/i.test(sql)) fail(`table ${name} is WITHOUT ROWID`);
        found.set(name, { root, ...parseColumns(sql) });
      }
    },
  );
  return found;
}
