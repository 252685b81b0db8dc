import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { main } from '../../../src/cli/cli';
import { handoffCommand } from '../../../src/cli/cliHandoff';
import { BOARDS_PATH } from '../../../src/handoff/doorbell';
import { writeDiscovery } from '../../../src/hub/discovery';
import { Hub } from '../../../src/hub/hub';
import { mountUsage } from '../../../src/usage/route';
import type { UsageFigures } from '../../../src/usage/figures';
import { FIXTURES, NASTY, RAW_CONTROL } from '../helpers';
import { mockUsage } from '../usage/geminiQwenLogs';

/** The recordings made with a mock that logs what it served, and each agent's session log in them. */
const LOGS: Record<string, string> = {
  'claude-code': 'transcript.jsonl',
  codex: 'rollout.jsonl',
  gemini: 'gemini-session.jsonl',
  qwen: 'qwen-session.jsonl',
  opencode: 'storage.json',
  kilocode: 'kilo-storage.json',
  copilot: 'copilot-events.jsonl',
  // droid's session log carries no tokens (they go to a settings file beside it, which Agent Lens does not read).
};

function usageRecordings(): { agent: string; dir: string; log: string }[] {
  return Object.entries(LOGS).flatMap(([agent, file]) => {
    const dir = path.join(FIXTURES, 'live', agent, '40-usage-two-turns');
    return fs.existsSync(path.join(dir, file)) ? [{ agent, dir, log: path.join(dir, file) }] : [];
  });
}

function run(argv: string[]): { code: number; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const code = main(
    argv,
    (s) => out.push(s),
    (s) => err.push(s),
  ) as number;
  return { code, out, err };
}

describe('agent-lens replay --log … --usage: what each session spent, from the real CLIs’ logs', () => {
  const recs = usageRecordings();

  it('has recordings of at least four agents to check', () => {
    assert.ok(recs.length >= 4, recs.map((r) => r.agent).join(', '));
  });

  for (const r of recs)
    it(`${r.agent}: one JSON object for its session, the tokens the mock served, two turns`, () => {
      const res = run(['replay', '--log', r.log, '--usage']);
      assert.strictEqual(res.code, 0, res.err.join('\n'));
      assert.strictEqual(res.out.length, 1, res.out.join('\n'));
      const j = JSON.parse(res.out[0]) as Record<string, unknown> & { tokens: Record<string, number> };
      assert.deepStrictEqual(Object.keys(j), [
        'session',
        'agent',
        'model',
        'turns',
        'tokens',
        'contextUsed',
        'contextWindow',
        'cost',
        'costSource',
        'pricesChecked',
        'partial',
      ]);
      assert.strictEqual(j.agent, r.agent);
      assert.strictEqual(j.turns, 2);
      const served = mockUsage(r.dir)!;
      assert.ok(served, 'the mock logged what it served');
      // The mock serves no cache: every prompt token it counted is input, cache reads or writes in the log.
      assert.strictEqual(j.tokens.input + j.tokens.cacheRead + j.tokens.cacheWrite, served.input);
      assert.strictEqual(j.tokens.output, served.output);
      assert.ok(typeof j.contextUsed === 'number' && j.contextUsed > 0);
      assert.ok(j.costSource === null || typeof j.cost === 'number');
    });

  it('reads several logs at once, a session a line, and refuses what it cannot use', () => {
    const res = run(['replay', '--usage', ...recs.flatMap((r) => ['--log', r.log])]);
    assert.strictEqual(res.out.length, recs.length);
    assert.deepStrictEqual(run(['replay', '--usage']).err, [
      'agent-lens: --usage needs the session logs to read: --log FILE [--log FILE …]',
    ]);
    assert.strictEqual(run(['replay', 'x.cast', '--usage', '--log', recs[0].log]).code, 2);
    const bad = run(['replay', '--usage', '--log', path.join(FIXTURES, 'live', 'SHORTFALLS.json')]);
    assert.strictEqual(bad.code, 2);
    assert.match(bad.err[0], /not a Claude Code transcript/);
  });
});

describe('agent-lens status: each session’s usage from the window’s hub, escaped', () => {
  let tmp: string;
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-usage-status-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('prints a line per session and carries the same figures in --json', async () => {
    const hub = new Hub({ bodyLimit: 64 * 1024 });
    hub.mount(BOARDS_PATH, () => ({ boards: [], ungrouped: [] }), { method: 'GET' });
    const f: UsageFigures & { terminal?: { id: string; name: string } } = {
      agent: 'codex',
      session: `S${NASTY}`,
      model: `gpt${NASTY}`,
      turns: 3,
      tokens: { input: 100, output: 20, cacheRead: 5, cacheWrite: 0 },
      contextUsed: 900,
      contextWindow: 1000,
      contextFill: 0.9,
      cost: 0.1234567,
      costSource: 'estimated',
      pricesChecked: '2026-12-06',
      turnTokens: [],
      turnMs: [],
      lastReply: 'secret reply',
      partial: false,
      updatedAt: 0,
      terminal: { id: 't1', name: `api${NASTY}` },
    };
    mountUsage(hub, () => [f]);
    const port = await hub.listen();
    const file = path.join(tmp, 'hub.json');
    writeDiscovery(file, { v: 1, port, token: hub.token, pid: process.pid });
    const before = process.env.AGENT_LENS_HUB;
    process.env.AGENT_LENS_HUB = file;
    try {
      const text: string[] = [];
      assert.strictEqual(await handoffCommand('status', [], (s) => text.push(s), assert.fail), 0);
      assert.strictEqual(text.length, 2, text.join('\n'));
      for (const field of text[0].split('\t')) assert.doesNotMatch(field, RAW_CONTROL);
      assert.match(text[0], /\tcontext 90%\t125 tokens\t\$0\.12 \(estimated\)$/);
      const json: string[] = [];
      await handoffCommand('status', ['--json'], (s) => json.push(s), assert.fail);
      const s = JSON.parse(json[0]).sessions[0];
      assert.strictEqual(s.model, `gpt${NASTY}`);
      assert.strictEqual(s.cost, 0.123457);
      assert.deepStrictEqual(s.terminal, { id: 't1', name: `api${NASTY}` });
      assert.ok(!json[0].includes('secret reply'), 'the last reply is for the views, not for every holder of the token');
    } finally {
      if (before === undefined) delete process.env.AGENT_LENS_HUB;
      else process.env.AGENT_LENS_HUB = before;
      await hub.close();
    }
  });
});
