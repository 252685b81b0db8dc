import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT } from '../helpers';

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
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(files)], { cwd: ROOT, encoding: 'utf8' }),
  ) as Record<string, { imports: RuleEntry; syntax: RuleEntry }>;
}

const severity = (r: RuleEntry) => (Array.isArray(r) ? r[0] : r);

describe('layer boundary', function () {
  this.timeout(60_000);
  const files = walk('src', []);

  it('finds the sources of every layer', () => {
    for (const dir of [
      'src/common',
      'src/agents',
      'src/detect',
      'src/jsonl',
      'src/hooks',
      'src/formats',
      'src/store',
      'src/views',
      'src/sources/terminal',
      'src/sources/logs',
      'src/sources/hooks',
      'src/sources/process',
      'src/hub',
      'src/handoff',
      'src/integrations',
      'src/replay',
      'src/cli',
      'src/vscode',
    ]) {
      assert.ok(
        files.some((f) => f.startsWith(`${dir}/`)),
        `no sources under ${dir}`,
      );
    }
  });

  const outside = [
    'src/store/store.ts',
    'src/views/model.ts',
    'src/cli/cli.ts',
    'test/unit/views/model.test.ts',
    'test/live/live.test.ts',
    'bench/bench.ts',
    'soak/soak.ts',
    'harness/driver.ts',
  ];
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

  it('the lint rule lets vscode in only in src/vscode, src/extension.ts and the e2e suite', () => {
    for (const f of inside) {
      const off = severity(rules[f].imports) === 0 || severity(rules[f].imports) === 'off';
      assert.ok(off || !/"name":"vscode"/.test(JSON.stringify(rules[f].imports)), `${f}: ${JSON.stringify(rules[f].imports)}`);
      // no-restricted-syntax stays on in the adapter for the UI sinks (below), but without the vscode selectors
      const syntax = rules[f].syntax;
      assert.ok(
        severity(syntax) === 0 || severity(syntax) === 'off' || !/'vscode'/.test(JSON.stringify(syntax)),
        `${f}: ${JSON.stringify(syntax)}`,
      );
    }
  });
});

/** The calls that render `[label](command:…)` links or `$(icon)`s: only src/vscode/ui.ts may make them. */
const UI_SINKS = [
  'showInformationMessage',
  'showWarningMessage',
  'showErrorMessage',
  'showInputBox',
  'showQuickPick',
  'createQuickPick',
  'createInputBox',
  'withProgress',
];

