import { Terminal } from '@xterm/headless';
import { OscCap } from './oscCap';

/** What a person sees in one terminal: the visible rows, the window title and which buffer is active. */
export interface ScreenView {
  rows: readonly string[];
  title: string;
  altScreen: boolean;
  /** Changes whenever a row's text, the title or the active buffer changes; equal versions mean an equal view. */
  version: number;
}

/** xterm internals read on the fast path; every access is guarded, the public API is the fallback. */
interface InternalLine {
  _data?: Uint32Array;
  translateToString(trimRight?: boolean): string;
}
interface InternalBuffer {
  ydisp: number;
  lines: { get(i: number): InternalLine | undefined };
}

/** Cell content word flag: the cell holds a combined string (emoji sequences, combining marks). */
const CONTENT_IS_COMBINED = 0x200000;

interface RefreshSource {
  onRequestRefreshRows?: (listener: (range: { start: number; end: number } | undefined) => void) => unknown;
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
  private readonly core: {
    writeSync?: (data: string) => void;
    _inputHandler?: RefreshSource;
    _bufferService?: { buffer?: InternalBuffer };
  };
  /** Per row, the content words last translated: unchanged rows are not translated again. */
  private rowWords: (Uint32Array | undefined)[] = [];
  private rowsText: string[] = [];
  private lastAlt = false;
  private version = 0;
  /** Rows the parser touched since the last view; `all` after resize, buffer switches, or without the hook. */
  private dirtyFrom = Number.MAX_SAFE_INTEGER;
  private dirtyTo = -1;
  private dirtyAll = true;
  private readonly trackRows: boolean;
  private readonly oscCap = new OscCap();

  constructor(cols: number, rows: number, oscIdents: readonly number[], onOsc: OscListener) {
    // No scrollback: only the visible screen matters, and it bounds memory per terminal.
    this.term = new Terminal({ cols, rows, scrollback: 0, allowProposedApi: true, logLevel: 'off' });
    this.term.onTitleChange((t) => {
      if (t !== this.titleText) this.version++;
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
    this.core = (this.term as unknown as { _core: Screen['core'] })._core;
    // Re-reading every row after every chunk dominates the cost of detection; xterm's input handler
    // reports which rows a parse touched, so only those are translated again.
    const ih = this.core._inputHandler;
    this.trackRows = typeof ih?.onRequestRefreshRows === 'function';
    if (this.trackRows) {
      ih!.onRequestRefreshRows!.call(ih, (range) => {
        if (!range) this.dirtyAll = true;
        else {
          this.dirtyFrom = Math.min(this.dirtyFrom, range.start);
          this.dirtyTo = Math.max(this.dirtyTo, range.end);
        }
      });
    }
  }

  /**
   * Parses a chunk now. xterm's public `write` is asynchronous; detection runs on a simulated clock in
   * replays and benchmarks, so we need the screen updated before the next timestamp. `writeSync` is
   * xterm's own synchronous path; if a future xterm drops it we fail loudly rather than lag silently.
   */
  write(data: string): void {
    if (!this.core.writeSync) throw new Error('@xterm/headless no longer offers writeSync: pin @xterm/headless@6');
    this.core.writeSync.call(this.core, this.oscCap.filter(data));
    if (!this.trackRows) this.dirtyAll = true;
  }

  resize(cols: number, rows: number): void {
    this.term.resize(Math.max(2, cols), Math.max(1, rows));
    this.dirtyAll = true;
    this.rowWords = [];
  }

  get cols(): number {
    return this.term.cols;
  }
  get rowsCount(): number {
    return this.term.rows;
  }

  view(): ScreenView {
    const buf = this.term.buffer.active;
    const alt = buf.type === 'alternate';
    const n = this.term.rows;
    if (alt !== this.lastAlt || this.rowsText.length !== n) {
      this.dirtyAll = true;
      this.lastAlt = alt;
      this.version++;
    }
    let from = this.dirtyFrom;
    let to = this.dirtyTo;
    if (this.dirtyAll) {
      from = 0;
      to = n - 1;
      if (this.rowsText.length !== n) this.rowsText = new Array<string>(n).fill('');
    }
    if (to >= from) {
      const base = buf.viewportY;
      const internal = this.core._bufferService?.buffer;
      let changed = false;
      const rows = this.rowsText;
      if (this.rowWords.length !== n) this.rowWords = new Array(n).fill(undefined);
      for (let i = Math.max(0, from); i <= Math.min(n - 1, to); i++) {
        let text: string;
        const il = internal?.lines.get(internal.ydisp + i);
        if (il && il._data instanceof Uint32Array) {
          if (this.sameWords(i, il._data)) continue;
          text = il.translateToString(true);
        } else {
          const line = buf.getLine(base + i);
          text = line ? line.translateToString(true) : '';
        }
        if (text !== rows[i]) {
          if (!changed) {
            // Views handed out earlier keep their rows: copy on first change.
            this.rowsText = rows.slice();
            changed = true;
          }
          this.rowsText[i] = text;
        }
      }
      if (changed) this.version++;
    }
    this.dirtyAll = false;
    this.dirtyFrom = Number.MAX_SAFE_INTEGER;
    this.dirtyTo = -1;
    return { rows: this.rowsText, title: this.titleText, altScreen: alt, version: this.version };
  }

  /**
   * Compares a row's content words (every third word of xterm's cell data) with the last translated
   * ones and remembers the new ones. Cursor moves mark rows dirty without changing them; this skips
   * the string building for those. Combined cells always count as changed.
   */
  private sameWords(row: number, data: Uint32Array): boolean {
    const cells = Math.floor(data.length / 3);
    let snap = this.rowWords[row];
    let same = snap !== undefined && snap.length === cells;
    if (same) {
      for (let c = 0; c < cells; c++) {
        const w = data[3 * c];
        if (w !== snap![c] || (w & CONTENT_IS_COMBINED) !== 0) {
          same = false;
          break;
        }
      }
    }
    if (same) return true;
    if (!snap || snap.length !== cells) snap = this.rowWords[row] = new Uint32Array(cells);
    for (let c = 0; c < cells; c++) snap[c] = data[3 * c];
    return false;
  }

  dispose(): void {
    this.term.dispose();
  }
}
