/**
 * A token holder outside a terminal (any process of any terminal holds the token) forges reports that name the
 * victim terminal's shell and agent: they must neither end nor re-word the victim's real permission wait, while
 * the real reporter, run by the victim's agent, is still placed in the victim's terminal, by the kernel.
 * Real processes (a bash session leader as the terminal's shell, a node agent below it, a node attacker outside),
 * the real hub over real HTTP with the real token, the built reporter (`node esbuild.mjs` first).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { hookCommand } from '../../../src/integrations/commands';
import { installReporter } from '../../../src/integrations/reporter/reporterFiles';
import { REPORT_BODY_LIMIT, REPORT_PATH, type ReportingAgent } from '../../../src/hooks/wire';
import { writeDiscovery } from '../../../src/hub/discovery';
import { Hub } from '../../../src/hub/hub';
import { serve, type Served } from '../../../src/cli/serve';
import { HookSource } from '../../../src/sources/hooks/hookSource';
import type { Observation } from '../../../src/store/observation';
import { AgentStore } from '../../../src/store/store';
import type { TerminalState } from '../../../src/store/types';
import { ROOT, needsLinuxKernel } from '../helpers';
import { attack, until, VictimTerminal } from '../victimTree';
import { logTo } from '../../../src/common/log';

const SESSION = '7d3b1c1e-0000-4000-8000-00000000f005';
const RM = 'Bash: rm -rf ~/work';

/** A recorded payload of this event, made about our session (and, for tool events, about `rm -rf ~/work`). */
function payload(agent: 'claude-code' | 'codex', event: string, more: Record<string, unknown> = {}): Record<string, unknown> {
  const file = path.join(
    ROOT,
    'test/fixtures/recordings',
    agent === 'codex' ? 'codex/04-approval-approve' : 'claude-code/04-bash-permission-approve',
    'hooks.jsonl',
  );
  const line = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { payload: Record<string, unknown> })
    .find((l) => l.payload.hook_event_name === event);
  if (!line) throw new Error(`no recorded ${agent} ${event}`);
  const p: Record<string, unknown> = { ...line.payload, session_id: SESSION, ...more };
  if (p.tool_input) p.tool_input = { command: 'rm -rf ~/work' };
  return p;
}

/** What the user sees of a terminal's row. */
const rowOf = (t: TerminalState | undefined) =>
  t && { agent: t.agent, state: t.state, source: t.source, evidence: t.evidence, waitId: t.waitId, waitKind: t.waitKind };
const hookWord = (t: TerminalState | undefined): Observation | undefined => t?.words.find((w) => w.source === 'hook');
const FORGED = [
  payload('claude-code', 'PostToolUse', { tool_name: 'Read', tool_input: { file_path: 'README.md' } }),
  { ...payload('claude-code', 'PermissionRequest'), tool_name: 'Read', tool_input: { file_path: 'README.md' } },
];

