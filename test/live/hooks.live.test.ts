import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runScenario } from '../../harness/driver';
import type { AgentHome } from '../../harness/homes';
import { type HookedAgent, installOurHooks } from '../../harness/answering/installOurHooks';
import { AGENT_COMMAND } from '../../harness/commandLine';
import { installReporter } from '../../src/integrations/reporter/reporterFiles';
import { REPORT_BODY_LIMIT, REPORT_PATH } from '../../src/hooks/wire';
import { writeDiscovery } from '../../src/hub/discovery';
import { Hub } from '../../src/hub/hub';
import { AgentCensus } from '../../src/sources/process/agentCensus';
import { realScheduler } from '../../src/common/scheduler';
import { HookSource } from '../../src/sources/hooks/hookSource';
import { TerminalSession } from '../../src/sources/terminal/session';
import { AgentStore } from '../../src/store/store';
import { JsonlLogSource } from '../../src/sources/logs/logSources';
import { isLineLogAgent } from '../../src/jsonl';
import { agentOf, configDirOf } from '../../src/agents/registry';
import { OpenCodeLogSource } from '../../src/sources/logs/opencodeSource';
import { inOpenCodeFamily } from '../../src/agents/hookEvents';
import { heldBriefly, withOurHooks } from './liveScenarios';
import { ScreenWatch } from './screenStates';

/**
 * The real CLIs with our hooks / plugin installed by our installers, reporting through the real reporter to a
 * real hub, fused in the store with the screen of the same PTY: a permission dialog is a wait with source
 * `hook` within 1 s of the hook firing; approved, it closes; denied, it closes too (by the screen where the
 * hook is silent, as in Claude Code). The agent's session log is tailed as the extension tails it, and a turn
 * end the hooks report releases what the log holds: Gemini CLI's turn ends completed, or failed when denied,
 * by its chat log, and so does Qwen Code's denied turn and every droid turn. OpenCode's and Kilo's databases are
 * read as the extension reads them: Kilo's denied turn ends failed by its database. Copilot CLI's dialog is its
 * Notification hook's, and its session log says a denied turn failed.
 */
const ROOT = path.resolve(__dirname, '../../..');
const CASES: { agent: HookedAgent; approve: string; deny: string; permissionEvent: string }[] = [
  { agent: 'claude-code', approve: '04-bash-permission-approve', deny: '05-bash-permission-deny', permissionEvent: 'PermissionRequest' },
  { agent: 'codex', approve: '04-approval-approve', deny: '05-approval-deny', permissionEvent: 'PermissionRequest' },
  { agent: 'opencode', approve: '04-permission-approve', deny: '05-permission-reject', permissionEvent: 'permission.asked' },
  { agent: 'gemini', approve: '04-shell-approve', deny: '05-shell-deny', permissionEvent: 'Notification' },
  { agent: 'qwen', approve: '04-shell-approve', deny: '05-shell-deny', permissionEvent: 'PermissionRequest' },
  { agent: 'kilocode', approve: '04-permission-approve', deny: '05-permission-reject', permissionEvent: 'permission.asked' },
  { agent: 'droid', approve: '04-execute-approve', deny: '05-execute-deny', permissionEvent: 'Notification' },
  { agent: 'copilot', approve: '04-shell-approve', deny: '05-shell-deny', permissionEvent: 'Notification' },
];

/** When the harness's own logger saw the hook fire (epoch ms): the reference for "within 1 s". */
function firedAt(outDir: string, event: string): number | undefined {
  const file = ['hooks.jsonl', 'events.jsonl'].map((f) => path.join(outDir, f)).find((f) => fs.existsSync(f));
  if (!file) return undefined;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as Record<string, unknown>;
    const name = r.argv_event ?? r.event_arg ?? r.type;
    if (name === event) return (r.logged_at_ms ?? r.epoch_ms ?? r.ts) as number;
  }
  return undefined;
}

