// Starts code-server for the E2E runner on a free 127.0.0.1 port (its own process group, log in the
// artifacts) and waits until it answers /healthz.
import { spawn } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { say, sleep } from './log.mjs';
import { CS_PKG } from './paths.mjs';
import { interrupted, state } from './teardown.mjs';

function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

/** Returns the port, the process (also state.cs), when it started, and csExit(): how it exited, if it has. */
export async function startCodeServer({ tmp, userDataDir, extensionsDir, workspace, artifacts, env, addPgid }) {
  const port = await freePort();
  const csArgs = [
    join(CS_PKG, 'out', 'node', 'entry.js'),
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--config',
    join(tmp, 'code-server-config.yaml'),
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    workspace,
  ];
  writeFileSync(join(tmp, 'code-server-config.yaml'), '');
  const csLog = createWriteStream(join(artifacts, 'code-server.log'));
  const tCsStart = Date.now();
  say(`starting code-server on 127.0.0.1:${port} (temp ${tmp})`);
  const cs = (state.cs = spawn(process.execPath, csArgs, { env, cwd: workspace, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }));
  addPgid(cs.pid);
  cs.stdout.pipe(csLog, { end: false });
  cs.stderr.pipe(csLog, { end: false });
  let csExit;
  cs.on('exit', (code, sig) => {
    csExit = { code, sig };
  });
  return { port, cs, tCsStart, csExit: () => csExit };
}

export async function waitForHealthz(base, { csExit, tCsStart }, artifacts) {
  for (;;) {
    if (interrupted) throw new Error(`interrupted by ${interrupted.sig}`);
    if (csExit()) throw new Error(`code-server exited early (${JSON.stringify(csExit())}); see ${artifacts}/code-server.log`);
    if (Date.now() - tCsStart > 60000) throw new Error('code-server did not answer /healthz within 60 s');
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok) break;
    } catch {
      /* not yet */
    }
    await sleep(100);
  }
}
