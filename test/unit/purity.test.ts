import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT } from './helpers';

/** The core must run in mocha, the CLI and benchmarks: nothing outside src/vscode and extension.ts may import vscode. */
describe('purity of the core', () => {
  const pure = ['src/detect', 'src/replay', 'src/cli.ts'];
  const files: string[] = [];
  const walk = (p: string) => {
    const abs = path.join(ROOT, p);
    if (!fs.existsSync(abs)) return;
    if (fs.statSync(abs).isDirectory()) for (const e of fs.readdirSync(abs)) walk(path.join(p, e));
    else if (/\.ts$/.test(p)) files.push(p);
  };
  pure.forEach(walk);

  it('finds the core sources', () => {
    assert.ok(files.length >= 10, `only ${files.length} files found under ${pure.join(', ')}`);
  });

  it('imports nothing from vscode', () => {
    const offenders = files.filter((f) => /(?:from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\s*\(\s*['"]vscode['"]\s*\))/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    assert.deepStrictEqual(offenders, []);
  });
});
