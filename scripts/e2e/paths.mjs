// Where the E2E runner (run.mjs) finds the repository, code-server, the host-runner extension and chromium.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CS_PKG = join(REPO_ROOT, '.e2e', 'cs', 'node_modules', 'code-server');
export const CS_STAMP = join(REPO_ROOT, '.e2e', 'cs', '.install-complete');
export const HOST_RUNNER_DIR = join(REPO_ROOT, 'test', 'e2e', 'host-runner');
export const HOST_RUNNER_ID = 'agent-lens-test.host-runner-0.0.1';
export const CHROMIUM = process.env.AGENT_LENS_E2E_CHROMIUM || '/usr/bin/chromium';
