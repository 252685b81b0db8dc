import { TerminalDetector } from '../detect/detector';
import type { Detection } from '../detect/types';
import { type Cast, parseResize } from '../formats/cast';

export interface ReplayOptions {
  /** Defaults to the recording header's `command`. */
  commandLine?: string;
  cols?: number;
  rows?: number;
  /** Record every matching marker in `fired`, not only the rules that decided a state. */
  coverage?: boolean;
}

export interface ReplayResult {
  detections: Detection[];
  /** Rule ids that fired. */
  fired: Set<string>;
  screen: string;
  duration: number;
}

/**
 * Feeds a recording to the detector on a simulated clock: `o` output with its timestamps, `r` resizes,
 * `x` the process exit; `i` input and `m` markers are not terminal output and are ignored.
 */
export function replayCast(cast: Cast, opts: ReplayOptions = {}, onDetection?: (d: Detection) => void): ReplayResult {
  const det = new TerminalDetector({
    cols: opts.cols ?? cast.cols,
    rows: opts.rows ?? cast.rows,
    commandLine: opts.commandLine ?? cast.command,
    t: 0,
    coverage: opts.coverage,
  });
  const detections: Detection[] = [];
  const record = (d: Detection) => {
    detections.push(d);
    onDetection?.(d);
  };
  record(det.detection);
  det.onDidChange(record);
  playEvents(cast, det);
  // Let pending states settle, as they would on screen after the last byte.
  det.advance(cast.duration + 2);
  const res = { detections, fired: new Set(det.fired), screen: det.screenText(), duration: cast.duration };
  det.dispose();
  return res;
}

/**
 * Plays a recording's events into a detector on their own clock; `beforeEach` sees each event's time
 * first (a fused replay delivers the log records due by then).
 */
export function playEvents(cast: Cast, det: TerminalDetector, beforeEach?: (t: number) => void): void {
  for (const ev of cast.events) {
    beforeEach?.(ev.t);
    switch (ev.code) {
      case 'o':
        det.write(ev.data, ev.t);
        break;
      case 'r': {
        const size = parseResize(ev.data);
        if (size) det.resize(size.cols, size.rows, ev.t);
        break;
      }
      case 'x':
        det.exit(ev.data, ev.t);
        break;
      default:
        det.advance(ev.t);
    }
  }
}
