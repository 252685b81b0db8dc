// What the E2E runner leaves after a run: the artifacts (workbench.png, logs, settings, blocked requests),
// run-summary.json with the exit code, and the report on stdout.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyIfExists, findFiles } from './files.mjs';
import { say } from './log.mjs';
import { cpuTimeMs } from './proc.mjs';
import { screenshot } from './ui-requests.mjs';

/** Takes workbench.png and copies the logs; returns the extension host's CPU time (ms), if known. */
export async function collectArtifacts({ page, artifacts, dirs, extHostPid, blocked }) {
  const { userDataDir, home } = dirs;
  try {
    await screenshot(page, artifacts, 'workbench');
  } catch (err) {
    say(`workbench screenshot failed: ${err.message}`);
  }
  const extHostCpuMs = extHostPid ? cpuTimeMs(extHostPid) : undefined;
  copyIfExists(join(userDataDir, 'logs'), join(artifacts, 'logs'));
  copyIfExists(join(home, '.local', 'share', 'code-server', 'coder-logs'), join(artifacts, 'logs', 'coder-logs'));
  copyIfExists(join(userDataDir, 'User', 'settings.json'), join(artifacts, 'settings.json'));
  // The extension host log, flattened for convenience.
  const extHostLogs = findFiles(join(userDataDir, 'logs'), (n) => n === 'remoteexthost.log').sort();
  if (extHostLogs.length) copyIfExists(extHostLogs[extHostLogs.length - 1], join(artifacts, 'exthost.log'));
  if (blocked.length) writeFileSync(join(artifacts, 'blocked-requests.log'), blocked.join('\n') + '\n');
  return extHostCpuMs;
}

/** Writes run-summary.json; returns the summary, whose exitCode is the runner's. */
export function writeSummary({ extId, suitePath, server, extHostPid, extHostCpuMs, timings, results, blocked, artifacts }) {
  const summary = {
    ok: false,
    extension: extId,
    suite: suitePath,
    port: server.port,
    codeServerPid: server.cs.pid,
    extensionHostPid: extHostPid ?? results?.extensionHostPid,
    extensionHostCpuMs: extHostCpuMs,
    timings,
    passed: results?.passed,
    failed: results?.failed,
    pending: results?.pending,
    blockedRequests: blocked.length,
  };
  let exitCode;
  if (!results) exitCode = 2;
  else if (results.failed > 0) exitCode = 1;
  else if (results.passed + results.pending === 0) {
    say('no tests ran');
    exitCode = 1;
  } else exitCode = 0;
  summary.ok = exitCode === 0;
  summary.exitCode = exitCode;
  writeFileSync(join(artifacts, 'run-summary.json'), JSON.stringify(summary, null, 2) + '\n');
  return summary;
}

/** The report on stdout: timings, failures (or what was still running) and where the artifacts are. */
export function printReport({ extId, summary, extHostCpuMs, timings, results, hostLogPath, blocked, artifacts }) {
  const out = [];
  out.push('');
  out.push(`Agent Lens E2E: ${extId} in VS Code ${results?.vscodeVersion ?? '?'} (code-server)`);
  out.push(
    `  timings: code-server up ${timings.codeServerListeningMs} ms, ext host spawned ${timings.extensionHostSpawnedMs ?? '?'} ms, ` +
      `host-runner activated ${timings.hostRunnerActivatedMs ?? '?'} ms, results ${timings.resultsMs ?? '-'} ms (from code-server start)`,
  );
  out.push(
    `  extension host pid ${summary.extensionHostPid ?? '?'}, cpu ${extHostCpuMs !== undefined ? Math.round(extHostCpuMs) + ' ms' : '?'}`,
  );
  if (results) {
    for (const t of results.tests.filter((x) => x.state === 'failed')) {
      out.push(`  FAILED ${t.fullTitle}`);
      const msg = t.error?.stack || t.error?.message || '(no error)';
      out.push(
        ...String(msg)
          .split('\n')
          .slice(0, 15)
          .map((l) => `      ${l}`),
      );
    }
    out.push(`  ${results.passed} passed, ${results.failed} failed, ${results.pending} pending`);
  } else {
    out.push('  NO RESULTS (see code-server.log, exthost.log, results.log, browser-console.log, workbench.png)');
    if (existsSync(hostLogPath)) {
      const lines = readFileSync(hostLogPath, 'utf8').split('\n');
      const started = lines.filter((l) => /\] START /.test(l)).map((l) => l.replace(/^.*?\] START /, ''));
      const ended = new Set(
        lines
          .filter((l) => /\] (PASS|FAIL|SKIP) /.test(l))
          .map((l) => l.replace(/^.*?\] (PASS|FAIL|SKIP) {2}/, '').replace(/( \(\d+ ms\)|: .*)$/, '')),
      );
      const running = started.filter((t) => !ended.has(t));
      if (running.length) out.push(`  still running: ${running[running.length - 1]}`);
    }
  }
  if (blocked.length) out.push(`  ${blocked.length} non-local request(s) blocked (blocked-requests.log)`);
  out.push(`  artifacts: ${artifacts}`);
  process.stdout.write(out.join('\n') + '\n');
}
