import * as fs from 'fs';
import * as path from 'path';

/** The repository's root, found from wherever the bundled suite runs (out/test/…, or the extension host's copy). */
export const ROOT = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) || !fs.existsSync(path.join(dir, 'test', 'e2e'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`cannot find the repository root above ${__dirname}`);
    dir = up;
  }
  return dir;
})();
