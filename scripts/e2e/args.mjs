// The command line of scripts/e2e/run.mjs: usage, parsing and the checks before anything starts.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CHROMIUM, CS_STAMP, REPO_ROOT } from './paths.mjs';

export function usage(msg) {
  if (msg) process.stderr.write(`run.mjs: ${msg}\n`);
  process.stderr.write(
    'usage: node scripts/e2e/run.mjs --extension <dir> --suite <file-or-dir> --artifacts <dir>\n' +
      '         [--workspace <dir>] [--timeout <seconds, default 600>] [--env KEY=VALUE]...\n' +
      '         [--grep <regexp>] [--ui bdd|tdd] [--settings <extra-settings.json>]\n' +
      '         [--keep-temp] [--real-home]\n',
  );
  process.exit(msg ? 2 : 0);
}

function parseOptions() {
  let args;
  try {
    args = parseArgs({
      options: {
        extension: { type: 'string' },
        suite: { type: 'string' },
        artifacts: { type: 'string' },
        workspace: { type: 'string' },
        timeout: { type: 'string', default: '600' },
        env: { type: 'string', multiple: true, default: [] },
        grep: { type: 'string' },
        ui: { type: 'string', default: 'bdd' },
        settings: { type: 'string' },
        'keep-temp': { type: 'boolean', default: false },
        'real-home': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    usage(err.message);
  }
  return args;
}

/** The options, the resolved paths and the extra environment; prints usage and exits on anything wrong. */
export function parseRunArgs() {
  const args = parseOptions();
  if (args.help) usage();
  if (!args.extension || !args.suite || !args.artifacts) usage('--extension, --suite and --artifacts are required');

  const extensionDir = resolve(args.extension);
  const suitePath = resolve(args.suite);
  const artifacts = resolve(args.artifacts);
  const timeoutMs = Number(args.timeout) * 1000;
  if (!(timeoutMs > 0)) usage(`bad --timeout ${args.timeout}`);
  const extraEnv = {};
  for (const kv of args.env) {
    const i = kv.indexOf('=');
    if (i <= 0) usage(`bad --env ${kv} (want KEY=VALUE)`);
    extraEnv[kv.slice(0, i)] = kv.slice(i + 1);
  }
  if (!existsSync(join(extensionDir, 'package.json'))) usage(`no package.json in ${extensionDir}`);
  if (!existsSync(suitePath)) usage(`suite not found: ${suitePath}`);
  if (!existsSync(CS_STAMP)) usage('code-server is not installed: run scripts/e2e/setup-code-server.sh first');
  if (!existsSync(CHROMIUM)) usage(`chromium not found at ${CHROMIUM} (setup-code-server.sh installs it)`);
  return { args, extensionDir, suitePath, artifacts, timeoutMs, extraEnv };
}

// mocha and playwright-core come from the repository's node_modules.
export function repoModule(spec) {
  const p = join(REPO_ROOT, 'node_modules', spec);
  if (!existsSync(p)) usage(`cannot find ${p} (run npm ci)`);
  return p;
}
