/**
 * Splits bytes appended to a JSON-lines file into complete lines.
 *
 * Works on bytes, not strings: a chunk boundary may fall inside a multi-byte UTF-8 character, so the
 * incomplete tail is kept as bytes and only complete lines are decoded. Memory stays bounded by
 * `maxLineBytes`: a longer line is dropped (counted in `oversized`) and skipped up to its newline
 * without being held.
 */
const NL = 0x0a;
const CR = 0x0d;

export class LineSplitter {
  /** Lines dropped because they were longer than `maxLineBytes` (cumulative; `reset` keeps it: it is a statistic). */
  oversized = 0;
  /** Bytes of the incomplete last line, copied (the caller may reuse its buffers). */
  private parts: Buffer[] = [];
  private held = 0;
  /** Inside an oversized line: drop everything up to the next newline. */
  private skipping = false;

  constructor(private readonly maxLineBytes = 16 * 1024 * 1024) {}

  /** The complete, non-empty lines that `chunk` finishes, without `\n` or a trailing `\r`. */
  push(chunk: Buffer): string[] {
    const out: string[] = [];
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(NL, pos);
      if (nl < 0) {
        this.hold(chunk, pos);
        break;
      }
      this.finish(chunk, pos, nl, out);
      pos = nl + 1;
    }
    return out;
  }

  /** Forgets the incomplete line (the file was truncated or replaced). */
  reset(): void {
    this.parts = [];
    this.held = 0;
    this.skipping = false;
  }

  get pendingBytes(): number {
    return this.held;
  }

  /** `chunk[start, nl)` ends the current line. */
  private finish(chunk: Buffer, start: number, nl: number, out: string[]): void {
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    const len = this.held + (nl - start);
    if (len > this.maxLineBytes) {
      this.oversized++;
      this.reset();
      return;
    }
    if (this.held === 0) {
      // The common case: the whole line is in this chunk, decode it in place without copying.
      emit(chunk, start, nl, out);
      return;
    }
    this.parts.push(chunk.subarray(start, nl));
    const line = Buffer.concat(this.parts, len);
    this.reset();
    emit(line, 0, line.length, out);
  }

  /** `chunk[start, end)` has no newline: keep it for the next push, unless the line is already too long. */
  private hold(chunk: Buffer, start: number): void {
    if (this.skipping) return;
    const n = chunk.length - start;
    if (this.held + n > this.maxLineBytes) {
      // Counted now, not at its newline: the newline may never come, and the count must not depend on it.
      this.oversized++;
      this.reset();
      this.skipping = true;
      return;
    }
    this.parts.push(Buffer.from(chunk.subarray(start)));
    this.held += n;
  }
}

function emit(buf: Buffer, start: number, end: number, out: string[]): void {
  if (end > start && buf[end - 1] === CR) end--;
  if (end > start) out.push(buf.toString('utf8', start, end));
}
