import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { defaultLogLocations, JsonlLogSource, mergeLocations, tailRoots } from '../../../../src/sources/logs/logSources';
import type { Observation } from '../../../../src/store/observation';
import { AgentStore } from '../../../../src/store/store';
import { FIXTURES } from '../../helpers';
import { logTo } from '../../../../src/common/log';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => T | undefined | false, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** A real Claude transcript and a real Codex rollout, written line by line as the CLIs do, through the real tailer. */
describe('session-log source (real files, real watcher)', function () {
  this.timeout(30_000);
  let root: string;
  let source: JsonlLogSource | undefined;
  const warnings: string[] = [];
  const seen: Observation[] = [];

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'al-logs-'));
    warnings.length = 0;
    seen.length = 0;
  });
  afterEach(async () => {
    await source?.dispose();
    source = undefined;
    fs.rmSync(root, { recursive: true, force: true });
  });

  const start = async () => {
    source = new JsonlLogSource({
      locations: { 'claude-code': [path.join(root, 'claude')], codex: [path.join(root, 'codex')] },
      sink: (o) => seen.push(o),
      log: logTo((level, msg) => void (level === 'warn' && warnings.push(msg))),
    });
    await source.start();
  };

  it('follows a Claude transcript as it grows, from a folder that appears later, to completed', async () => {
    await start();
    const lines = fs
      .readFileSync(path.join(FIXTURES, 'live/claude-code/02-plain-answer/transcript.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean);
    const dir = path.join(root, 'claude', 'projects', '-tmp-demo-app');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, '2a56cb61-8198-4c2e-bb7f-b19fddfe48b9.jsonl');
    const half = Math.floor(lines.length / 2);
    fs.writeFileSync(file, lines.slice(0, half).join('\n') + '\n');
    await until('working from the prompt', () => seen.some((o) => o.state === 'working'));
    // The rest arrives with a partial last line that completes later.
    const rest = lines.slice(half).join('\n') + '\n';
    fs.appendFileSync(file, rest.slice(0, rest.length - 40));
    await sleep(150);
    fs.appendFileSync(file, rest.slice(rest.length - 40));
    const done = await until('completed', () => seen.find((o) => o.state === 'completed'));
    assert.strictEqual(done.source, 'jsonl-watcher');
    assert.strictEqual(done.locator.logPath, file);
    assert.ok(done.locator.sessionId && done.locator.cwd, JSON.stringify(done.locator));
  });

  it('a garbage line is counted and logged once per kind, and the watcher goes on', async () => {
    await start();
    const dir = path.join(root, 'codex', 'sessions', '2026', '12', '03');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'rollout-2026-12-03T10-00-00-x.jsonl');
    const rollout = fs.readFileSync(path.join(FIXTURES, 'live/codex/08-esc-interrupt/rollout.jsonl'), 'utf8').split('\n').filter(Boolean);
    fs.writeFileSync(file, `${rollout[0]}\n{not json\n{also not json\n`);
    await until('a warning', () => warnings.length > 0);
    fs.appendFileSync(file, rollout.slice(1).join('\n') + '\n');
    const failed = await until('failed · interrupted', () => seen.find((o) => o.state === 'failed'));
    assert.strictEqual(failed.reason, 'interrupted');
    assert.strictEqual(warnings.length, 1, warnings.join('\n'));
    assert.ok(source!.stats().problems >= 2);
  });

  it('a truncated file starts its decoder afresh', async () => {
    await start();
    const dir = path.join(root, 'codex', 'sessions', '2026', '12', '03');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'rollout-2026-12-03T11-00-00-y.jsonl');
    const rollout = fs.readFileSync(path.join(FIXTURES, 'live/codex/02-plain-answer/rollout.jsonl'), 'utf8');
    fs.writeFileSync(file, rollout);
    await until('completed', () => seen.some((o) => o.state === 'completed'));
    const n = seen.length;
    fs.writeFileSync(file, rollout.split('\n')[0] + '\n');
    // A truncation shows as a file shorter than what was read; the tailer must look before it grows back.
    await source!.flush();
    fs.appendFileSync(file, rollout.split('\n').slice(1).join('\n'));
    await until('the same turn again after the reset', () => seen.length > n && seen.slice(n).some((o) => o.state === 'completed'));
  });

  it('a Gemini chat log: replies are held until the hook says the turn ended, and the file is read before they are told', async () => {
    source = new JsonlLogSource({ locations: { gemini: [path.join(root, 'gemini')] }, sink: (o) => seen.push(o) });
    await source.start();
    const lines = fs
      .readFileSync(path.join(FIXTURES, 'live/gemini/04-shell-approve/gemini-session.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean);
    const sessionId = (JSON.parse(lines[0]) as { sessionId: string }).sessionId;
    const dir = path.join(root, 'gemini', 'tmp', 'demo-app', 'chats');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'session-2026-12-03T22-20-4a1f95f9.jsonl');
    // Up to the reply written before its tool call (the approval dialog is open then).
    const beforeTool = lines.findIndex((l) => l.includes('"type":"gemini"')) + 1;
    fs.writeFileSync(file, lines.slice(0, beforeTool).join('\n') + '\n');
    await until('the prompt', () => seen.some((o) => o.state === 'working' && o.prompt));
    await source.flush();
    assert.ok(!seen.some((o) => o.state === 'completed'), 'a reply is no turn end by itself');
    // A turn-end report for another session, or naming a file the source does not follow, tells nothing.
    await source.turnEnded('gemini', 'another-session', path.join(root, 'elsewhere.jsonl'));
    assert.ok(!seen.some((o) => o.state === 'completed'));
    // The rest as Gemini appends it, then AfterAgent at once: read first, then told (no waiting for the watcher).
    fs.appendFileSync(file, lines.slice(beforeTool).join('\n') + '\n');
    await source.turnEnded('gemini', sessionId, file, 'unverified');
    const done = seen.filter((o) => o.state === 'completed');
    assert.strictEqual(done.length, 1, JSON.stringify(seen));
    assert.deepStrictEqual(
      [done[0].source, done[0].provenance, done[0].locator.sessionId, done[0].locator.logPath],
      ['jsonl-watcher', 'unverified', sessionId, file],
    );
    assert.strictEqual(
      done[0].at,
      Date.parse((JSON.parse(lines.filter((l) => l.includes('"type":"gemini"')).at(-1)!) as { timestamp: string }).timestamp),
    );
    await source.turnEnded('gemini', sessionId, file);
    assert.strictEqual(seen.filter((o) => o.state === 'completed').length, 1, 'told once');
  });

  it('feeds the store: a log seen before its terminal is linked when the screen sees the same turn start', async () => {
    const store = new AgentStore();
    source = new JsonlLogSource({
      locations: { 'claude-code': [path.join(root, 'claude')], codex: [] },
      sink: (o) => store.observe(o),
    });
    await source.start();
    const text = fs.readFileSync(path.join(FIXTURES, 'live/claude-code/02-plain-answer/transcript.jsonl'), 'utf8');
    const first = JSON.parse(text.split('\n').find((l) => l.includes('"type":"user"'))!) as { timestamp: string; cwd: string };
    store.openTerminal('A', 'claude');
    store.observe({
      source: 'pty-scrape',
      at: Date.parse(first.timestamp) - 4000,
      agent: 'claude-code',
      state: 'idle',
      evidence: 'x',
      locator: { terminalId: 'A', cwd: first.cwd },
    });
    store.observe({
      source: 'pty-scrape',
      at: Date.parse(first.timestamp) + 200,
      agent: 'claude-code',
      state: 'working',
      evidence: 'x',
      locator: { terminalId: 'A', cwd: first.cwd },
    });
    const dir = path.join(root, 'claude', 'projects', 'p');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 's.jsonl'), text);
    const t = await until('completed in the terminal', () =>
      store.terminal('A')?.state === 'completed' ? store.terminal('A') : undefined,
    );
    assert.strictEqual(t!.source, 'jsonl-watcher');
  });

  it('defaults follow the CLIs’ own variables', () => {
    assert.deepStrictEqual(
      defaultLogLocations(
        {
          CLAUDE_CONFIG_DIR: '/c',
          CODEX_HOME: '/x',
          OPENCODE_DB: '/o.db',
          GEMINI_CLI_HOME: '/g',
          QWEN_HOME: '/q',
          KILO_DB: '/k.db',
          FACTORY_HOME_OVERRIDE: '/f',
          COPILOT_HOME: '/cp',
          CONTINUE_GLOBAL_DIR: '/cn',
        },
        '/h',
      ),
      {
        'claude-code': ['/c'],
        codex: ['/x'],
        opencode: ['/o.db'],
        gemini: ['/g/.gemini'],
        copilot: ['/cp'],
        qwen: ['/q'],
        kilocode: ['/k.db'],
        droid: ['/f/.factory'],
        'continue-cli': ['/cn'],
      },
    );
    assert.deepStrictEqual(defaultLogLocations({}, '/h'), {
      'claude-code': ['/h/.claude'],
      codex: ['/h/.codex'],
      opencode: ['/h/.local/share/opencode/opencode.db'],
      gemini: ['/h/.gemini'],
      copilot: ['/h/.copilot'],
      qwen: ['/h/.qwen'],
      kilocode: ['/h/.local/share/kilo/kilo.db'],
      droid: ['/h/.factory'],
      'continue-cli': ['/h/.continue'],
    });
    assert.deepStrictEqual(mergeLocations({ codex: ['/a', '/b'] }, { codex: ['/b', '/c'], opencode: ['/d'] }), {
      codex: ['/a', '/b', '/c'],
      opencode: ['/d'],
    });
    const [claude, codex, gemini] = tailRoots({
      'claude-code': ['/h/.claude'],
      codex: ['/h/.codex'],
      opencode: ['/h/o.db'],
      gemini: ['/h/.gemini'],
    });
    assert.ok(claude.match('/h/.claude/projects/-p/abc.jsonl'));
    assert.ok(!claude.match('/h/.claude/projects/-p/abc/subagents/agent-1.jsonl'), 'subagent transcripts are not sessions');
    assert.ok(codex.match('/h/.codex/sessions/2026/12/03/rollout-x.jsonl'));
    assert.ok(!codex.match('/h/.codex/sessions/2026/12/03/notes.jsonl'));
    assert.ok(gemini.match('/h/.gemini/tmp/demo-app/chats/session-2026-12-05T20-36-2bb2c54c.jsonl'));
    assert.ok(!gemini.match('/h/.gemini/tmp/demo-app/chats/2bb2c54c/3f0a.jsonl'), 'a subagent’s log is not a session');
    assert.ok(!gemini.match('/h/.gemini/tmp/demo-app/logs.json'));
  });
});
