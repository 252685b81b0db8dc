/**
 * The cheap path for terminals where no agent is suspected: no emulation, only a scan of each chunk
 * for what an agent's TUI emits early, and a bounded tail of recent output so that a promoted terminal
 * starts its emulator with context.
 */

/** Always armed: sequences only a program writes, naming an agent (title, program status, OpenTUI query). */
export const STRONG_TRIGGER = /\x1b\]7501;|\x1b\]99;i=opentui|\x1b\][02];[^\x07\x1b]{0,16}(?:Claude Code|OpenCode|OC \| )/;
/**
 * Disarmed for a while after a promotion found no agent: a full-screen program (top, vim) or output
 * that merely mentions an agent would otherwise be emulated again and again.
 */
export const WEAK_TRIGGER = /\x1b\[\?1049h|Claude Code|OpenAI Codex|opencode|OpenCode/;

/** Bytes of recent output replayed into the emulator on promotion. */
export const TAIL_LIMIT = 16 * 1024;

export class OutputTail {
  private parts: string[] = [];
  private size = 0;

  push(chunk: string): void {
    if (chunk.length >= TAIL_LIMIT) {
      this.parts = [chunk.slice(chunk.length - TAIL_LIMIT)];
      this.size = TAIL_LIMIT;
      return;
    }
    this.parts.push(chunk);
    this.size += chunk.length;
    while (this.size > TAIL_LIMIT && this.parts.length > 1) {
      this.size -= this.parts.shift()!.length;
    }
  }

  take(): string {
    const s = this.parts.join('');
    this.parts = [];
    this.size = 0;
    return s;
  }

  get length(): number {
    return this.size;
  }
}
