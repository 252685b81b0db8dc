/**
 * The cheap path for terminals where no agent is suspected: no emulation, only a scan of each chunk
 * for what an agent's TUI emits early, and a bounded tail of recent output so that a promoted terminal
 * starts its emulator with context.
 */

/** Always armed: sequences only a program writes, naming an agent (title, program status, OpenTUI query). */
export const STRONG_TRIGGER =
  /\x1b\]7501;|\x1b\]99;i=opentui|\x1b\][02];[^\x07\x1b]{0,16}(?:Claude Code|OpenCode|OC \| )|\x1b\][02];(?:◇ {2}Ready|✦ {2}Working…|✋ {2}Action Required) \(/;
/**
 * Disarmed for a while after a promotion found no agent: a full-screen program (top, vim) would
 * otherwise be emulated again and again. Agent names in plain text (a `git log`, a `cat` of notes) are
 * no trigger: real TUIs draw their banners with colour codes inside, and announce themselves with the
 * strong sequences above; `codex exec` prints its header plainly, at a line start, above a rule.
 */
export const WEAK_TRIGGER = /\x1b\[\?(?:1049|1047|47)h|(?:^|\n)OpenAI Codex v\d+\.\d+\.\d+\r?\n-{4}/;
/**
 * The weak trigger inside a chunk: the same, its header only after a newline there (a chunk's start is no line
 * start; a header just after one is seen across the chunk boundary, in the carry and the chunk's first characters).
 */
export const WEAK_TRIGGER_INSIDE = /\x1b\[\?(?:1049|1047|47)h|\nOpenAI Codex v\d+\.\d+\.\d+\r?\n-{4}/;

/** Bytes of recent output replayed into the emulator on promotion. */
export const TAIL_LIMIT = 8 * 1024;

/** How much earlier output a weak trigger may span (its longest form, the codex exec header, is ~30 characters). */
export const TRIGGER_CARRY = 64;

export class OutputTail {
  private text = '';
  /**
   * The last TRIGGER_CARRY characters, kept apart: `text` is a rope of every chunk since the last trim, and
   * slicing its end on each write flattened all 8–16 KB of it, per chunk — most of the plain path's time.
   */
  private carry = '';

  push(chunk: string): void {
    // V8 concatenates strings as ropes; trimming only past twice the limit keeps this amortised O(1).
    this.text += chunk;
    if (this.text.length > 2 * TAIL_LIMIT) this.text = this.text.slice(this.text.length - TAIL_LIMIT);
    this.carry = chunk.length >= TRIGGER_CARRY ? chunk.slice(-TRIGGER_CARRY) : (this.carry + chunk).slice(-TRIGGER_CARRY);
  }

  take(): string {
    const s = this.text.length > TAIL_LIMIT ? this.text.slice(this.text.length - TAIL_LIMIT) : this.text;
    this.text = '';
    this.carry = '';
    return s;
  }

  /** The last TRIGGER_CARRY characters pushed (a trigger split across chunks: `codex exec` writes its header in tiny pieces). */
  recent(): string {
    return this.carry;
  }

  /**
   * Whether `chunk`, written after what was pushed, completes a weak trigger: one inside the chunk, or one across
   * its start (the carry and the chunk's first TRIGGER_CARRY characters: longer than any trigger). Nothing is
   * concatenated with the whole chunk.
   */
  weakTrigger(chunk: string): boolean {
    if (WEAK_TRIGGER_INSIDE.test(chunk)) return true;
    return this.mayCross(chunk) && WEAK_TRIGGER.test(this.carry + chunk.slice(0, TRIGGER_CARRY));
  }

  /**
   * Whether the carry and `chunk` can hold a weak trigger the chunk alone does not: the alternate-screen sequence
   * (`ESC [ ?` in the carry, or ESC at its end), or the codex exec header's line start ("\nO", or a newline last
   * and "O" first).
   * Most chunks of shell output are neither, and skip building the string the regex would scan.
   */
  private mayCross(chunk: string): boolean {
    const c = this.carry;
    // Nothing before: the chunk starts the output, a line start.
    if (c.length === 0) return chunk.charCodeAt(0) === 0x4f;
    // The alternate-screen sequence: whole in the carry, or begun at its end ("ESC", "ESC [").
    if (c.indexOf('\x1b[?') >= 0 || c.lastIndexOf('\x1b') >= c.length - 2) return true;
    if (c.charCodeAt(0) === 0x4f /* O */ || c.indexOf('\nO') >= 0) return true;
    return c.charCodeAt(c.length - 1) === 0x0a && chunk.charCodeAt(0) === 0x4f;
  }

  get length(): number {
    return Math.min(this.text.length, TAIL_LIMIT);
  }
}
