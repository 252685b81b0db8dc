import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Boards } from '../../../src/handoff/boards';
import { renderBrief } from '../../../src/handoff/brief';
import { Dispatcher } from '../../../src/handoff/dispatch';
import { HandoffBlockScanner } from '../../../src/handoff/fenced';
import { HandoffPaths, nextTaskId } from '../../../src/handoff/paths';
import { HandoffService } from '../../../src/handoff/service';
import type { DeliveryTarget } from '../../../src/handoff/steps';
import { findProcess, isProcess } from '../../../src/handoff/targets';
import { parseTeam, TeamError, TeamRegistry } from '../../../src/handoff/team/registry';
import type { TeamAgent } from '../../../src/handoff/team/schema';
import { Hub } from '../../../src/hub/hub';
import { type ContractHost, doorbellContract } from '../handoffContract';
import { SILENT } from '../../../src/common/log';

const TEAM = `# my team
[worker]
mode = "embedded"
process = "worker"

[site]
mode = "web"
`;

/** A terminal that records what it was sent (the real ones are the e2e and tmux tests'). */
function recorder(): { typed: string[]; finder: { find(a: TeamAgent): Promise<DeliveryTarget> } } {
  const typed: string[] = [];
  return {
    typed,
    finder: {
      find: async () => ({
        pid: 4242,
        title: 'worker terminal',
        id: 'term-1',
        activate: async () => undefined,
        write: async (d) => void typed.push(d),
      }),
    },
  };
}

async function start(root: string, finder = recorder()) {
  const hub = new Hub({ bodyLimit: 256 * 1024 });
  const service = new HandoffService({
    root,
    teamFile: path.join(root, 'team.toml'),
    hub,
    hubFile: path.join(root, 'hub.json'),
    hubEnv: 'AGENT_LENS_HUB',
    cli: '/opt/agent-lens',
    finder: finder.finder,
    log: SILENT,
    sleep: async () => undefined,
  });
  service.start();
  await hub.listen();
  return { hub, service, finder };
}

describe('handoff doorbell (seed 002 §7.2) on the extension hub', () => {
  let tmp: string;
  let run: Awaited<ReturnType<typeof start>>;
  let host: ContractHost;
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-handoff-'));
    fs.writeFileSync(path.join(tmp, 'team.toml'), TEAM);
    run = await start(tmp);
    host = {
      get port() {
        return run.hub.port;
      },
      get token() {
        return run.hub.token;
      },
      root: tmp,
      agent: 'worker',
      restart: async () => {
        run.service.dispose();
        await run.hub.close();
        run = await start(tmp);
        return { port: run.hub.port, token: run.hub.token };
      },
      typed: async () => run.finder.typed.join(''),
    };
  });
  after(async () => {
    run.service.dispose();
    await run.hub.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  doorbellContract(() => host);
});

