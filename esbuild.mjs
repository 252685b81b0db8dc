// Bundles the extension, the CLI, the benchmark and the unit tests. `vscode` stays external: the
// extension host provides it. Type checking is `npm run check-types` (tsc --noEmit).
import * as esbuild from 'esbuild';
import * as fs from 'fs';
import * as path from 'path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: !production,
  sourcesContent: false,
  minify: production,
  external: ['vscode', '@lydell/node-pty', 'playwright-core', 'mocha'],
  logLevel: 'warning',
};

function listTests(dir, out) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) listTests(p, out);
    else if (e.name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const builds = [
  { ...common, entryPoints: { extension: 'src/extension.ts', cli: 'src/cli/cli.ts' }, outdir: 'dist' },
  // vscode:uninstall (package.json): removes the hooks Agent Lens installed once the extension is gone; no vscode import.
  { ...common, sourcemap: false, entryPoints: { uninstall: 'src/cli/uninstall.ts' }, outdir: 'dist' },
  // What runs inside agents: copied out of the extension on activation or install, so no source maps.
  {
    ...common,
    sourcemap: false,
    entryPoints: {
      'agent-lens-report': 'src/integrations/reporter/reporter.ts',
      'agent-lens-permission': 'src/integrations/reporter/permission.ts',
    },
    outdir: 'dist',
  },
  {
    ...common,
    sourcemap: false,
    format: 'esm',
    // The installer recognises its own plugin file by this first line.
    banner: { js: '// agent-lens-report plugin for OpenCode: written by Agent Lens; remove it with "Agent Lens: Uninstall Agent Hooks".' },
    entryPoints: { 'opencode-plugin': 'src/integrations/plugins/opencode.ts' },
    outdir: 'dist',
  },
];
if (!production) {
  builds.push({ ...common, entryPoints: { bench: 'bench/bench.ts' }, outdir: 'dist' });
  // npm run soak: crash safety, load and linear time (soak/soak.ts); the writer is the process it kills.
  builds.push({
    ...common,
    entryPoints: { soak: 'soak/soak.ts', 'crash-writer': 'soak/crashWriter.ts', 'load-client': 'soak/loadClient.ts' },
    outdir: 'dist/soak',
  });
  const tests = listTests('test/unit', []);
  if (tests.length) builds.push({ ...common, entryPoints: tests, outdir: 'out/test/unit', outbase: 'test/unit' });
  // The real-agent harness: recorder, compat matrix, mocks (test tooling, never in the .vsix).
  builds.push({
    ...common,
    entryPoints: {
      record: 'harness/record.ts',
      check: 'harness/check.ts',
      compat: 'harness/compat.ts',
      'home-cli': 'harness/home-cli.ts',
      'mock-anthropic': 'harness/mock/anthropic-cli.ts',
      mock: 'harness/mock/mock-cli.ts',
    },
    outdir: 'dist/harness',
  });
  const live = listTests('test/live', []);
  if (live.length) builds.push({ ...common, entryPoints: live, outdir: 'out/test/live', outbase: 'test/live' });
  // The integration suite runs inside VS Code's extension host (test:e2e, test:vscode).
  const e2e = listTests('test/e2e/suite', []);
  if (e2e.length) builds.push({ ...common, entryPoints: e2e, outdir: 'out/test/e2e', outbase: 'test/e2e/suite' });
  // The user-level suite runs outside VS Code and drives code-server in Chromium as a user would (test:e2e).
  const user = listTests('test/e2e/user', []);
  if (user.length) builds.push({ ...common, entryPoints: user, outdir: 'out/test/e2e-user', outbase: 'test/e2e/user' });
}

const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

if (watch) {
  for (const b of builds) {
    const ctx = await esbuild.context({ ...b, plugins: [problemMatcher] });
    await ctx.watch();
  }
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  fs.chmodSync('dist/cli.js', 0o755);
}
