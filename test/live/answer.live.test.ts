import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runScenario } from '../../harness/driver';
import { call, enter, key, type Scenario, type Step, submit, wait, waitText } from '../../harness/scenario';
import { BASH_RM, CLAUDE, ready } from '../../harness/scenarios/claudeCues';
import { installOurHooks } from './installOurHooks';
import { AGENT_COMMAND } from '../../harness/commandLine';
import { answeringScript, installReporter } from '../../src/integrations/reporter/reporterFiles';
import { REPORT_BODY_LIMIT, REPORT_PATH } from '../../src/hooks/wire';
import { writeDiscovery } from '../../src/hub/discovery';
import { Hub } from '../../src/hub/hub';
import { AgentCensus } from '../../src/sources/process/agentCensus';
import { realScheduler } from '../../src/common/scheduler';
import { HookSource } from '../../src/sources/hooks/hookSource';
import { TerminalSession } from '../../src/sources/terminal/session';
import { AgentStore } from '../../src/store/store';
import type { Decision } from '../../src/hooks/decision';
import { mountHold } from '../../src/answer/holdRoute';
import { PendingAnswers, type PendingRequest } from '../../src/answer/pending';
import { checkProvenance } from '../../src/answer/provenance';
import { SILENT } from '../../src/common/log';

/**
 * The real Claude Code with our hooks installed by our installer, its PermissionRequest run by the real answering
 * hook, held at a real hub, fused with the screen of the same PTY. The answer goes in through the same calls the
 * Needs-you row's buttons make (PendingAnswers.offered, then answer with the row's handle); the mock model shows
 * what Claude Code did with it, and the screen shows Claude moving on. Answered in the terminal first, the held
 * hook goes within a second and prints nothing (Claude Code's own words on screen and in the transcript say who
 * decided).
 */
const ROOT = path.resolve(__dirname, '../../..');

interface Rig {
  pending: PendingAnswers;
  store: AgentStore;
  script: string;
  /** When the last answer was sent (epoch ms). */
  sentAt?: number;
}