/** no-restricted-syntax as ESLint resolves it for each file, and what the first file's setting reports on each sample. */
function sinkRule(files: string[], samples: string[]): { rules: Record<string, RuleEntry>; fired: string[][] } {
  const script = `import { ESLint, Linter } from 'eslint';
const [files, samples] = JSON.parse(process.argv[1]);
const eslint = new ESLint();
const rules = {};
for (const f of files) rules[f] = (await eslint.calculateConfigForFile(f)).rules?.['no-restricted-syntax'] ?? null;
const linter = new Linter();
const config = [{ languageOptions: { ecmaVersion: 2022, sourceType: 'module' }, rules: { 'no-restricted-syntax': rules[files[0]] } }];
const fired = samples.map((s) => linter.verify(s, config).map((m) => m.ruleId + ': ' + m.message));
console.log(JSON.stringify({ rules, fired }));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify([files, samples])], {
      cwd: ROOT,
      encoding: 'utf8',
    }),
  ) as { rules: Record<string, RuleEntry>; fired: string[][] };
}

describe('untrusted text reaches VS Code only through src/vscode/ui.ts', function () {
  this.timeout(60_000);
  const guarded = [
    'src/vscode/commands.ts',
    'src/vscode/handoffCommands.ts',
    'src/vscode/waitCommands.ts',
    'src/vscode/hookCommands.ts',
    'src/vscode/handoff.ts',
    'src/vscode/tree.ts',
    'src/extension.ts',
    'src/views/model.ts',
    'src/store/store.ts',
  ];
  const bad = [
    "vscode.window.showInformationMessage('x');",
    "void vscode.window.showWarningMessage(msg, 'Open');",
    'const show = b ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;',
    "window['showErrorMessage']('x');",
    'const { showInputBox } = vscode.window;',
    'await vscode.window.showQuickPick(items, {});',
    'const qp = vscode.window.createQuickPick();',
    'const box = window.createInputBox();',
    'vscode.window.withProgress({ title: t }, async () => 1);',
  ];
  const good = [
    "void ui.info('x');",
    'await vscode.window.showTextDocument(doc);',
    'vscode.window.createStatusBarItem();',
    "const t = vscode.l10n.t('x');",
  ];
  let result: ReturnType<typeof sinkRule> = { rules: {}, fired: [] };
  before(() => {
    result = sinkRule([...guarded, 'src/vscode/ui.ts', 'test/e2e/suite/util.ts'], [...bad, ...good]);
  });

  it('the lint rule names every sink and is an error everywhere but the UI module and the e2e suite', () => {
    for (const f of guarded) {
      const r = result.rules[f];
      assert.ok(severity(r) === 2 || severity(r) === 'error', `${f}: ${JSON.stringify(r)}`);
      for (const name of UI_SINKS) assert.ok(JSON.stringify(r).includes(name), `${f}: ${name} is not restricted`);
    }
    for (const f of ['src/vscode/ui.ts', 'test/e2e/suite/util.ts'])
      assert.ok(severity(result.rules[f]) === 0 || severity(result.rules[f]) === 'off', `${f}: ${JSON.stringify(result.rules[f])}`);
  });

  it('fires on each way to reach a sink, and not on other calls', () => {
    bad.forEach((code, i) => {
      assert.ok(result.fired[i].length > 0, `not reported: ${code}`);
      assert.ok(
        result.fired[i].every((m) => m.startsWith('no-restricted-syntax: ') && m.includes('src/vscode/ui.ts')),
        result.fired[i].join('\n'),
      );
    });
    good.forEach((code, i) => assert.deepStrictEqual(result.fired[bad.length + i], [], code));
  });

  it('no source but the UI module names a sink, not even under an eslint-disable comment', () => {
    const named = new RegExp(`\\b(${UI_SINKS.join('|')})\\b`);
    const offenders = walk('src', []).filter((f) => f !== 'src/vscode/ui.ts' && named.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    assert.deepStrictEqual(offenders, []);
  });
});

describe('whether an agent runs is asked in src/common/agents.ts only', function () {
  this.timeout(60_000);
  const bad = [
    "if (t.agent === 'shell') f();",
    "const x = 'shell' !== s.agent;",
    "switch (a) { case 'shell': break; }",
    "if (a == 'shell') f();",
  ];
  const good = ["const t = { agent: 'shell' };", 'if (!isAgent(t)) f();', "if (t.agent === 'codex') f();"];
  let result: ReturnType<typeof sinkRule> = { rules: {}, fired: [] };
  before(() => {
    result = sinkRule(['src/views/labels.ts', 'src/vscode/config.ts', 'src/common/agents.ts'], [...bad, ...good]);
  });

  it('fires on every comparison with the shell, in the pure layers and the adapter, and not elsewhere', () => {
    bad.forEach((code, i) =>
      assert.ok(
        result.fired[i].some((m) => m.includes('isAgent()')),
        `not reported: ${code}: ${result.fired[i].join('\n')}`,
      ),
    );
    good.forEach((code, i) => assert.deepStrictEqual(result.fired[bad.length + i], [], code));
    assert.ok(JSON.stringify(result.rules['src/vscode/config.ts']).includes('isAgent()'), 'the adapter too');
    assert.ok(!JSON.stringify(result.rules['src/common/agents.ts']).includes('isAgent()'), 'the one module that defines it');
  });

  it('no source compares with the shell, not even under an eslint-disable comment', () => {
    const compared = /[!=]==?\s*'shell'|'shell'\s*[!=]==?|case 'shell'/;
    const offenders = walk('src', []).filter(
      (f) => f !== 'src/common/agents.ts' && compared.test(fs.readFileSync(path.join(ROOT, f), 'utf8')),
    );
    assert.deepStrictEqual(offenders, []);
  });
});

/**
 * What the import rule ESLint resolves for `file` (which need not exist) reports on `code`: the rule's options
 * from eslint.config.mjs, applied by ESLint's own no-restricted-imports, which typescript-eslint's extends.
 */
function lintAt(samples: { file: string; code: string }[]): string[][] {
  const script = `import { ESLint, Linter } from 'eslint';
const eslint = new ESLint();
const linter = new Linter();
const out = [];
for (const s of JSON.parse(process.argv[1])) {
  const rule = (await eslint.calculateConfigForFile(s.file)).rules?.['@typescript-eslint/no-restricted-imports'];
  const config = [{ languageOptions: { ecmaVersion: 2022, sourceType: 'module' }, rules: { 'no-restricted-imports': rule ?? 'off' } }];
  out.push(linter.verify(s.code, config).map((m) => (m.ruleId ?? '') + ': ' + m.message));
}
console.log(JSON.stringify(out));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(samples)], { cwd: ROOT, encoding: 'utf8' }),
  ) as string[][];
}

