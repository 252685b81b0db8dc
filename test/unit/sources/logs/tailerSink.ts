/** What the LogTailer tests share (tailer.test.ts, tailerErrors.test.ts): a consumer that records, and polling. */
import type { TailerOptions } from '../../../../src/sources/logs/tailer';
import { logTo } from '../../../../src/common/log';

/** What the tailer told its consumer, per file. */
export class Sink {
  lines = new Map<string, string[]>();
  resets: string[] = [];
  removed: string[] = [];
  logs: string[] = [];
  of(file: string): string[] {
    return this.lines.get(file) ?? [];
  }
  get total(): number {
    let n = 0;
    for (const l of this.lines.values()) n += l.length;
    return n;
  }
  options(): Pick<TailerOptions, 'onLines' | 'onReset' | 'onRemoved' | 'log'> {
    return {
      onLines: (f, l) => this.lines.set(f, [...this.of(f), ...l]),
      onReset: (f) => {
        this.resets.push(f);
        this.lines.delete(f);
      },
      onRemoved: (f) => this.removed.push(f),
      log: logTo((level, msg) => void this.logs.push(`${level}: ${msg}`)),
    };
  }
}

/** Polls `cond` every 10 ms (calling `tick`, e.g. flush, first) until it holds; fails after `ms`. */
export async function until(cond: () => boolean, ms = 5000, tick?: () => Promise<void>): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (tick) await tick();
    if (cond()) return;
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const jsonl = (f: string) => f.endsWith('.jsonl');
