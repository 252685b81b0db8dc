/**
 * Answering a dialog from VS Code, printed (never asserted): the real built answering hook
 * (`dist/agent-lens-permission.js`, installed as on activation) run by `/bin/sh -c` as Claude Code runs its
 * `PermissionRequest` hook, with a recorded payload on stdin, held at a real hub on 127.0.0.1:
 *  (1) from the hook's start to its request being offered (Node's start and the report included);
 *  (2) from the answer (what the row's button calls) to the hook having printed Claude Code's decision and exited.
 * What Claude Code then takes to move on is measured with the real CLI by `test/live/answer.live.test.ts`. The
 * provenance check is bypassed here (this process is not Claude Code in a terminal); test/unit/answer tests it.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { mountHold } from '../src/answer/holdRoute';
import { PendingAnswers } from '../src/answer/pending';
import { SILENT } from '../src/common/log';
import { hookCommand, permissionCommandPath } from '../src/integrations/commands';
import { installReporter } from '../src/integrations/reporter/reporterFiles';
import { REPORT_BODY_LIMIT, REPORT_PATH } from '../src/hooks/wire';
import { writeDiscovery } from '../src/hub/discovery';
import { Hub } from '../src/hub/hub';
import { HookSource } from '../src/sources/hooks/hookSource';
import { AgentStore } from '../src/store/store';
import { ms, payloadOf, repoRoot, waitFor } from './hooks';

type Print = (s: string) => void;
const RUNS = 20;

export async function benchAnswer(print: Print): Promise<void> {
  const root = repoRoot();
  if (!root || !fs.existsSync(path.join(root, 'dist', 'agent-lens-permission.js'))) {
    print('answer     : dist/agent-lens-permission.js not found: run node esbuild.mjs first');
    return;
  }
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-bench-answer-'));
  const store = new AgentStore();
  store.openTerminal('T1', 'bench');
  const hooks = new HookSource(store, { terminalFor: () => 'T1' });
  const pending = new PendingAnswers();
  const hub = new Hub({ bodyLimit: REPORT_BODY_LIMIT });
  hub.mount(REPORT_PATH, hooks.handle);
  mountHold(hub, {
    hooks,
    waits: store,
    pending,
    enabled: () => true,
    log: SILENT,
    provenance: () => ({ ok: true, agentPid: process.pid }),
  });
  try {
    const port = await hub.listen();
    const discovery = path.join(home, 'hubs', 'bench.json');
    writeDiscovery(discovery, { v: 1, port, token: hub.token, pid: process.pid });
    installReporter(home, path.join(root, 'dist', 'agent-lens-report.js'), { path: process.execPath, electron: false });
    const env = { PATH: process.env.PATH, HOME: home, AGENT_LENS_HUB: discovery };
    const cmd = hookCommand(permissionCommandPath(home), 'claude-code', false);
    const stdin = JSON.stringify(payloadOf(root, 'claude-code', 'PermissionRequest'));
    const offered: number[] = [];
    const decided: number[] = [];
    let failed = 0;
    for (let i = -2; i < RUNS; i++) {
      const r = await once(cmd, stdin, env, store, pending);
      if (i < 0) continue;
      if (!r) {
        failed++;
        continue;
      }
      offered.push(r.offered);
      decided.push(r.decided);
    }
    print(`answer     : the built answering hook (dist/agent-lens-permission.js) held at a hub on 127.0.0.1:${port}, ${RUNS} runs`);
    print(`             hook start → offered on its row: ${ms(offered, 0)}${failed ? `; ${failed} run(s) failed` : ''}`);
    print(`             answer → decision printed and the hook exited: ${ms(decided, 1)}`);
  } finally {
    pending.dispose();
    await hub.close();
    store.dispose();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/** One held dialog answered "allow": the times to the offer and from the answer to the printed decision. */
async function once(
  cmd: string,
  stdin: string,
  env: NodeJS.ProcessEnv,
  store: AgentStore,
  pending: PendingAnswers,
): Promise<{ offered: number; decided: number } | undefined> {
  const t0 = performance.now();
  const p = spawn('/bin/sh', ['-c', cmd], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  let out = '';
  p.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exited = new Promise<void>((resolve) => p.on('close', () => resolve()));
  p.stdin.end(stdin);
  const handle = () => store.waits().flatMap((w) => pending.offered(w.id)?.handle ?? [])[0];
  if (!(await waitFor(() => handle() !== undefined, 5000))) {
    p.kill();
    return undefined;
  }
  const t1 = performance.now();
  pending.answer(handle()!, { behavior: 'allow' });
  await exited;
  const t2 = performance.now();
  return out.includes('"behavior":"allow"') ? { offered: t1 - t0, decided: t2 - t1 } : undefined;
}
