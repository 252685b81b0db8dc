// `npm run test:vscode`: the integration suite in VS Code via @vscode/test-electron (downloads VS Code;
// machines without that access use `npm run test:e2e`, which runs the same suite in code-server).
import { defineConfig } from '@vscode/test-cli';

export default defineConfig({
  label: 'integration',
  files: 'out/test/e2e/**/*.test.js',
  version: 'stable',
  mocha: { ui: 'bdd', timeout: 240000 },
  launchArgs: ['--disable-workspace-trust'],
  env: { AGENT_LENS_E2E_ARTIFACTS: 'artifacts/e2e-electron' },
});