describe('the folder map is the data flow: ESLint says which folder may import which', function () {
  this.timeout(60_000);
  const layered = (m: string) => m.startsWith('no-restricted-imports') && m.includes('the data flow');
  it('refuses an import against the flow and allows one along it', () => {
    const cases: [string, string, boolean][] = [
      ['src/store/x.ts', "import { treeRows } from '../../views/model';", false],
      ['src/agents/codex/x.ts', "import { classify } from '../../../detect/classify';", false],
      ['src/detect/x.ts', "import { AgentStore } from '../../store/store';", false],
      ['src/common/x.ts', "import { AGENTS } from '../../agents/registry';", false],
      ['src/views/x.ts', "import { TerminalAdapter } from '../../vscode/terminals';", false],
      ['src/sources/terminal/x.ts', "import { HandoffService } from '../../../handoff/service';", false],
      ['src/detect/x.ts', "import { AGENTS } from '../../agents/registry';", true],
      ['src/views/x.ts', "import { needsYou } from '../../store/policy';", true],
      ['src/agents/codex/x.ts', "import { screen } from '../../claude-code/screen';", true],
      ['src/vscode/x.ts', "import { treeRows } from '../../views/model';", true],
    ];
    const got = lintAt(cases.map(([file, code]) => ({ file, code: `${code}\nvoid 0;\n` })));
    cases.forEach(([file, code, ok], i) => assert.strictEqual(got[i].some(layered), !ok, `${file}: ${code} → ${JSON.stringify(got[i])}`));
  });

  it('no module imports itself in a circle (types included)', () => {
    const files = walk('src', []);
    const graph = new Map<string, string[]>();
    for (const f of files) {
      const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
      const deps = [...text.matchAll(/^(?:import|export)\b[^;]*?from '(\.[^']+)'/gms)].map((m) =>
        path.posix.normalize(path.posix.join(path.posix.dirname(f), m[1])),
      );
      graph.set(
        f,
        deps.map((d) => (files.includes(`${d}.ts`) ? `${d}.ts` : `${d}/index.ts`)).filter((d) => files.includes(d)),
      );
    }
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, trail: string[]): void => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') return void cycles.push([...trail.slice(trail.indexOf(f)), f].join(' → '));
      state.set(f, 'open');
      for (const d of graph.get(f) ?? []) visit(d, [...trail, f]);
      state.set(f, 'done');
    };
    for (const f of files) visit(f, []);
    assert.deepStrictEqual(cycles, []);
  });
});
