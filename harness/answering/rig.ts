import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runScenario } from '../driver';
import type { Scenario } from '../scenario';
import type { AgentHome } from '../homes';
import { type HookedAgent, installOurHooks } from './installOurHooks';
import { AGENT_COMMAND } from '../commandLine';
import { answeringScript, installReporter } from '../../src/integrations/reporter/reporterFiles';
import { REPORT_BODY_LIMIT, REPORT_PATH } from '../../src/hooks/wire';
import { writeDiscovery } from '../../src/hub/discovery';
import { Hub } from '../../src/hub/hub';
import { AgentCensus } from '../../src/sources/process/agentCensus';
import { realScheduler } from '../../src/common/scheduler';
import { HookSource } from '../../src/sources/hooks/hookSource';
import { TerminalSession } from '../../src/sources/terminal/session';
import { AgentStore } from '../../src/store/store';
import { mountHold } from '../../src/answer/holdRoute';
import { PendingAnswers, type PendingRequest } from '../../src/answer/pending';
import { provenanceFor } from '../../src/answer/provenance';
import { SILENT } from '../../src/common/log';
import { repoRoot } from '../repoRoot';

/**
 * A real agent CLI in a PTY with our hooks or plugin installed by our installer, reporting to a real hub that holds
 * its dialogs (mountHold, with the window's provenance check), fused with the screen of the same PTY: what the
 * live answering tests run on. The answer goes in through the same calls the Needs-you row's buttons make.
 */
function root(): string {
  const r = repoRoot();
  if (!r) throw new Error('the built reporter (dist/agent-lens-report.js) is not found: run node esbuild.mjs first');
  return r;
}

export interface Rig {
  pending: PendingAnswers;
  store: AgentStore;
  script: string;
  /** The terminal's screen as the detector has it, row by row. */
  screen(): string[];
  /** When the last answer was sent (epoch ms). */
  sentAt?: number;
}

/** Waits for the dialog to be offered on its row, as the row's buttons would be. */
export async function offered(rig: Rig, kind: 'permission' | 'question' = 'permission'): Promise<PendingRequest> {
  return until(() => {
    const w = rig.store.waits().find((x) => x.kind === kind);
    return w && rig.pending.offered(w.id);
  });
}