describe('live: real CLIs report through our hooks, fused with the screen', function () {
  this.timeout(240_000);

  for (const c of CASES) {
    for (const variant of ['approve', 'deny'] as const) {
      it(`${c.agent} ${variant}: the dialog is a hook-confirmed wait within 1 s, then closed`, async () => {
        const alHome = fs.mkdtempSync(path.join(os.tmpdir(), 'al-live-hooks-'));
        const out = fs.mkdtempSync(path.join(os.tmpdir(), `al-live-hooks-${c.agent}-`));
        const census = new AgentCensus();
        const store = new AgentStore({ agentsInFolder: (agent, cwd) => census.count(agent, cwd) });
        let spawned = -1;
        let logs: JsonlLogSource | undefined;
        let db: OpenCodeLogSource | undefined;
        const hooks = new HookSource(store, {
          terminalFor: (pids) => (pids.includes(spawned) ? 'T' : undefined),
          turnEnded: (...a) => void logs?.turnEnded(...a),
        });
        const shown: string[] = [];
        store.onDidChange((ch) => {
          const c = ch.current;
          if (ch.id === 'T' && c && c.state !== 'exited') shown.push(`${c.state}${c.reason ? `(${c.reason})` : ''} ${c.source}`);
        });
        const hub = new Hub({ bodyLimit: REPORT_BODY_LIMIT });
        hub.mount(REPORT_PATH, hooks.handle);
        const discovery = path.join(alHome, 'hubs', 'live.json');
        writeDiscovery(discovery, { v: 1, port: await hub.listen(), token: hub.token, pid: process.pid });
        const reporter = installReporter(alHome, path.join(ROOT, 'dist/agent-lens-report.js'), { path: process.execPath, electron: false });
        // The approved run also quits: its screen alone must show the whole run (live.test.ts checks the rest).
        const sc = withOurHooks(heldBriefly(c.agent, c[variant], 3000, variant === 'approve'));
        const watch = variant === 'approve' ? new ScreenWatch(sc.cols ?? 120, sc.rows ?? 35, AGENT_COMMAND[c.agent]) : undefined;
        store.openTerminal('T', c.agent);
        const session = new TerminalSession('T', (o) => store.observe(o), realScheduler, { cols: sc.cols ?? 120, rows: sc.rows ?? 35 });
        session.startExecution(AGENT_COMMAND[c.agent], true);
        const hookSeen = new Map<string, number>();
        store.onDidChangeWait((w) => {
          if (w.seenBy.includes('hook') && !hookSeen.has(w.id)) hookSeen.set(w.id, Date.now());
        });
        let home: AgentHome | undefined;
        try {
          const res = await runScenario({
            scenario: sc,
            outDir: out,
            force: true,
            onHome: (h) => {
              home = h;
              h.env.AGENT_LENS_HUB = discovery;
              installOurHooks(c.agent, h, reporter, path.join(ROOT, 'dist/opencode-plugin.js'));
              const sqlite = agentOf(c.agent).logs;
              if (inOpenCodeFamily(c.agent) && sqlite?.format === 'sqlite') {
                // Its database, read as the extension reads it, where this run's agent writes it.
                db = new OpenCodeLogSource({
                  agent: c.agent,
                  databases: [sqlite.defaultPath(h.env, h.home)],
                  sink: (o) => store.observe(o),
                });
                db.start();
              }
              if (!isLineLogAgent(c.agent)) return;
              logs = new JsonlLogSource({ locations: { [c.agent]: [configDirOf(c.agent, h.env, h.home)] }, sink: (o) => store.observe(o) });
              void logs.start();
            },
            onSpawn: (pid) => (spawned = pid),
            onOutput: (data, t) => {
              session.write(data);
              watch?.write(data, t);
            },
            onExit: (code, t) => {
              session.endExecution(code);
              watch?.exit(code, t);
            },
          });
          watch?.finish();
          assert.deepStrictEqual(res.problems, [], `scenario problems (recording in ${out})`);
          await new Promise((r) => setTimeout(r, 1500));
          const all = store.sessions().flatMap((s) => s.waits);
          const w = all.find((x) => x.kind === 'permission' && x.seenBy.includes('hook'));
          assert.ok(
            w,
            `no hook-confirmed permission wait; waits: ${JSON.stringify(all)}; hooks ${JSON.stringify(hooks.counts)}; log ${home?.hooksLog}`,
          );
          const fired = firedAt(out, c.permissionEvent);
          assert.ok(fired, `the harness logger saw no ${c.permissionEvent} (${fs.readdirSync(out).join(', ')})`);
          const lag = hookSeen.get(w.id)! - fired;
          console.log(
            `      ${c.agent} ${variant}: ${c.permissionEvent} fired → wait ${w.id} has source hook after ${lag} ms; opened by ${w.openedBy}, closed by ${w.closedBy}; terminal ${w.terminalId}`,
          );
          assert.ok(lag <= 1000, `the hook's word reached the store ${lag} ms after it fired`);
          assert.strictEqual(w.terminalId, 'T', 'attributed to the agent’s terminal');
          // The plugin Kilo loads is OpenCode's: it must say which agent it runs in.
          const owner = store.sessions().find((x) => x.waits.some((y) => y.id === w.id));
          assert.strictEqual(owner?.agent, c.agent, 'the wait belongs to a session of the agent that reported it');
          assert.ok(w.closedAt !== undefined, `the wait is still open: ${JSON.stringify(w)}`);
          // No hook fires on a denial: the screen closes the wait, or the session log's record of it if read first.
          if (
            (c.agent === 'claude-code' || c.agent === 'gemini' || c.agent === 'qwen' || c.agent === 'droid' || c.agent === 'copilot') &&
            variant === 'deny'
          )
            assert.ok(w.closedBy === 'pty-scrape' || w.closedBy === 'jsonl-watcher', `${c.agent}: closed by ${w.closedBy}`);
          assert.deepStrictEqual(store.waits(), [], 'nothing left open');
          watch?.assertFullRun(c.agent);
          console.log(`      ${c.agent} ${variant}: shown ${shown.join(' → ')}`);
          if (c.agent === 'qwen') {
            // Qwen Code ends a denied turn without a Stop: only its chat log says how the turn ended.
            const end = variant === 'approve' ? /^completed (hook|jsonl-watcher)$/ : /^failed\(permission rejected\) jsonl-watcher$/;
            assert.match(turnEnd(shown, variant === 'approve'), end, `Qwen Code's turn end: ${shown.join(' → ')}`);
          }
          if (c.agent === 'kilocode') {
            // Its database, as the extension reads it, says how the turn ended; a rejection only there.
            const end = variant === 'approve' ? /^completed (hook|jsonl-watcher)$/ : /^failed\(permission rejected\) jsonl-watcher$/;
            assert.match(turnEnd(shown, variant === 'approve'), end, `Kilo's turn end: ${shown.join(' → ')}`);
            assert.ok(db && db.events > 0, 'Kilo’s database was read');
          }
          if (c.agent === 'droid') {
            // droid's Stop ends every turn alike: its session log's outcome says how (a denial: the tool result's refusal).
            const end = variant === 'approve' ? 'completed jsonl-watcher' : 'failed(permission rejected) jsonl-watcher';
            assert.strictEqual(turnEnd(shown, variant === 'approve'), end, `droid's turn ends by its session log: ${shown.join(' → ')}`);
            assert.ok(w.question?.startsWith('Execute: '), `the wait names the PreToolUse's tool: ${w.question}`);
          }
          if (c.agent === 'copilot') {
            // Copilot CLI fires no hook on a denial: its session log's abort after the refused permission says it failed.
            const end = variant === 'approve' ? /^completed (hook|jsonl-watcher)$/ : /^failed\(permission rejected\) jsonl-watcher$/;
            assert.match(turnEnd(shown, variant === 'approve'), end, `Copilot's turn end: ${shown.join(' → ')}`);
          }
          if (c.agent === 'gemini') {
            const end = variant === 'approve' ? 'completed jsonl-watcher' : 'failed(permission rejected) jsonl-watcher';
            assert.strictEqual(turnEnd(shown, variant === 'approve'), end, `Gemini's turn ends by its chat log: ${shown.join(' → ')}`);
          }
        } finally {
          watch?.dispose();
          await logs?.dispose();
          db?.dispose();
          session.dispose();
          await hub.close();
          fs.rmSync(alHome, { recursive: true, force: true });
        }
        fs.rmSync(out, { recursive: true, force: true });
      });
    }
  }
});

/**
 * How the turn ended, as shown: the last state, or before the quit the approved run ends with. Typing `/quit` at the
 * prompt can be read off the screen as idle before the agent exits (a slow machine draws it first): that idle is
 * the user's next move, not the turn's end.
 */
function turnEnd(shown: readonly string[], quit: boolean): string {
  let i = shown.length - 1;
  while (quit && i > 0 && shown[i] === 'idle pty-scrape') i--;
  return shown[i] ?? '';
}
