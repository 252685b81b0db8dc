/**
 * The doorbell's fallback: an agent that cannot reach the doorbell prints a ```handoff fenced JSON block;
 * Agent Lens reads it from the terminal's output and rings the doorbell for it. Bounded: only the last
 * TAIL_MAX characters of plain text are kept, and a block body is at most BLOCK_MAX characters.
 */

const TAIL_MAX = 16 * 1024;
const BLOCK_MAX = 4096;
/** Blocks already rung, so a TUI redrawing its screen does not ring again. */
const SEEN_MAX = 32;

// Escape sequences: CSI (cursor moves become line breaks, so text placed by coordinates stays apart), OSC, others.
const CSI = /\x1b\[[0-?]*[ -/]*[@-~]/g;
const OSC = /\x1b\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)/g;
const ESC = /\x1b[@-Z\\-_]/g;
const BLOCK = /```handoff[ \t]*\n([^`]{1,4096}?)\n[ \t]*```/g;

export function plainText(chunk: string): string {
  return chunk
    .replace(OSC, '')
    .replace(CSI, (m) => (/[HfABEFGd]$/.test(m) ? '\n' : ''))
    .replace(ESC, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}

export class HandoffBlockScanner {
  private tail = '';
  private readonly seen: string[] = [];

  /** Feeds terminal output; returns the bodies of complete blocks not seen before, parsed as JSON objects. */
  feed(chunk: string): Record<string, unknown>[] {
    this.tail = (this.tail + plainText(chunk)).slice(-TAIL_MAX);
    if (!this.tail.includes('```handoff')) return [];
    const out: Record<string, unknown>[] = [];
    let consumed = 0;
    for (const m of this.tail.matchAll(BLOCK)) {
      consumed = m.index! + m[0].length;
      const body = m[1].replace(/\n\s*/g, ' ').trim();
      if (body.length > BLOCK_MAX || this.seen.includes(body)) continue;
      this.seen.push(body);
      if (this.seen.length > SEEN_MAX) this.seen.shift();
      try {
        const v = JSON.parse(body) as unknown;
        if (v && typeof v === 'object' && !Array.isArray(v)) out.push(v as Record<string, unknown>);
      } catch {
        /* not JSON (an example, a half-drawn frame): nothing to ring */
      }
    }
    if (consumed) this.tail = this.tail.slice(consumed);
    return out;
  }
}
