/**
 * A bounded recording of one terminal's stream, written as asciinema v2 for bug reports and replayable
 * by `agent-lens replay`. Oldest output drops off past the limit; the header keeps the command line so
 * a replay identifies the agent the way the extension did.
 */
export const CAST_BUFFER_LIMIT = 512 * 1024;

interface Ev {
  t: number;
  code: 'o' | 'r' | 'x';
  data: string;
}

export class CastBuffer {
  private events: Ev[] = [];
  private size = 0;
  private dropped = false;

  constructor(
    private cols: number,
    private rows: number,
    private readonly startMs: number,
    readonly commandLine: string | undefined,
    private readonly limit = CAST_BUFFER_LIMIT,
  ) {}

  output(ms: number, data: string): void {
    this.push({ t: (ms - this.startMs) / 1000, code: 'o', data });
  }
  resize(ms: number, cols: number, rows: number): void {
    if (this.events.length === 0) {
      this.cols = cols;
      this.rows = rows;
      return;
    }
    this.push({ t: (ms - this.startMs) / 1000, code: 'r', data: `${cols}x${rows}` });
  }
  exit(ms: number, code: number | undefined): void {
    this.push({ t: (ms - this.startMs) / 1000, code: 'x', data: code === undefined ? '' : String(code) });
  }

  get truncated(): boolean {
    return this.dropped;
  }
  get length(): number {
    return this.events.length;
  }

  private push(e: Ev): void {
    this.events.push(e);
    this.size += e.data.length + 16;
    while (this.size > this.limit && this.events.length > 1) {
      const old = this.events.shift()!;
      this.size -= old.data.length + 16;
      this.dropped = true;
    }
  }

  /** The asciinema v2 text. Times restart at 0 from the first kept event when older output was dropped. */
  toCast(title: string, env: Record<string, string> = {}): string {
    const base = this.dropped && this.events.length ? this.events[0].t : 0;
    const header: Record<string, unknown> = {
      version: 2,
      width: this.cols,
      height: this.rows,
      timestamp: Math.floor(this.startMs / 1000 + base),
      title,
      env: { TERM: 'xterm-256color', ...env },
    };
    if (this.commandLine) header.command = this.commandLine;
    const lines = [JSON.stringify(header)];
    for (const e of this.events) lines.push(JSON.stringify([Math.round((e.t - base) * 1e6) / 1e6, e.code, e.data]));
    return lines.join('\n') + '\n';
  }
}