describe('dispatch', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-dispatch-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  function dispatcher(agents: TeamAgent[], finder = recorder()) {
    const paths = new HandoffPaths(tmp);
    const boards = new Boards(paths);
    const d = new Dispatcher({
      agent: (k) => agents.find((a) => a.key === k),
      boards,
      paths,
      facts: () => ({ port: 1234, hubEnv: 'AGENT_LENS_HUB', hubFile: '/h.json', cli: '/bin/agent-lens' }),
      finder: finder.finder,
      sleep: async () => undefined,
    });
    return { d, boards, paths, typed: finder.typed };
  }
  const agent = (steps: TeamAgent['dispatch_steps'], extra: Partial<TeamAgent> = {}): TeamAgent => ({
    key: 'w',
    mode: 'embedded',
    dispatch_steps: steps,
    ...extra,
  });

  it('refuses unknown or empty placeholders and multi-line messages before anything is typed', async () => {
    for (const [steps, message, want] of [
      [[{ tool: 'terminal_input', with: { text: '{hwnd_typo}' } }], undefined, /unknown placeholder \{hwnd_typo\}/],
      [[{ tool: 'terminal_input', with: { text: 'pid {pid}' } }], undefined, /\{pid\} has no value/],
      [[{ tool: 'terminal_input', with: { text: '{message}' } }], 'line one\nline two', /one line/],
      [[{ tool: 'terminal_input', with: { text: '{message}' } }], 'esc \x1b[2J', /one line/],
      [[{ tool: 'open_browser', with: {} }], undefined, /unknown tool/],
      [[{ tool: 'terminal_input', with: { mode: 'hotkey', keys: ['f13'] } }], undefined, /unknown key/],
      [
        [
          { tool: '__sleep', with: { ms: -1 } },
          { tool: 'terminal_input', with: { text: 'x' } },
        ],
        undefined,
        /__sleep/,
      ],
    ] as const) {
      const finder = recorder();
      finder.finder.find = async () => ({
        title: 'no pid',
        id: 'term-1',
        activate: async () => undefined,
        write: async (d) => void finder.typed.push(d),
      });
      const { d, boards } = dispatcher([agent(steps as never)], finder);
      const r = await d.dispatch({ agent: 'w', taskId: 't1', brief: 'b', message });
      assert.strictEqual(r.delivered, false);
      assert.match(r.error ?? '', want);
      assert.deepStrictEqual(finder.typed, [], 'nothing typed');
      assert.strictEqual(boards.get('w').state, 'error');
      assert.strictEqual(boards.get('w').error_point, 'delivery_failed');
    }
  });

  it('types the message and presses Enter as separate writes, with the seed’s aliases and {hwnd}/{title}/{pid} resolved', async () => {
    const slept: number[] = [];
    const { d, typed } = dispatcher([
      agent([
        { tool: 'desktop_window_activate', with: { hwnd: '{hwnd}' } },
        { tool: 'desktop_input', with: { hwnd: '{hwnd}', mode: 'type', text: '{message} ({title}, {pid})', send: 'none' } },
        { tool: 'desktop_input', with: { hwnd: '{hwnd}', mode: 'hotkey', keys: ['enter'] } },
      ]),
    ]);
    (d as unknown as { d: { sleep: (ms: number) => Promise<void> } }).d.sleep = async (ms) => void slept.push(ms);
    const r = await d.dispatch({ agent: 'w', taskId: '0102-01', brief: 'b' });
    assert.strictEqual(r.delivered, true, r.error);
    assert.deepStrictEqual(typed, [
      `Read ${path.join(tmp, 'w', 'briefs', '0102-01-brief.md')} and execute it. (worker terminal, 4242)`,
      '\r',
    ]);
    assert.deepStrictEqual(slept, [1000], 'Enter waits a second after the text (a TUI takes a burst as a paste)');
  });

  it('names the failure point: not registered, not drivable, no terminal, step failure', async () => {
    const failing = recorder();
    failing.finder.find = async () => {
      throw new Error('gone');
    };
    const { d, boards } = dispatcher([agent([]), { key: 'web', mode: 'web', dispatch_steps: [] }], failing);
    assert.match((await d.dispatch({ agent: 'nobody', taskId: 't', brief: 'b' })).error!, /^not registered: /);
    const web = await d.dispatch({ agent: 'web', taskId: 't', brief: 'b' });
    assert.deepStrictEqual([web.submitted, boards.get('web').error_point], [true, 'no_terminal']);
    assert.match(web.error!, /not drivable from VS Code/);
    const w = await d.dispatch({ agent: 'w', taskId: 't', brief: 'b' });
    assert.deepStrictEqual([w.submitted, w.delivered, boards.get('w').error_point], [true, false, 'capture_failed']);
    const status = JSON.parse(fs.readFileSync(path.join(tmp, 'w', 'status.json'), 'utf8'));
    assert.match(status.error_reason, /^process\/terminal capture failed: gone/);
  });

  it('creates the handoff folder: read.md (regenerated only while ours), memory.md, briefs/, reports/', async () => {
    const { d } = dispatcher([agent([], { description: 'Writes the docs.' })]);
    await d.dispatch({ agent: 'w', taskId: 't', brief: 'b' });
    for (const f of ['read.md', 'memory.md', 'status.json', 'briefs', 'reports', 'briefs/t-brief.md'])
      assert.ok(fs.existsSync(path.join(tmp, 'w', f)), f);
    assert.match(fs.readFileSync(path.join(tmp, 'w', 'read.md'), 'utf8'), /Writes the docs\.[\s\S]*w::handshake/);
    fs.writeFileSync(path.join(tmp, 'w', 'read.md'), 'my own protocol');
    await d.dispatch({ agent: 'w', taskId: 't', brief: 'b' });
    assert.strictEqual(fs.readFileSync(path.join(tmp, 'w', 'read.md'), 'utf8'), 'my own protocol');
  });

  it('the handshake sends the read-protocol line; its progress event makes the board ready', async () => {
    const { d, boards, typed } = dispatcher([agent([])]);
    const r = await d.handshake('w');
    assert.strictEqual(r.delivered, true, r.error);
    assert.strictEqual(typed[0], `Read ${path.join(tmp, 'w', 'read.md')} and report your understanding via the doorbell.`);
    boards.receive(
      { id: 'w::handshake', status: 'progress', summary: 'I report with agent-lens task report', report_path: null },
      'doorbell',
    );
    assert.strictEqual(boards.get('w').state, 'ready');
  });
});