/** Polls until `probe` gives a value (15 s at most). */
export async function until<T>(probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`nothing after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** The answering hook processes still running (their command line names the installed script). */
export function answeringHooks(script: string): number[] {
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

interface MockRequest {
  kind?: string;
  wall?: string;
  body?: { messages?: { role?: string; content?: unknown }[] };
}

type ToolResult = { type?: string; is_error?: boolean; content?: unknown };

/** The model requests the mock served (its own log), each with when it came. */
function agentRequests(out: string): (MockRequest & { at: number })[] {
  return fs
    .readFileSync(path.join(out, 'mock-requests.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as MockRequest)
    .filter((r) => r.kind === 'agent')
    .map((r) => ({ ...r, at: Date.parse(r.wall ?? '') }));
}

/** How long after the answer was sent the agent moved on: its next request to the model (undefined: none came). */
export function movedOnMs(out: string, sentAt: number): number | undefined {
  const next = agentRequests(out).find((r) => r.at >= sentAt);
  return next && next.at - sentAt;
}

/** The tool results an Anthropic mock received (Claude Code), each with when its request came. */
export function toolResults(out: string): (ToolResult & { at: number })[] {
  return agentRequests(out).flatMap((r) => {
    const last = r.body?.messages?.at(-1);
    const parts = last?.role === 'user' && Array.isArray(last.content) ? (last.content as ToolResult[]) : [];
    return parts.filter((c) => c.type === 'tool_result').map((c) => ({ ...c, at: r.at }));
  });
}

/** Every tool result an Anthropic mock was ever sent, in any message of any request (a subagent's too), once each. */
export function everyToolResult(out: string): (ToolResult & { tool_use_id?: string })[] {
  const seen = new Map<string, ToolResult & { tool_use_id?: string }>();
  for (const r of agentRequests(out))
    for (const m of r.body?.messages ?? [])
      for (const c of Array.isArray(m.content) ? (m.content as (ToolResult & { tool_use_id?: string })[]) : [])
        if (c.type === 'tool_result' && c.tool_use_id && !seen.has(c.tool_use_id)) seen.set(c.tool_use_id, c);
  return [...seen.values()];
}

/** The tool results an OpenAI-chat mock received (OpenCode): each `tool` message, with when its request came. */
export function chatToolResults(out: string): { content: string; at: number }[] {
  return agentRequests(out).flatMap((r) => {
    const last = r.body?.messages?.at(-1);
    return last?.role === 'tool' ? [{ content: String(last.content), at: r.at }] : [];
  });
}

/**
 * A real hub on 127.0.0.1 as the window runs it for answering: hook reports into `store`, dialogs held (answering
 * on) and offered through PendingAnswers, its address written where the installed hooks look (`<home>/hubs`).
 */
export async function answeringHub(
  home: string,
  store: AgentStore,
  terminalFor: (pids: readonly number[]) => string | undefined,
  provenance: Parameters<typeof mountHold>[1]['provenance'],
): Promise<{ pending: PendingAnswers; hub: Hub; discovery: string }> {
  const hooks = new HookSource(store, { terminalFor });
  const pending = new PendingAnswers();
  const hub = new Hub({ bodyLimit: REPORT_BODY_LIMIT });
  hub.mount(REPORT_PATH, hooks.handle);
  mountHold(hub, { hooks, waits: store, pending, enabled: () => true, provenance, log: SILENT });
  const discovery = path.join(home, 'hubs', 'answering.json');
  writeDiscovery(discovery, { v: 1, port: await hub.listen(), token: hub.token, pid: process.pid });
  return { pending, hub, discovery };
}

/**
 * The agents the rig runs: those with our hooks or plugin whose dialogs VS Code answers, and pi (no hooks: extensions
 * it is given, if any). Not droid: its dialog marks the selected option by brightness alone (no number, no cursor
 * glyph), so VS Code has nothing on screen to answer it by. Not Copilot CLI: its descriptor has no dialog keys.
 */
export type RigAgent = Exclude<HookedAgent, 'droid' | 'copilot'> | 'pi';

export async function play(
  agent: RigAgent,
  name: string,
  make: (rig: Rig) => Scenario,
  check: (rig: Rig, out: string, screen: string) => void | Promise<void>,
  o: { home?: (h: AgentHome) => void; ourHooks?: boolean } = {},
): Promise<void> {
  const alHome = fs.mkdtempSync(path.join(os.tmpdir(), 'al-live-answer-'));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), `al-live-answer-${agent}-${name}-`));
  const census = new AgentCensus();
  const store = new AgentStore({ agentsInFolder: (agent, cwd) => census.count(agent, cwd) });
  let spawned = -1;
  const reporter = installReporter(alHome, path.join(root(), 'dist/agent-lens-report.js'), { path: process.execPath, electron: false });
  const session = new TerminalSession('T', (o) => store.observe(o), realScheduler, { cols: 120, rows: 35 });
  const script = answeringScript(alHome);
  const { pending, hub, discovery } = await answeringHub(
    alHome,
    store,
    (pids) => (pids.includes(spawned) ? 'T' : undefined),
    provenanceFor(script),
  );
  const rig: Rig = { pending, store, script, screen: () => session.screenText().split('\n') };
  const sc = make(rig);
  store.openTerminal('T', agent);
  session.startExecution(AGENT_COMMAND[agent], true);
  try {
    const res = await runScenario({
      scenario: sc,
      outDir: out,
      force: true,
      onHome: (h) => {
        h.env.AGENT_LENS_HUB = discovery;
        if (agent !== 'pi' && o.ourHooks !== false) installOurHooks(agent, h, reporter, path.join(root(), 'dist/opencode-plugin.js'));
        o.home?.(h);
      },
      onSpawn: (pid) => (spawned = pid),
      onOutput: (data) => session.write(data),
      onExit: (code) => session.endExecution(code),
    });
    assert.deepStrictEqual(res.problems, [], `scenario problems (recording in ${out})`);
    await check(rig, out, fs.readFileSync(path.join(out, 'final-screen.txt'), 'utf8'));
    assert.strictEqual(pending.size, 0, 'no request is left held');
  } finally {
    session.dispose();
    pending.dispose();
    await hub.close();
    fs.rmSync(alHome, { recursive: true, force: true });
  }
  fs.rmSync(out, { recursive: true, force: true });
}
