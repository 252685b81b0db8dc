import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT } from './helpers';

/**
 * The layer boundary: only the VS Code adapter (src/vscode) and the wiring (src/extension.ts) may import
 * `vscode`. Everything else runs in mocha, the CLI, the benchmark and the headless `serve` mode. The lint rule
 * `@typescript-eslint/no-restricted-imports` (eslint.config.mjs, `npm run lint`) enforces it; this checks that
 * the rule stays on where it must and off only where `vscode` belongs.
 */
function walk(rel: string, out: string[]): string[] {
  const abs = path.join(ROOT, rel);
  if (!fs.existsSync(abs)) return out;
  if (fs.statSync(abs).isDirectory()) for (const e of fs.readdirSync(abs)) walk(path.join(rel, e), out);
  else if (/\.ts$/.test(rel)) out.push(rel.split(path.sep).join('/'));
  return out;
}

type RuleEntry = [number | string, ...unknown[]] | number | string | undefined;

/** The two lint rules' settings for each file, as ESLint resolves eslint.config.mjs (one ESLint process for all). */
function restrictionFor(files: string[]): Record<string, { imports: RuleEntry; syntax: RuleEntry }> {
  const script = `import { ESLint } from 'eslint';
const eslint = new ESLint();
const out = {};
for (const f of JSON.parse(process.argv[1])) {
  const rules = (await eslint.calculateConfigForFile(f)).rules ?? {};
  out[f] = { imports: rules['@typescript-eslint/no-restricted-imports'] ?? null, syntax: rules['no-restricted-syntax'] ?? null };
}
console.log(JSON.stringify(out));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(files)], { cwd: ROOT, encoding: 'utf8' })) as Record<string, { imports: RuleEntry; syntax: RuleEntry }>;
}

const severity = (r: RuleEntry) => (Array.isArray(r) ? r[0] : r);

describe('layer boundary', function () {
  this.timeout(60_000);
  const files = walk('src', []);

  it('finds the sources of every layer', () => {
    for (const dir of ['src/detect', 'src/jsonl', 'src/store', 'src/views', 'src/sources/terminal', 'src/sources/logs', 'src/hub', 'src/hooks', 'src/handoff', 'src/vscode']) {
      assert.ok(files.some((f) => f.startsWith(`${dir}/`)), `no sources under ${dir}`);
    }
  });

  const outside = ['src/store/store.ts', 'src/views/model.ts', 'src/cli.ts', 'test/unit/views.test.ts', 'test/live/live.test.ts', 'bench/bench.ts', 'soak/soak.ts', 'harness/driver.ts'];
  const inside = ['src/vscode/tree.ts', 'src/extension.ts', 'test/e2e/suite/util.ts'];
  let rules: Record<string, { imports: RuleEntry; syntax: RuleEntry }> = {};
  before(() => {
    rules = restrictionFor([...outside, ...inside]);
  });

  it('the lint rule forbids vscode outside the adapter (src, tests, bench, soak, harness)', () => {
    for (const f of outside) {
      const { imports, syntax } = rules[f];
      // import/export declarations and `import x = require()`
      assert.ok(severity(imports) === 2 || severity(imports) === 'error', `${f}: ${JSON.stringify(imports)}`);
      assert.match(JSON.stringify(imports), /"name":"vscode"/, f);
      // require('vscode') and import('vscode')
      assert.ok(severity(syntax) === 2 || severity(syntax) === 'error', `${f}: ${JSON.stringify(syntax)}`);
      assert.match(JSON.stringify(syntax), /require.*'vscode'/, f);
      assert.match(JSON.stringify(syntax), /ImportExpression\[source\.value='vscode'\]/, f);
    }
  });

  it('the lint rule is off in src/vscode, src/extension.ts and the e2e suite only', () => {
    for (const f of inside) {
      for (const r of [rules[f].imports, rules[f].syntax]) assert.ok(severity(r) === 0 || severity(r) === 'off', `${f}: ${JSON.stringify(r)}`);
    }
  });
});
