import * as fs from 'fs';
import * as path from 'path';

/**
 * The repository: the folder above this script (dist/bench.js, out/test/live/…) or the working directory that
 * holds the built reporter, so the built programs a run installs are there; undefined when nothing is built.
 */
export function repoRoot(): string | undefined {
  for (const start of [__dirname, process.cwd()]) {
    for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
      if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'dist', 'agent-lens-report.js'))) return dir;
      if (path.dirname(dir) === dir) break;
    }
  }
  return undefined;
}
