#!/usr/bin/env node
// Runs a mocha suite inside a real VS Code extension host (code-server 4.100.3
// = VS Code 1.100.3), driven by headless Debian chromium via playwright-core.
//
//   node scripts/e2e/run.mjs --extension <dir> --suite <file-or-dir> --artifacts <dir>
//        [--workspace <dir>] [--timeout 600] [--env KEY=VALUE]... [--grep <re>]
//        [--ui bdd|tdd] [--settings <file.json>] [--keep-temp] [--real-home]
//
// Prerequisite: scripts/e2e/setup-code-server.sh (installs into .e2e/cs).
// Exit code: 0 all tests passed; 1 test failures (or no tests ran);
// 2 no results (timeout, crash, bad arguments); 130/143 interrupted.
//
// The pieces: args.mjs (command line), profile.mjs (temp profile, settings, environment), code-server.mjs,
// browser.mjs (chromium and the workbench page), ui-requests.mjs (the suite's screenshots and UI actions),
// wait-results.mjs (the wait for results.json), results.mjs (artifacts, summary, report), teardown.mjs
// (cleanup, signals, watchdog), proc.mjs (/proc helpers).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseRunArgs, repoModule } from './args.mjs';
import { launchBrowser, openWorkbench } from './browser.mjs';
import { startCodeServer, waitForHealthz } from './code-server.mjs';
import { say } from './log.mjs';
import { hostEnv, linkExtensions, makeTempDirs, prepareArtifacts, writeE2eConfig, writeSettings } from './profile.mjs';
import { collectArtifacts, printReport, writeSummary } from './results.mjs';
import { cleanup, handleSignals, interrupted, state, watchTemp } from './teardown.mjs';
import { waitForResults } from './wait-results.mjs';

const { args, extensionDir, suitePath, artifacts, timeoutMs, extraEnv } = parseRunArgs();
const mochaDir = repoModule('mocha');
const { chromium } = await import(pathToFileURL(join(repoModule('playwright-core'), 'index.js')).href).then((m) => m.default ?? m);

state.keepTemp = args['keep-temp'];
handleSignals();

// ------------------------------------------------------------------ main --
async function main() {
  const paths = prepareArtifacts(artifacts);
  const dirs = makeTempDirs(args.workspace);
  const addPgid = watchTemp(dirs.tmp);
  const extId = linkExtensions(extensionDir, dirs.extensionsDir);
  writeSettings(dirs.userDataDir, args.settings);
  const e2eConfig = writeE2eConfig({ userDataDir: dirs.userDataDir, suitePath, resultsPath: paths.resultsPath, mochaDir, artifacts, args });
  const env = hostEnv({ e2eConfig, artifacts, args, home: dirs.home, extraEnv });

  const server = await startCodeServer({ ...dirs, artifacts, env, addPgid });
  const base = `http://127.0.0.1:${server.port}`;
  await waitForHealthz(base, server, artifacts);
  const timings = { codeServerListeningMs: Date.now() - server.tCsStart };
  say(`code-server up after ${timings.codeServerListeningMs} ms`);

  await launchBrowser(chromium, dirs.tmp, addPgid);
  const { page, blocked } = await openWorkbench({ base, workspace: dirs.workspace, artifacts, timings, tCsStart: server.tCsStart });

  const { results, extHostPid } = await waitForResults({ server, page, artifacts, paths, timings, timeoutMs });
  if (!results && !interrupted) say(server.csExit() ? 'no results' : `TIMEOUT: no results after ${args.timeout} s`);

  const extHostCpuMs = await collectArtifacts({ page, artifacts, dirs, extHostPid, blocked });
  const run = { extId, extHostCpuMs, timings, results, blocked, artifacts };
  const summary = writeSummary({ ...run, suitePath, server, extHostPid });
  printReport({ ...run, summary, hostLogPath: paths.hostLogPath });
  return summary.exitCode;
}

let code = 2;
try {
  code = await main();
} catch (err) {
  say(`ERROR: ${err.stack || err}`);
  code = 2;
}
await cleanup();
process.exit(interrupted ? interrupted.code : code);
