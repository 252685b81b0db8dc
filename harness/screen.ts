/**
 * Headless terminal helpers: an @xterm/headless Terminal that answers queries like VS Code's
 * xterm.js (dark theme), plus cast replay to a screen timeline.
 */
import { Terminal } from '@xterm/headless';

/** VS Code default dark theme (Dark Modern): terminal foreground/background/cursor and ANSI palette. */
export const VSCODE_DARK = {
  foreground: '#cccccc',
  background: '#1f1f1f',
  cursor: '#aeafad',
  ansi: [
    '#000000',
    '#cd3131',
    '#0dbc79',
    '#e5e510',
    '#2472c8',
    '#bc3fbc',
    '#11a8cd',
    '#e5e5e5',
    '#666666',
    '#f14c4c',
    '#23d18b',
    '#f5f543',
    '#3b8eea',
    '#d670d6',
    '#29b8db',
    '#e5e5e5',
  ],
};

function xtermPalette(i: number): string {
  if (i < 16) return VSCODE_DARK.ansi[i]!;
  if (i < 232) {
    const n = i - 16;
    const v = [0, 95, 135, 175, 215, 255];
    const r = v[Math.floor(n / 36)]!;
    const g = v[Math.floor(n / 6) % 6]!;
    const b = v[n % 6]!;
    return `#${[r, g, b].map((x) => x.toString(16).padStart(2, '0')).join('')}`;
  }
  const g = 8 + (i - 232) * 10;
  return `#${g.toString(16).padStart(2, '0').repeat(3)}`;
}

/** '#rrggbb' → 'rgb:rrrr/gggg/bbbb' (xterm.js reply format). */
function rgbSpec(hex: string): string {
  const h = hex.replace('#', '');
  const p = [0, 2, 4].map((i) => h.slice(i, i + 2).repeat(2));
  return `rgb:${p.join('/')}`;
}

export interface HeadlessTerm {
  term: Terminal;
  write(data: string): void;
  /** Visible screen as text, rows joined by '\n', trailing spaces trimmed. */
  screenText(): string;
  title(): string;
  dispose(): void;
}

/**
 * Create a headless terminal. `reply` receives what the terminal sends back to the application
 * (DA1, CPR, DECRQM answered by xterm.js itself; OSC 4/10/11/12 colour queries answered here like VS Code).
 */
export function createTerm(cols: number, rows: number, reply?: (data: string) => void): HeadlessTerm {
  const term = new Terminal({ cols, rows, allowProposedApi: true, logLevel: 'off', scrollback: 2000 });
  let title = '';
  term.onTitleChange((t) => {
    title = t;
  });
  if (reply) {
    term.onData((d) => reply(d));
    const ST = '\x1b\\';
    const dyn = (code: number, color: string) => {
      term.parser.registerOscHandler(code, (data) => {
        // "10;?" may carry several queries: OSC 10;?;? asks for 10 and 11.
        const parts = data.split(';');
        let c = code;
        let handled = false;
        for (const p of parts) {
          if (p === '?') {
            const col = c === 10 ? VSCODE_DARK.foreground : c === 11 ? VSCODE_DARK.background : c === 12 ? VSCODE_DARK.cursor : undefined;
            if (col) reply(`\x1b]${c};${rgbSpec(col)}${ST}`);
            handled = true;
          }
          c++;
        }
        void color;
        return handled; // a "set" (not a query) falls through to xterm's own handler
      });
    };
    dyn(10, VSCODE_DARK.foreground);
    dyn(11, VSCODE_DARK.background);
    dyn(12, VSCODE_DARK.cursor);
    term.parser.registerOscHandler(4, (data) => {
      const parts = data.split(';');
      let handled = false;
      for (let i = 0; i + 1 < parts.length; i += 2) {
        if (parts[i + 1] === '?') {
          const idx = Number(parts[i]);
          if (Number.isInteger(idx) && idx >= 0 && idx < 256) reply(`\x1b]4;${idx};${rgbSpec(xtermPalette(idx))}${ST}`);
          handled = true;
        }
      }
      return handled;
    });
  }
  const core = (term as unknown as { _core: { writeSync(d: string): void } })._core;
  return {
    term,
    write: (d) => core.writeSync(d),
    screenText: () => screenText(term),
    title: () => title,
    dispose: () => term.dispose(),
  };
}

export function screenText(term: Terminal): string {
  const buf = term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buf.getLine(buf.viewportY + y);
    lines.push(line ? line.translateToString(true) : '');
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------- casts

export interface CastHeader {
  version: 2;
  width: number;
  height: number;
  timestamp: number;
  title?: string;
  env?: Record<string, string>;
}
export type CastEvent = [number, 'o' | 'i' | 'x' | 'm' | 'r', string];

export interface ScreenFrame {
  t: number;
  text: string;
  title: string;
}

/** Replay the output events of a cast; one frame per output event that changed the screen or title. */
export function screenTimeline(header: CastHeader, events: CastEvent[]): ScreenFrame[] {
  const ht = createTerm(header.width, header.height);
  const frames: ScreenFrame[] = [{ t: 0, text: ht.screenText(), title: '' }];
  for (const [t, kind, data] of events) {
    if (kind !== 'o') continue;
    ht.write(data);
    const text = ht.screenText();
    const title = ht.title();
    const last = frames[frames.length - 1]!;
    if (text !== last.text || title !== last.title) frames.push({ t, text, title });
  }
  ht.dispose();
  return frames;
}
