import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT } from './helpers';

/**
 * The layer boundary: only the VS Code adapter (src/vscode) and the wiring (src/extension.ts) may import
 * `vscode`. Everything else runs in mocha, the CLI, the benchmark and the headless `serve` mode.
 */
const ADAPTER = [/^src\/vscode\//, /^src\/extension\.ts$/];
const VSCODE_IMPORT = /(?:from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\s*\(\s*['"]vscode['"]\s*\)|import\s+['"]vscode['"])/;

function walk(rel: string, out: string[]): string[] {
  const abs = path.join(ROOT, rel);
  if (!fs.existsSync(abs)) return out;
  if (fs.statSync(abs).isDirectory()) for (const e of fs.readdirSync(abs)) walk(path.join(rel, e), out);
  else if (/\.ts$/.test(rel)) out.push(rel.split(path.sep).join('/'));
  return out;
}

describe('layer boundary', () => {
  const files = walk('src', []);

  it('finds the sources of every layer', () => {
    for (const dir of ['src/detect', 'src/jsonl', 'src/store', 'src/views', 'src/sources/terminal', 'src/sources/logs', 'src/hub', 'src/hooks', 'src/handoff', 'src/vscode']) {
      assert.ok(files.some((f) => f.startsWith(`${dir}/`)), `no sources under ${dir}`);
    }
  });

  it('only src/vscode and src/extension.ts import vscode', () => {
    const offenders = files.filter((f) => !ADAPTER.some((re) => re.test(f)) && VSCODE_IMPORT.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    assert.deepStrictEqual(offenders, []);
  });

  it('the check itself sees an import of vscode', () => {
    assert.ok(VSCODE_IMPORT.test(fs.readFileSync(path.join(ROOT, 'src/vscode/tree.ts'), 'utf8')));
  });

  it('the bench and the harness stay outside VS Code too', () => {
    const offenders = [...walk('bench', []), ...walk('harness', [])].filter((f) => VSCODE_IMPORT.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    assert.deepStrictEqual(offenders, []);
  });
});