/** Waits for the dialog to be offered on its row, as the row's buttons would be. */
async function offered(rig: Rig, timeoutMs = 15_000): Promise<PendingRequest> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const w = rig.store.waits().find((x) => x.kind === 'permission');
    const r = w && rig.pending.offered(w.id);
    if (r) return r;
    if (Date.now() > end) throw new Error(`no answerable dialog after ${timeoutMs} ms; waits ${JSON.stringify(rig.store.waits())}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** The answering hook processes still running (their command line names the installed script). */
function answeringHooks(script: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').includes(script);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const answer = (rig: Rig, d: Decision): Step =>
  call(async () => {
    const r = await offered(rig);
    assert.strictEqual(r.tool, 'Bash');
    assert.deepStrictEqual(r.input, BASH_RM, 'the request holds the whole tool input');
    await new Promise((res) => setTimeout(res, 1100)); // Allow is offered only after a moment
    rig.sentAt = Date.now();
    const outcome = rig.pending.answer(r.handle, d);
    return outcome === 'sent' ? undefined : `answer ${outcome}`;
  }, `answer ${d.behavior}`);

function scenario(id: string, steps: Step[], turns: Scenario['mock']['turns']): Scenario {
  return {
    id: `live-answer-${id}`,
    agent: 'claude-code',
    description: id,
    mock: { title: 'Clean build output', turns },
    steps: [ready, wait(1500), ...submit('clean the build output'), waitText(CLAUDE.permission, 30_000, 'dialog visible'), ...steps],
    tailMs: 0,
    expect: [],
  };
}

interface MockRequest {
  kind?: string;
  wall?: string;
  body?: { messages?: { role?: string; content?: unknown }[] };
}

type ToolResult = { type?: string; is_error?: boolean; content?: unknown };

/** The tool results the mock model received, each with when its request came (the mock's own log). */
function toolResults(out: string): (ToolResult & { at: number })[] {
  return fs
    .readFileSync(path.join(out, 'mock-requests.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as MockRequest)
    .filter((r) => r.kind === 'agent')
    .flatMap((r) => {
      const last = r.body?.messages?.at(-1);
      const parts = last?.role === 'user' && Array.isArray(last.content) ? (last.content as ToolResult[]) : [];
      return parts.filter((c) => c.type === 'tool_result').map((c) => ({ ...c, at: Date.parse(r.wall ?? '') }));
    });
}

async function play(
  name: string,
  make: (rig: Rig) => Scenario,
  check: (rig: Rig, out: string, cast: string) => void | Promise<void>,
): Promise<void> {
  const alHome = fs.mkdtempSync(path.join(os.tmpdir(), 'al-live-answer-'));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), `al-live-answer-${name}-`));
  const census = new AgentCensus();
  const store = new AgentStore({ agentsInFolder: (agent, cwd) => census.count(agent, cwd) });
  let spawned = -1;
  const hooks = new HookSource(store, { terminalFor: (pids) => (pids.includes(spawned) ? 'T' : undefined) });
  const pending = new PendingAnswers();
  const reporter = installReporter(alHome, path.join(ROOT, 'dist/agent-lens-report.js'), { path: process.execPath, electron: false });
  const rig: Rig = { pending, store, script: answeringScript(alHome) };
  const hub = new Hub({ bodyLimit: REPORT_BODY_LIMIT });
  hub.mount(REPORT_PATH, hooks.handle);
  mountHold(hub, {
    hooks,
    waits: store,
    pending,
    enabled: () => true,
    provenance: (v) => checkProvenance(v, rig.script, 'claude-code'),
    log: SILENT,
  });
  const discovery = path.join(alHome, 'hubs', 'live.json');
  writeDiscovery(discovery, { v: 1, port: await hub.listen(), token: hub.token, pid: process.pid });
  const sc = make(rig);
  store.openTerminal('T', 'claude');
  const session = new TerminalSession('T', (o) => store.observe(o), realScheduler, { cols: 120, rows: 35 });
  session.startExecution(AGENT_COMMAND['claude-code'], true);
  try {
    const res = await runScenario({
      scenario: sc,
      outDir: out,
      force: true,
      onHome: (h) => {
        h.env.AGENT_LENS_HUB = discovery;
        installOurHooks('claude-code', h, reporter, path.join(ROOT, 'dist/opencode-plugin.js'));
      },
      onSpawn: (pid) => (spawned = pid),
      onOutput: (data) => session.write(data),
      onExit: (code) => session.endExecution(code),
    });
    assert.deepStrictEqual(res.problems, [], `scenario problems (recording in ${out})`);
    await check(rig, out, fs.readFileSync(path.join(out, 'session.cast'), 'utf8'));
    assert.strictEqual(pending.size, 0, 'no request is left held');
  } finally {
    session.dispose();
    pending.dispose();
    await hub.close();
    fs.rmSync(alHome, { recursive: true, force: true });
  }
  fs.rmSync(out, { recursive: true, force: true });
}

describe('live: answering Claude Code’s permission dialog from VS Code (real CLI, real hook, real hub)', function () {
  this.timeout(180_000);
  const tool = { type: 'tool' as const, name: 'Bash', text: "I'll remove the build directory.", input: BASH_RM };
  const done = { type: 'text' as const, text: 'Done: the build/ directory has been removed.\n', chunks: 'lines' as const };

  it('Allow once from VS Code: the tool runs, the model gets its result, and Claude moves on', async () => {
    await play(
      'allow',
      (rig) =>
        scenario(
          'allow',
          [
            answer(rig, { behavior: 'allow' }),
            waitText(/Allowed by PermissionRequest hook/, 15_000, 'allowed by the hook'),
            waitText(CLAUDE.completed, 30_000, 'turn finished'),
          ],
          [tool, done],
        ),
      (rig, out) => {
        const results = toolResults(out);
        assert.strictEqual(results.length, 1, JSON.stringify(results));
        assert.strictEqual(results[0].is_error, false, `the tool ran: ${JSON.stringify(results[0])}`);
        console.log(`      allow: the model had the tool's result ${results[0].at - rig.sentAt!} ms after the answer was sent`);
      },
    );
  });

  it('Deny from VS Code with a message: the model gets the denial and the message, and the turn goes on', async () => {
    await play(
      'deny',
      (rig) =>
        scenario(
          'deny',
          [
            answer(rig, { behavior: 'deny', message: 'no, use a dry run' }),
            waitText(/Denied by PermissionRequest hook/, 15_000, 'denied by the hook'),
            waitText(CLAUDE.completed, 30_000, 'the turn went on to its end'),
          ],
          [tool, done],
        ),
      (rig, out) => {
        const results = toolResults(out);
        assert.strictEqual(results.length, 1, JSON.stringify(results));
        assert.strictEqual(results[0].is_error, true);
        assert.match(JSON.stringify(results[0].content), /no, use a dry run/);
        console.log(`      deny: the model had the denial ${results[0].at - rig.sentAt!} ms after the answer was sent`);
      },
    );
  });

  for (const how of ['Yes (Enter)', 'Esc'] as const) {
    it(`answered in the terminal first (${how}): the held hook is gone within 1 s, having decided nothing`, async () => {
      let keyAt = 0;
      const gone = (rig: Rig) =>
        call(async () => {
          const end = Date.now() + 5000;
          while (rig.pending.size > 0 || answeringHooks(rig.script).length > 0) {
            if (Date.now() > end)
              return `still held 5 s after the key: ${rig.pending.size} request(s), hooks ${answeringHooks(rig.script).join(' ')}`;
            await new Promise((res) => setTimeout(res, 20));
          }
          const ms = Date.now() - keyAt;
          console.log(`      ${how}: the held hook was gone ${ms} ms after the key`);
          return ms <= 1000 ? undefined : `the hook went ${ms} ms after the key`;
        }, 'hook gone');
      const esc = how === 'Esc';
      await play(
        esc ? 'terminal-esc' : 'terminal-yes',
        (rig) =>
          scenario(
            esc ? 'terminal-esc' : 'terminal-yes',
            [
              call(async () => {
                await offered(rig);
                keyAt = Date.now();
              }, 'offered'),
              esc ? key('esc', 'terminal answer') : enter('terminal answer'),
              gone(rig),
              esc ? waitText(CLAUDE.stopped, 15_000, 'interrupted') : waitText(CLAUDE.completed, 30_000, 'turn finished'),
            ],
            [tool, done],
          ),
        (_rig, out, cast) => {
          assert.doesNotMatch(cast, /by PermissionRequest hook/, 'the hook decided nothing');
          const results = toolResults(out);
          if (esc) assert.strictEqual(results.length, 0, 'Esc interrupts: no tool result');
          else assert.strictEqual(results[0]?.is_error, false, 'Yes in the terminal ran the tool');
        },
      );
    });
  }
});