describe('the registry file, live', () => {
  it('refuses __proto__, constructor and prototype as keys in a step’s with table, naming the line', () => {
    assert.throws(
      () => parseTeam('[a]\nmode = "embedded"\n[[a.dispatch_steps]]\ntool = "x"\nwith = { __proto__ = 1 }\n', 'team.toml'),
      (e: TeamError) => e instanceof TeamError && /__proto__/.test(e.message) && e.line !== undefined,
    );
  });

  it('picks up a team.toml whose folder is created after the watch began', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-team-later-'));
    const file = path.join(tmp, '.agent-lens', 'team.toml');
    let changed!: () => void;
    const seen = new Promise<void>((resolve) => (changed = resolve));
    const reg = new TeamRegistry(file);
    reg.onDidChange(() => changed());
    assert.strictEqual(reg.load(), undefined, 'a missing file is an empty registry');
    const w = reg.watch();
    try {
      fs.mkdirSync(path.dirname(file));
      fs.writeFileSync(file, '[late]\nmode = "embedded"\n');
      await seen;
      assert.deepStrictEqual(
        reg.agents().map((a) => a.key),
        ['late'],
      );
    } finally {
      w.dispose();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('briefs, names and terminals', () => {
  it('the brief has the seed’s sections and the generated contract, with no token in it', () => {
    const facts = {
      agent: 'w',
      taskId: '0102-01',
      port: 5555,
      hubEnv: 'AGENT_LENS_HUB',
      hubFile: '/home/u/.agent-lens/hubs/x.json',
      cli: '/home/u/.agent-lens/bin/agent-lens',
      briefPath: '/r/w/briefs/0102-01-brief.md',
      reportPath: '/r/w/reports/0102-01-report.md',
    };
    const text = renderBrief({ agent: 'w', taskId: '0102-01', task: 'Fix the bug.' }, facts, 'linux');
    for (const s of [
      '## Task and success criteria',
      'Fix the bug.',
      '## Context',
      '## Quality bar',
      '## Anti-patterns',
      '## Ambiguity',
      '✅',
      '📄',
      '🔍',
      '⚠️',
      'w::0102-01',
      'http://127.0.0.1:5555/handoff',
      'X-Handoff-Token',
      '$AGENT_LENS_HUB',
      "'/home/u/.agent-lens/bin/agent-lens' task report --id 'w::0102-01'",
      '/r/w/reports/0102-01-report.md',
      '/r/w/briefs/0102-01-brief.md',
    ])
      assert.ok(text.includes(s), s);
  });

  it('default task ids are MMDD-NN, the next free number', () => {
    assert.strictEqual(nextTaskId(new Date(2026, 11, 3), []), '1203-01');
    assert.strictEqual(nextTaskId(new Date(2026, 0, 9), ['0109-01', '0109-02']), '0109-03');
  });

  it('finds the agent process at most four levels below the shell, by name or by the script it runs', () => {
    const procs = [
      { pid: 11, ppid: 10, name: 'bash', args: ['bash'] },
      { pid: 12, ppid: 11, name: 'node', args: ['node', '/usr/lib/node_modules/claude/cli.js'] },
      { pid: 13, ppid: 10, name: 'bash', args: ['bash', '/work/agents/worker.sh'] },
      { pid: 21, ppid: 10, name: 'a', args: ['a'] },
      { pid: 22, ppid: 21, name: 'b', args: ['b'] },
      { pid: 23, ppid: 22, name: 'c', args: ['c'] },
      { pid: 24, ppid: 23, name: 'd', args: ['d'] },
      { pid: 25, ppid: 24, name: 'deep', args: ['deep'] },
    ];
    assert.strictEqual(findProcess(procs, 10, 'worker')?.pid, 13);
    assert.strictEqual(findProcess(procs, 10, 'd')?.pid, 24);
    assert.strictEqual(findProcess(procs, 10, 'deep'), undefined, 'five levels down is too deep');
    assert.ok(isProcess({ pid: 1, ppid: 0, name: 'claude', args: [] }, 'claude'));
    assert.ok(!isProcess({ pid: 1, ppid: 0, name: 'bash', args: ['bash', '-c', 'worker'] }, 'worker'));
  });

  it('reads a ```handoff block printed in a terminal once, through escape sequences, and ignores examples that are not JSON', () => {
    const s = new HandoffBlockScanner();
    assert.deepStrictEqual(s.feed('\x1b[32mnoise\x1b[0m\r\n```handoff\r\n{"id":"w::t","status":"blocked",'), []);
    assert.deepStrictEqual(s.feed('"summary":"need a key"}\r\n```\r\n'), [{ id: 'w::t', status: 'blocked', summary: 'need a key' }]);
    assert.deepStrictEqual(s.feed('```handoff\n{"id":"w::t","status":"blocked","summary":"need a key"}\n```\n'), [], 'a redraw rings once');
    assert.deepStrictEqual(s.feed('```handoff\n{"id":"w::t","status":"<done or blocked>",…}\n```\n'), []);
    assert.deepStrictEqual(s.feed('x'.repeat(100_000)), []);
  });
});
