import { onLinux } from '../../../../src/common/platform';
import * as assert from 'assert';
import { collect, ROOT } from '../../helpers';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { hookCommand } from '../../../../src/integrations/commands';
import { installReporter } from '../../../../src/integrations/reporter/reporterFiles';
import { REPORT_BODY_LIMIT, REPORT_PATH, type ReportingAgent } from '../../../../src/hooks/wire';
import { writeDiscovery } from '../../../../src/hub/discovery';
import { Hub } from '../../../../src/hub/hub';
import { HookSource } from '../../../../src/sources/hooks/hookSource';
import { AgentStore } from '../../../../src/store/store';

const CLAUDE_04 = path.join(ROOT, 'test/fixtures/recordings/claude-code/04-bash-permission-approve/hooks.jsonl');

/** The recorded payloads of one event, as Claude Code wrote them to the hook's stdin. */
function payloads(file: string, event: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { argv_event?: string; event_arg?: string; payload: Record<string, unknown> })
    .filter((l) => (l.argv_event ?? l.event_arg) === event)
    .map((l) => l.payload);
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a hook command the way the agents do: `sh -c <command>` with the payload on stdin. */
function runHook(command: string, stdin: string, env: NodeJS.ProcessEnv): Promise<Run> {
  const t0 = performance.now();
  return collect(spawn('/bin/sh', ['-c', command], { env, stdio: ['pipe', 'pipe', 'pipe'] }), stdin).then((r) => ({
    ...r,
    ms: performance.now() - t0,
  }));
}

