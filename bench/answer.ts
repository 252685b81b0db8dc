/**
 * Answering a dialog from VS Code, printed (never asserted): the real built answering hook
 * (`dist/agent-lens-permission.js`, installed as on activation) run by `/bin/sh -c` as Claude Code runs its
 * `PermissionRequest` hook, with a recorded payload on stdin, held at a real hub on 127.0.0.1:
 *  (1) from the hook's start to its request being offered (Node's start and the report included);
 *  (2) from the answer (what the row's button calls) to the hook having printed Claude Code's decision and exited.
 * The provenance check is bypassed here (this process is not Claude Code in a terminal); test/unit/answer tests it.
 * From the answer to each real agent moving on: ./answerAgents.ts.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { PendingAnswers } from '../src/answer/pending';
import { hookCommand, permissionCommandPath } from '../src/integrations/commands';
import { installReporter } from '../src/integrations/reporter/reporterFiles';
import { AgentStore } from '../src/store/store';
import { ms, payloadOf, waitFor } from './hooks';
import { repoRoot } from '../harness/repoRoot';
import { answeringHub } from '../harness/answering/rig';

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
  const { pending, hub, discovery } = await answeringHub(
    home,
    store,
    () => 'T1',
    () => ({ ok: true, agentPid: process.pid }),
  );
  try {
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
    print(`answer     : the built answering hook (dist/agent-lens-permission.js) held at a hub on 127.0.0.1, ${RUNS} runs`);
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
