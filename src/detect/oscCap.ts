/** The longest OSC body passed to the emulator: titles and status reports are a line, never kilobytes. */
export const OSC_BODY_CAP = 4096;

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;
const C1_OSC = 0x9d;
const C1_ST = 0x9c;

/** Ends an OSC string: BEL, ESC (of ST or any other sequence), CAN, SUB, C1 ST. */
function endsOsc(c: number): boolean {
  return c === BEL || c === ESC || c === CAN || c === SUB || c === C1_ST;
}

/**
 * Cuts every OSC body (title, program status) to `OSC_BODY_CAP` characters before the emulator sees it. xterm
 * gathers an OSC payload one character at a time into a string of up to 10 MB, and the garbage that makes grows
 * faster than the payload: an endless title cost 200+ ns/byte at 1 MB (`npm run bench`, linear table). Bytes past the
 * cap are dropped up to the string's end, which is kept, so the title is its first 4 KB and the parser's state is
 * what it would have been. Stateful across chunks: an OSC opened in one chunk is counted on in the next.
 */
export class OscCap {
  /** -1: not inside an OSC body; else the body characters passed so far. */
  private inBody = -1;
  /** The last chunk ended with ESC: a `]` first in the next one opens an OSC. */
  private escAtEnd = false;

  filter(data: string): string {
    if (this.inBody < 0 && !this.escAtEnd && data.indexOf('\x1b]') < 0 && data.indexOf('\x9d') < 0) {
      this.escAtEnd = data.charCodeAt(data.length - 1) === ESC;
      return data;
    }
    let out = '';
    let from = 0;
    let i = 0;
    if (this.escAtEnd && this.inBody < 0 && data.charCodeAt(0) === 0x5d /* ] */) {
      this.inBody = 0;
      i = 1;
    }
    this.escAtEnd = false;
    while (i < data.length) {
      if (this.inBody < 0) {
        const c = data.charCodeAt(i++);
        if (c === C1_OSC || (c === ESC && data.charCodeAt(i) === 0x5d)) {
          if (c === ESC) i++;
          this.inBody = 0;
        } else if (c === ESC && i === data.length) this.escAtEnd = true;
        continue;
      }
      const end = this.bodyEnd(data, i);
      const room = Math.max(0, OSC_BODY_CAP - this.inBody);
      if (end - i > room) {
        out += data.slice(from, i + room);
        from = end;
      }
      this.inBody += end - i;
      i = end;
      if (end < data.length) this.inBody = -1;
    }
    return from === 0 ? data : out + data.slice(from);
  }

  private bodyEnd(data: string, from: number): number {
    for (let i = from; i < data.length; i++) if (endsOsc(data.charCodeAt(i))) return i;
    return data.length;
  }
}
