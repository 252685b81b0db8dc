import * as assert from 'assert';
import { TerminalDetector } from '../../src/detect/detector';
import type { Detection } from '../../src/detect/types';
import { AT_REST } from '../../src/common/states';

/** The states a whole interactive run shows, in order (others may come between them). */
const FULL_RUN: [string, (d: Detection) => boolean][] = [
  ['idle', (d) => d.state === 'idle'],
  ['working', (d) => d.state === 'working'],
  ['waiting', (d) => d.state === 'waiting'],
  ['working', (d) => d.state === 'working'],
  ['at rest', (d) => AT_REST.has(d.state)],
  ['exited', (d) => d.state === 'exited'],
];

/**
 * The screen-only detector on a real CLI's live stream, as a terminal without hooks reads it: fed as the bytes
 * arrive, its clock advanced by a timer as the extension's deadline timer does (states settle while output pauses).
 */
export class ScreenWatch {
  readonly seen: Detection[];
  private readonly det: TerminalDetector;
  private last = 0;
  private readonly tick: NodeJS.Timeout;
  private readonly started = Date.now();

  constructor(cols: number, rows: number, commandLine: string) {
    this.det = new TerminalDetector({ cols, rows, commandLine });
    this.seen = [this.det.detection];
    this.det.onDidChange((d) => this.seen.push(d));
    this.tick = setInterval(() => this.det.advance(this.last + 0.05), 50);
  }

  write(data: string, t: number): void {
    this.last = Math.max(this.last, t);
    this.det.write(data, t);
  }

  exit(code: number | undefined, t: number): void {
    this.det.exit(code, t);
  }

  /** Stops the clock after letting the last state settle. */
  finish(): void {
    this.last = Math.max(this.last, (Date.now() - this.started) / 1000);
    this.det.advance(this.last + 2);
    clearInterval(this.tick);
  }

  dispose(): void {
    clearInterval(this.tick);
  }

  /** idle → working → waiting → working → at rest → exited, every state credited to `agent`. */
  assertFullRun(agent: string): void {
    let k = 0;
    for (const d of this.seen) if (k < FULL_RUN.length && FULL_RUN[k][1](d)) k++;
    const reached = FULL_RUN.slice(0, k).map((w) => w[0]);
    const states = this.seen.map((d) => `${d.t.toFixed(1)} ${d.state} (${d.evidence})`).join(' | ');
    assert.strictEqual(k, FULL_RUN.length, `no "${FULL_RUN[k]?.[0]}" after ${reached.join(' → ')}; live states: ${states}`);
    assert.ok(
      this.seen.every((d) => d.agent === agent),
      `agents seen: ${[...new Set(this.seen.map((d) => d.agent))]}`,
    );
  }
}
