import { Terminal } from '@xterm/headless';

/** What a person sees in one terminal: the visible rows, the window title and which buffer is active. */
export interface ScreenView {
  rows: readonly string[];
  title: string;
  altScreen: boolean;
}

export type OscListener = (ident: number, body: string) => void;

/**
 * A headless terminal emulator fed with raw pty chunks. Agent TUIs redraw with cursor moves, erase,
 * the alternate screen and synchronized output, and chunks split escape sequences and UTF-8
 * characters anywhere; xterm.js keeps parser state across writes, so we read what a person sees.
 */
export class Screen {
  private readonly term: Terminal;
  private titleText = '';
  private readonly core: { writeSync?: (data: string) => void };
  private cache: string[] | undefined;

  constructor(cols: number, rows: number, oscIdents: readonly number[], onOsc: OscListener) {
    // No scrollback: only the visible screen matters, and it bounds memory per terminal.
    this.term = new Terminal({ cols, rows, scrollback: 0, allowProposedApi: true, logLevel: 'off' });
    this.term.onTitleChange((t) => {
      this.titleText = t;
    });
    for (const ident of oscIdents) {
      this.term.parser.registerOscHandler(ident, (body) => {
        onOsc(ident, body);
        return true;
      });
    }
    // Shell-integration markers are not for display; swallowing them keeps them off the screen.
    for (const ident of [133, 633, 1337]) this.term.parser.registerOscHandler(ident, () => true);
    this.core = (this.term as unknown as { _core: { writeSync?: (data: string) => void } })._core;
  }

  /**
   * Parses a chunk now. xterm's public `write` is asynchronous; detection runs on a simulated clock in
   * replays and benchmarks, so we need the screen updated before the next timestamp. `writeSync` is
   * xterm's own synchronous path; if a future xterm drops it we fail loudly rather than lag silently.
   */
  write(data: string): void {
    if (!this.core.writeSync) throw new Error('@xterm/headless no longer offers writeSync: pin @xterm/headless@6');
    this.core.writeSync.call(this.core, data);
    this.cache = undefined;
  }

  resize(cols: number, rows: number): void {
    this.term.resize(Math.max(2, cols), Math.max(1, rows));
    this.cache = undefined;
  }

  get cols(): number {
    return this.term.cols;
  }
  get rowsCount(): number {
    return this.term.rows;
  }

  view(): ScreenView {
    const buf = this.term.buffer.active;
    if (!this.cache) {
      const rows: string[] = [];
      const base = buf.viewportY;
      for (let i = 0; i < this.term.rows; i++) {
        const line = buf.getLine(base + i);
        rows.push(line ? line.translateToString(true) : '');
      }
      this.cache = rows;
    }
    return { rows: this.cache, title: this.titleText, altScreen: buf.type === 'alternate' };
  }

  dispose(): void {
    this.term.dispose();
  }
}