describe('reporter: silent, always exit 0, bounded, in order; gated closes cost one test -e', function () {
  this.timeout(60_000);
  let home: string;
  let hub: Hub;
  let store: AgentStore;
  let hooks: HookSource;
  let received: Record<string, unknown>[];
  let env: NodeJS.ProcessEnv;
  let reporter: string;
  let discovery: string;
  const marker = () => path.join(home, 'hubs', 'waiting', String(process.pid));
  const cmd = (agent: ReportingAgent, gated = false) => hookCommand(reporter, agent, gated);

  before(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'al-rep-'));
    store = new AgentStore();
    hooks = new HookSource(store, { terminalFor: (pids) => (pids.includes(process.pid) ? 'T1' : undefined) });
    store.openTerminal('T1', 'claude');
    hub = new Hub({ bodyLimit: REPORT_BODY_LIMIT });
    received = [];
    hub.mount(REPORT_PATH, (b, connection) => {
      received.push(b as Record<string, unknown>);
      return hooks.handle(b, connection);
    });
    const port = await hub.listen();
    discovery = path.join(home, 'hubs', 'test.json');
    writeDiscovery(discovery, { v: 1, port, token: hub.token, pid: process.pid });
    reporter = installReporter(home, path.join(ROOT, 'dist/agent-lens-report.js'), { path: process.execPath, electron: false }, 'linux');
    env = { PATH: process.env.PATH, HOME: home, AGENT_LENS_HUB: discovery };
  });
  after(async () => {
    await hub.close();
    fs.rmSync(home, { recursive: true, force: true });
  });
  beforeEach(() => (received.length = 0));

  it('reports a real Claude Code permission request: nothing on stdout, exit 0, a hook wait in the store, a marker', async () => {
    const [p] = payloads(CLAUDE_04, 'PermissionRequest');
    const r = await runHook(cmd('claude-code'), JSON.stringify(p), env);
    assert.deepStrictEqual([r.code, r.stdout], [0, '']);
    assert.strictEqual(received.length, 1);
    assert.strictEqual(received[0].pid, process.pid, 'the hook’s parent is the agent');
    const [w] = store.waits();
    assert.deepStrictEqual([w.kind, w.openedBy, w.terminalId], ['permission', 'hook', 'T1']);
    // Only Linux's kernel can be asked who holds a connection; forced to macOS or Windows, the hub says it could not.
    assert.strictEqual(
      store.terminal('T1')!.words.find((o) => o.source === 'hook')?.provenance,
      onLinux() ? 'verified' : 'unverified',
      'the hub found the reporter below this process',
    );
    assert.match(w.question ?? '', /^Bash: /);
    assert.ok(fs.existsSync(marker()), 'marker written for the gated closes');
    console.log(`      reporting event: ${r.ms.toFixed(0)} ms wall (process start included)`);
  });

  it('a gated close runs the reporter only while a wait is open, and then clears the marker', async () => {
    const [post] = payloads(CLAUDE_04, 'PostToolUse');
    const r1 = await runHook(cmd('claude-code', true), JSON.stringify(post), env);
    assert.deepStrictEqual([r1.code, r1.stdout, received.length], [0, '', 1]);
    assert.ok(!fs.existsSync(marker()), 'marker cleared by the close');
    assert.deepStrictEqual(store.waits(), [], 'the wait closed');
    assert.strictEqual(store.terminal('T1')!.state, 'working');
    const r2 = await runHook(cmd('claude-code', true), JSON.stringify(post), env);
    assert.deepStrictEqual([r2.code, r2.stdout, received.length], [0, '', 1], 'no wait open: not reported');
    console.log(`      gated event, no wait open: ${r2.ms.toFixed(1)} ms wall`);
  });

  it('exits 0 silently on garbage, an empty stdin, an unknown agent, or outside VS Code', async () => {
    for (const [command, stdin, e] of [
      [cmd('claude-code'), 'not json{', env],
      [cmd('claude-code'), '', env],
      [cmd('claude-code'), '[1,2]', env],
      [`exec ${reporter} nobody`, '{}', env],
      [cmd('claude-code'), JSON.stringify(payloads(CLAUDE_04, 'Stop')[0]), { PATH: process.env.PATH, HOME: home }],
      [cmd('claude-code', true), '{}', { PATH: process.env.PATH, HOME: home }],
    ] as const) {
      const r = await runHook(command, stdin, e);
      assert.deepStrictEqual([r.code, r.stdout, r.stderr], [0, '', ''], command);
    }
    assert.strictEqual(received.length, 0);
  });

  it('exits 0 within its 3 s bound when the hub is down or refuses the token', async () => {
    const dead = path.join(home, 'hubs', 'dead.json');
    writeDiscovery(dead, { v: 1, port: 1, token: 'x', pid: 1 });
    const wrong = path.join(home, 'hubs', 'wrong.json');
    writeDiscovery(wrong, { v: 1, port: hub.port, token: 'f'.repeat(64), pid: 1 });
    // Accepts the connection, never answers: only the reporter's own timeout ends it.
    const hole = net.createServer(() => undefined);
    await new Promise<void>((r) => hole.listen(0, '127.0.0.1', () => r()));
    const silent = path.join(home, 'hubs', 'silent.json');
    writeDiscovery(silent, { v: 1, port: (hole.address() as net.AddressInfo).port, token: 'x', pid: 1 });
    const before = store.terminal('T1')!.history.length;
    for (const file of [dead, wrong, silent]) {
      const r = await runHook(cmd('claude-code'), JSON.stringify(payloads(CLAUDE_04, 'Stop')[0]), { ...env, AGENT_LENS_HUB: file });
      assert.deepStrictEqual([r.code, r.stdout], [0, '']);
      assert.ok(r.ms < 10_000, `ends before the agent's 10 s hook timeout (${r.ms} ms)`);
      console.log(
        `      hub ${file === dead ? 'down' : file === wrong ? 'with another token' : 'never answering'}: exit 0 after ${r.ms.toFixed(0)} ms`,
      );
    }
    hole.close();
    assert.strictEqual(store.terminal('T1')!.history.length, before, 'a refused report changes nothing');
  });

  it('keeps the order the agent produced its reports in', async () => {
    const [prompt] = payloads(CLAUDE_04, 'UserPromptSubmit');
    for (let i = 0; i < 8; i++) await runHook(cmd('claude-code'), JSON.stringify({ ...prompt, prompt: `p${i}` }), env);
    assert.deepStrictEqual(
      received.map((r) => (r.payload as { prompt: string }).prompt),
      Array.from({ length: 8 }, (_, i) => `p${i}`),
    );
    const ats = received.map((r) => r.at as number);
    assert.deepStrictEqual(
      [...ats].sort((a, b) => a - b),
      ats,
    );
  });

  it('Codex: the reporter sends its own request before the hook returns, verified by the kernel', async () => {
    const codex = path.join(ROOT, 'test/fixtures/recordings/codex/04-approval-approve/hooks.jsonl');
    const [p] = payloads(codex, 'PermissionRequest');
    const r = await runHook(cmd('codex'), JSON.stringify(p), env);
    assert.deepStrictEqual([r.code, r.stdout], [0, '']);
    // Received before the hook returned: no copy is left behind to send it (one could not be traced to its agent).
    assert.strictEqual(received.length, 1);
    assert.strictEqual((received[0].payload as { hook_event_name: string }).hook_event_name, 'PermissionRequest');
    assert.ok(
      store.sessions().some((s) => s.agent === 'codex' && s.shown?.provenance === (onLinux() ? 'verified' : 'unverified')),
      'the sender was found below the agent',
    );
    console.log(`      codex hook returned after ${r.ms.toFixed(0)} ms, its report delivered and verified`);
  });
});
