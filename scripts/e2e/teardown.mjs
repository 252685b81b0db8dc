// What the E2E runner started and must stop: the processes and the temp dir (state), their cleanup, the
// signal handlers, and a watchdog that cleans up if the runner dies without doing so.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { say, sleep } from './log.mjs';

export const state = {
  tmp: undefined,
  cs: undefined, // code-server ChildProcess (own process group)
  browser: undefined,
  browserPgids: new Set(),
  watchdog: undefined,
  cleaning: undefined,
  keepTemp: false, // --keep-temp
};

function killGroup(pgid, sig) {
  try {
    process.kill(-pgid, sig);
    return true;
  } catch {
    return false;
  }
}
function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function cleanup() {
  if (state.cleaning) return state.cleaning;
  state.cleaning = (async () => {
    if (state.browser) {
      await Promise.race([state.browser.close().catch(() => {}), sleep(5000)]);
    }
    const groups = [...state.browserPgids];
    if (state.cs?.pid) groups.push(state.cs.pid);
    for (const g of groups) killGroup(g, 'SIGTERM');
    const deadline = Date.now() + 5000;
    while (groups.some(groupAlive) && Date.now() < deadline) await sleep(100);
    for (const g of groups) if (groupAlive(g)) killGroup(g, 'SIGKILL');
    if (state.watchdog?.pid) killGroup(state.watchdog.pid, 'SIGKILL');
    if (state.tmp && !state.keepTemp) rmSync(state.tmp, { recursive: true, force: true });
    else if (state.tmp) say(`kept temp dir ${state.tmp}`);
  })();
  return state.cleaning;
}

// First signal: stop waiting, collect artifacts, clean up, exit 128+n.
// Second signal (or main stuck for 15 s): clean up and exit at once.
export let interrupted;
export function handleSignals() {
  for (const [sig, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ]) {
    process.on(sig, () => {
      const force = () => cleanup().finally(() => process.exit(code));
      if (interrupted) return void force();
      interrupted = { sig, code };
      say(`${sig}: stopping (send again to force)`);
      setTimeout(force, 15000).unref();
    });
  }
}

// Kills code-server and chromium if this process dies without cleaning up
// (e.g. SIGKILL). Reads the process groups to kill from a file.
function startWatchdog(pgidFile, tmp) {
  const script = `
    while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done
    for sig in TERM KILL; do
      for g in $(cat "$1" 2>/dev/null); do kill -$sig -- -$g 2>/dev/null; done
      sleep 2
    done
    [ -n "$2" ] && rm -rf -- "$2"`;
  const wd = spawn('bash', ['-c', script, 'agent-lens-e2e-watchdog', pgidFile, tmp], { detached: true, stdio: 'ignore' });
  wd.unref();
  return wd;
}

/** Starts the watchdog over `tmp`; returns addPgid(g), which adds a process group for it to kill. */
export function watchTemp(tmp) {
  const pgidFile = join(tmp, 'pgids');
  writeFileSync(pgidFile, '');
  state.watchdog = startWatchdog(pgidFile, state.keepTemp ? '' : tmp);
  const addPgid = (g) => writeFileSync(pgidFile, `${readFileSync(pgidFile, 'utf8')}${g}\n`);
  return addPgid;
}