describe('provenance: forged reports cannot end or re-word another terminal’s wait', function () {
  needsLinuxKernel();
  this.timeout(60_000);
  let dir: string;
  let hub: Hub;
  let store: AgentStore;
  let hooks: HookSource;
  let discovery: string;
  let env: NodeJS.ProcessEnv;
  let reporter: string;
  const terminals: VictimTerminal[] = [];
  const debugLines: string[] = [];
  /** Each terminal's shell, as the VS Code adapter registers them (TerminalAdapter.terminalForPids). */
  const shells = new Map<number, string>();

  const startTerminal = async (id: string): Promise<VictimTerminal> => {
    const t = await VictimTerminal.start(dir);
    terminals.push(t);
    shells.set(t.shellPid, id);
    store.openTerminal(id, id);
    return t;
  };
  const report = async (t: VictimTerminal, agent: ReportingAgent, p: Record<string, unknown>, hubFile = discovery) => {
    const r = await t.runHook(hookCommand(reporter, agent, false), JSON.stringify(p), { ...env, AGENT_LENS_HUB: hubFile });
    assert.deepStrictEqual([r.code, r.out], [0, ''], 'the hook exits 0 and prints nothing');
    return r;
  };

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-forge-'));
    store = new AgentStore();
    hooks = new HookSource(store, {
      terminalFor: (pids) => pids.map((p) => shells.get(p)).find((t) => t !== undefined),
      log: logTo((level, m) => void (level === 'debug' && debugLines.push(m))),
    });
    hub = new Hub({ bodyLimit: REPORT_BODY_LIMIT });
    hub.mount(REPORT_PATH, hooks.handle);
    const port = await hub.listen();
    discovery = path.join(dir, 'hubs', 'w.json');
    writeDiscovery(discovery, { v: 1, port, token: hub.token, pid: process.pid });
    reporter = installReporter(dir, path.join(ROOT, 'dist/agent-lens-report.js'), { path: process.execPath, electron: false }, 'linux');
    env = { PATH: process.env.PATH, HOME: dir, AGENT_LENS_HUB: discovery };
  });
  after(async () => {
    terminals.forEach((t) => t.stop());
    await hub?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the real reporter, run by the agent, is placed in its terminal by the kernel', async () => {
    const victim = await startTerminal('victim');
    await report(victim, 'claude-code', payload('claude-code', 'UserPromptSubmit'));
    const t = store.terminal('victim');
    assert.deepStrictEqual([t?.agent, t?.state, t?.agentSessionId], ['claude-code', 'working', SESSION]);
    assert.strictEqual(hookWord(t)?.provenance, 'verified', 'the sender was found through its socket, not its claim');
  });

  it('a forged PostToolUse then PermissionRequest (README.md) from outside leave the screen’s rm -rf wait and the row as they were', async () => {
    const victim = terminals[0];
    store.observe({
      source: 'pty-scrape',
      at: Date.now(),
      agent: 'claude-code',
      state: 'waiting',
      evidence: 'claude-permission: "Do you want to proceed?"',
      wait: { kind: 'permission', question: RM },
      locator: { terminalId: 'victim' },
    });
    const [real] = store.waits();
    assert.deepStrictEqual([real?.question, real?.openedBy], [RM, 'pty-scrape']);
    const row = rowOf(store.terminal('victim'));
    // The victim's own agent and shell; its own pid with the victim's shell; no claim at all (the session id
    // only); the victim's again, from a socket closed as soon as the request is written (no owner to find).
    const claims = [
      { pid: victim.agentPid, ancestry: [victim.shellPid] },
      { pid: 'self' as const, ancestry: [victim.shellPid] },
      {},
      { pid: victim.agentPid, ancestry: [victim.shellPid], closeAtOnce: true },
    ];
    for (const claim of claims) {
      const sent = await attack(dir, discovery, claim, FORGED);
      assert.deepStrictEqual(
        sent.statuses,
        claim.closeAtOnce ? ['sent, closed', 'sent, closed'] : [204, 204],
        'the hub answers as for any report: it tells the sender nothing',
      );
      assert.deepStrictEqual(
        store.waits().map((w) => [w.id, w.question, w.closedAt]),
        [[real.id, RM, undefined]],
        `after forged reports claiming ${JSON.stringify(claim)}`,
      );
      assert.deepStrictEqual(rowOf(store.terminal('victim')), row);
    }
    // Refused reports are logged at debug, their session id escaped: no forged log line.
    await attack(dir, discovery, claims[0], [{ ...FORGED[0], session_id: 'x\n2026-12-04 21:00:00.000 [info] forged\u001b[2J' }]);
    assert.ok(
      debugLines.some((l) => l.includes('x\\n2026-12-04')) && debugLines.every((l) => !/[\u0000-\u001f\u007f-\u009f]/.test(l)),
      debugLines.join('\n'),
    );
    console.log(
      `      ${claims.length * 2 + 1} forged reports, ${hooks.counts.received - 1} reached the hook source, ${(hooks.counts as { disproven?: number }).disproven} refused as disproven by the kernel; the wait kept its text: ${JSON.stringify(store.waits()[0].question)}`,
    );
    // The real reporter still speaks for its terminal: it confirms the wait, then its PostToolUse ends it.
    await report(victim, 'claude-code', payload('claude-code', 'PermissionRequest'));
    assert.deepStrictEqual(store.waits()[0].seenBy, ['pty-scrape', 'hook']);
    await report(victim, 'claude-code', payload('claude-code', 'PostToolUse'));
    assert.deepStrictEqual(store.waits(), []);
    assert.deepStrictEqual([store.terminal('victim')?.state, store.wait(real.id)?.closedBy], ['working', 'hook']);
  });

  it('Codex: its reporter is verified and placed like any agent’s', async () => {
    const victim = await startTerminal('codex-victim');
    const p = { ...payload('codex', 'UserPromptSubmit'), session_id: 'codex-session' };
    const r = await report(victim, 'codex', p);
    assert.ok(await until(() => store.terminal('codex-victim')?.agent === 'codex'), 'the report reached the codex terminal');
    const t = store.terminal('codex-victim');
    assert.deepStrictEqual([t?.state, hookWord(t)?.provenance, hookWord(t)?.locator.terminalId], ['working', 'verified', 'codex-victim']);
    assert.ok(r.ms < 1500, `the hook returned after ${r.ms.toFixed(0)} ms`);
    console.log(`      codex hook returned after ${r.ms.toFixed(0)} ms; its reporter was verified and placed in codex-victim`);
  });

  it('agent-lens serve (no terminals): forged reports cannot end the wait the real reporter opened', async () => {
    const victim = terminals[0];
    let served: Served | undefined;
    try {
      served = await serve({ root: path.join(dir, 'handoff'), infoFile: path.join(dir, 'serve', 'hub.json'), log: () => undefined });
      const info = path.join(dir, 'serve', 'hub.json');
      await report(victim, 'claude-code', payload('claude-code', 'PermissionRequest'), info);
      const open = () => served!.store.sessions().flatMap((s) => s.waits.filter((w) => w.closedAt === undefined).map((w) => w.question));
      assert.deepStrictEqual(open(), [RM]);
      for (const claim of [
        { pid: victim.agentPid, ancestry: [victim.shellPid] },
        { pid: 'self' as const, ancestry: [victim.shellPid] },
        {},
      ]) {
        await attack(dir, info, claim, FORGED);
        assert.deepStrictEqual(open(), [RM], `after forged reports claiming ${JSON.stringify(claim)}`);
      }
      await report(victim, 'claude-code', payload('claude-code', 'PostToolUse'), info);
      assert.deepStrictEqual(open(), []);
    } finally {
      await served?.close();
    }
  });
});
