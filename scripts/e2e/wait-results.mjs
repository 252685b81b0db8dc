// The E2E runner's wait for the suite's results: until results.json appears (or the timeout, an interrupt,
// code-server's exit) it notes the extension host and the host-runner start, serves the suite's UI requests
// and reports progress from the host-runner log.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { readJson } from './files.mjs';
import { T0, say, sleep } from './log.mjs';
import { findExtensionHostPid } from './proc.mjs';
import { interrupted } from './teardown.mjs';
import { serveRequest } from './ui-requests.mjs';

/** Returns the results (undefined if none came) and the extension host's pid (if found). */
export async function waitForResults({ server, page, artifacts, paths, timings, timeoutMs }) {
  const { cs, csExit, tCsStart } = server;
  const { resultsPath, hostLogPath, reqDir } = paths;
  let extHostPid;
  let lastProgress = '';
  const deadline = T0 + timeoutMs;
  let results;
  while (Date.now() < deadline) {
    if (interrupted) {
      say(`interrupted by ${interrupted.sig}`);
      break;
    }
    if (csExit()) {
      say(`code-server exited unexpectedly (${JSON.stringify(csExit())})`);
      break;
    }
    if (!extHostPid) {
      extHostPid = findExtensionHostPid(cs.pid);
      if (extHostPid) {
        timings.extensionHostSpawnedMs = Date.now() - tCsStart;
        say(`extension host pid ${extHostPid} (${timings.extensionHostSpawnedMs} ms after code-server start)`);
      }
    }
    if (timings.hostRunnerActivatedMs === undefined && existsSync(hostLogPath)) {
      const m = /^\[([^\]]+)\] host-runner activated/m.exec(readFileSync(hostLogPath, 'utf8'));
      if (m) {
        timings.hostRunnerActivatedMs = Date.parse(m[1]) - tCsStart;
        say(`host-runner activated ${timings.hostRunnerActivatedMs} ms after code-server start; running tests`);
      }
    }
    // Screenshot and UI requests from the suite, in name order.
    for (const f of readdirSync(reqDir)
      .filter((x) => x.endsWith('.req'))
      .sort())
      await serveRequest(page, artifacts, reqDir, f);
    lastProgress = reportProgress(hostLogPath, lastProgress);
    if (existsSync(resultsPath)) {
      results = readJson(resultsPath);
      timings.resultsMs = Date.now() - tCsStart;
      break;
    }
    await sleep(250);
  }
  return { results, extHostPid };
}

// Progress from the host-runner log: says how many tests are done and the last one, when that changed.
function reportProgress(hostLogPath, lastProgress) {
  if (existsSync(hostLogPath)) {
    const lines = readFileSync(hostLogPath, 'utf8')
      .split('\n')
      .filter((l) => /\] (PASS|FAIL|SKIP) /.test(l));
    const last = lines.length ? `${lines.length} test(s) done, last: ${lines[lines.length - 1].replace(/^\[[^\]]+\] /, '')}` : '';
    if (last && last !== lastProgress) {
      say(last);
      lastProgress = last;
    }
  }
  return lastProgress;
}
