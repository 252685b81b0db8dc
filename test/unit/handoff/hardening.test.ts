// Regression tests for the handoff gaps of the security review (SECURITY-GAPS.todo.md items 1, 5–9): each test
// failed before its fix.
import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { handoffCommand, jsonLine } from '../../../src/cli/cliHandoff';
import { Boards } from '../../../src/handoff/boards';
import { contract, renderBrief, renderReadMd } from '../../../src/handoff/brief';
import { DispatchFailure, Dispatcher } from '../../../src/handoff/dispatch';
import { BOARDS_PATH, ring } from '../../../src/handoff/doorbell';
import { HandoffPaths, PathError } from '../../../src/handoff/paths';
import { HandoffService } from '../../../src/handoff/service';
import { ESC_SETTLE_MS, ENTER_AFTER_TYPE_MS } from '../../../src/handoff/steps';
import type { DeliveryTarget } from '../../../src/handoff/steps';
import { parseTeam, TeamError } from '../../../src/handoff/team/registry';
import type { TeamAgent } from '../../../src/handoff/team/schema';
import { writeDiscovery } from '../../../src/hub/discovery';
import { Hub } from '../../../src/hub/hub';
import { ROOT } from '../helpers';
import { logTo, SILENT } from '../../../src/common/log';

/** Any C0, DEL or C1 character: none may be left raw in a log line, an error or terminal output. */
const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const FACTS = {
  port: 5555,
  hubEnv: 'AGENT_LENS_HUB',
  hubFile: '/home/u/.agent-lens/hubs/x.json',
  cli: '/home/u/.agent-lens/bin/agent-lens',
};

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-hardening-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function target(typed: string[]): DeliveryTarget {
  return { pid: 4242, title: 'worker terminal', id: 'term-1', activate: async () => undefined, write: async (d) => void typed.push(d) };
}

function dispatcher(
  agents: TeamAgent[],
  o: { find?: (a: TeamAgent) => Promise<DeliveryTarget>; sleep?: (ms: number) => Promise<void>; log?: string[] } = {},
) {
  const typed: string[] = [];
  const paths = new HandoffPaths(tmp);
  const boards = new Boards(paths);
  const d = new Dispatcher({
    agent: (k) => agents.find((a) => a.key === k),
    boards,
    paths,
    facts: () => FACTS,
    finder: { find: o.find ?? (async () => target(typed)) },
    sleep: o.sleep ?? (async () => undefined),
    log: logTo((_l, m) => void o.log?.push(m)),
  });
  return { d, boards, typed };
}

describe('security gap 1: the brief never puts the token in argv', () => {
  const facts = {
    ...FACTS,
    agent: 'w',
    taskId: '0102-01',
    briefPath: '/r/w/briefs/0102-01-brief.md',
    reportPath: '/r/w/reports/0102-01-report.md',
  };

  it('the curl example reads the token header from stdin (-H @-), never from a variable on the command line', () => {
    const texts = [
      renderBrief({ agent: 'w', taskId: '0102-01', task: 'Fix it.' }, facts),
      renderReadMd('w', undefined, { ...FACTS, agent: 'w', briefsDir: '/r/w/briefs', reportsDir: '/r/w/reports' }),
    ];
    for (const text of texts) {
      const curl = text.split('\n').filter((l) => /\bcurl\b/.test(l) && !l.startsWith('or with'));
      assert.strictEqual(curl.length, 1, text);
      // node's argv names the hub file; the token it reads from there only goes down the pipe.
      const [feed, argv] = curl[0].split(' | curl ');
      assert.match(feed, /^node -p "'X-Handoff-Token: ' \+ require\('\$H'\)\.token"$/);
      assert.match(argv, / -H @- /);
      assert.doesNotMatch(argv, /X-Handoff-Token/, 'the header is not spelled out on curl’s command line');
      assert.doesNotMatch(text, /TOKEN=|\$TOKEN|\$\{?TOKEN|X-Handoff-Token: \$/, 'no shell variable carries the token into an argv');
      assert.match(curl[0], /--noproxy '\*'/, 'a proxy from the environment never sees the token');
    }
  });

  it('the curl example, run as written, rings the doorbell', async function () {
    if (spawnSync('curl', ['--version']).status !== 0) this.skip();
    fs.writeFileSync(path.join(tmp, 'team.toml'), '[w]\nmode = "embedded"\n');
    const hub = new Hub({ bodyLimit: 64 * 1024 });
    const hubFile = path.join(tmp, 'hub.json');
    const service = new HandoffService({
      root: tmp,
      teamFile: path.join(tmp, 'team.toml'),
      hub,
      hubFile,
      hubEnv: 'AGENT_LENS_HUB',
      cli: '/bin/false',
      finder: { find: async () => target([]) },
      log: SILENT,
      sleep: async () => undefined,
    });
    service.start();
    try {
      const port = await hub.listen();
      writeDiscovery(hubFile, { v: 1, port, token: hub.token, pid: process.pid });
      const text = contract({ ...facts, port, hubFile, reportPath: path.join(tmp, 'w', 'reports', '0102-01-report.md') });
      const block = text.slice(text.indexOf('```sh', text.indexOf('or with curl')) + 6);
      const script = block.slice(0, block.indexOf('```'));
      const env = { PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`, AGENT_LENS_HUB: hubFile };
      const out = await new Promise<string>((resolve, reject) => {
        const c = spawn('bash', ['-c', script], { env });
        let s = '';
        c.stdout.on('data', (d) => (s += d));
        c.stderr.on('data', (d) => (s += d));
        c.on('error', reject);
        c.on('close', () => resolve(s));
      });
      assert.match(out, /"ok":true/, out);
      assert.strictEqual(service.boards.get('w').last_event?.summary, '…');
    } finally {
      service.dispose();
      await hub.close();
    }
  });
});

describe('security gap 5: report_path of an event that groups nowhere', () => {
  it('is dropped, whatever it names: no unchecked path reaches the ungrouped list', () => {
    const paths = new HandoffPaths(tmp);
    const boards = new Boards(paths);
    const routes = { boards, checkReportPath: (a: string, p: string) => paths.reportPathFor(a, p) };
    for (const [id, report] of [
      ['no-prefix', '../../etc/passwd'],
      ['no-prefix', '/etc/passwd'],
      ['../evil::t', '/etc/passwd'],
      ['a/b::t', '../outside.md'],
      ['::t', path.join(tmp, 'w', 'reports', 'x.md')],
    ]) {
      const r = ring(routes, { id, status: 'done', summary: 's', report_path: report });
      assert.strictEqual((r.body as { outcome: string }).outcome, 'ungrouped', id);
      assert.strictEqual(boards.ungrouped[boards.ungrouped.length - 1].report_path, null, `${id} ${report}`);
    }
  });
});

describe('security gap 6: reportPathFor resolves links and stays in reports/', () => {
  it('refuses a link inside the folder that points outside, a linked reports/ and a dangling link', () => {
    const paths = new HandoffPaths(path.join(tmp, 'root'));
    const reports = paths.reportsDir('w');
    const outside = path.join(tmp, 'outside');
    fs.mkdirSync(reports, { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.md'), 'x');
    fs.symlinkSync(outside, path.join(reports, 'dir-link'));
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(reports, 'file-link.md'));
    fs.symlinkSync(path.join(outside, 'missing.md'), path.join(reports, 'dangling.md'));
    for (const given of [
      'reports/dir-link/secret.md',
      'reports/dir-link/new.md',
      path.join(reports, 'file-link.md'),
      'reports/dangling.md',
    ]) {
      assert.throws(() => paths.reportPathFor('w', given), PathError, given);
    }
    // reports/ itself swapped for a link out.
    fs.rmSync(paths.reportsDir('v'), { recursive: true, force: true });
    fs.mkdirSync(paths.agentDir('v'), { recursive: true });
    fs.symlinkSync(outside, paths.reportsDir('v'));
    assert.throws(() => paths.reportPathFor('v', 'reports/secret.md'), /symbolic link/);
  });

  it('limits report paths to the agent’s own reports/ folder, and accepts what the brief names', () => {
    const paths = new HandoffPaths(path.join(tmp, 'root'));
    fs.mkdirSync(paths.reportsDir('w'), { recursive: true });
    for (const given of [
      'status.json',
      'read.md',
      '../other/reports/x.md',
      'reports',
      '/etc/passwd',
      '../../outside.md',
      paths.statusJson('w'),
    ]) {
      assert.throws(() => paths.reportPathFor('w', given), PathError, given);
    }
    assert.strictEqual(paths.reportPathFor('w', paths.report('w', 't1')), paths.report('w', 't1'));
    assert.strictEqual(paths.reportPathFor('w', 'reports/t1-report.md'), paths.report('w', 't1'));
    assert.strictEqual(paths.reportPathFor('w', 'reports/sub/not-yet.md'), path.join(paths.reportsDir('w'), 'sub', 'not-yet.md'));
  });

  it('a root reached through a link of the user’s own is fine', () => {
    fs.mkdirSync(path.join(tmp, 'real', 'w', 'reports'), { recursive: true });
    fs.symlinkSync(path.join(tmp, 'real'), path.join(tmp, 'via-link'));
    const paths = new HandoffPaths(path.join(tmp, 'via-link'));
    assert.strictEqual(paths.reportPathFor('w', 'reports/t1-report.md'), path.join(tmp, 'via-link', 'w', 'reports', 't1-report.md'));
  });
});

describe('security gap 7: team.toml launch in an untrusted workspace', () => {
  it('package.json declares limited support for untrusted workspaces, and says why', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    assert.strictEqual(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.match(pkg.capabilities.untrustedWorkspaces.description, /launch/);
  });

  async function run(trusted: boolean | undefined, existing: boolean) {
    fs.writeFileSync(path.join(tmp, 'team.toml'), '[w]\nmode = "embedded"\nlaunch = "evil-script --flag"\nargs = ["x"]\n');
    const launched: string[] = [];
    const typed: string[] = [];
    const find = async (a: TeamAgent): Promise<DeliveryTarget> => {
      if (existing) return target(typed);
      if (!a.launch) throw new DispatchFailure('no_terminal', `no terminal runs ${a.key} and team.toml gives no launch command`);
      launched.push([a.launch, ...(a.args ?? [])].join(' '));
      return target(typed);
    };
    const hub = new Hub({ bodyLimit: 64 * 1024 });
    const service = new HandoffService({
      root: tmp,
      teamFile: path.join(tmp, 'team.toml'),
      hub,
      hubFile: path.join(tmp, 'hub.json'),
      hubEnv: 'AGENT_LENS_HUB',
      cli: '/bin/false',
      finder: { find },
      log: SILENT,
      sleep: async () => undefined,
      ...(trusted === undefined ? {} : { trusted: () => trusted }),
    });
    service.start();
    try {
      await hub.listen();
      const r = await service.dispatch({ agent: 'w', taskId: 't1', brief: 'b' });
      return { r, launched, typed, board: service.boards.get('w') };
    } finally {
      service.dispose();
      await hub.close();
    }
  }

  it('untrusted: the launch command never runs, nothing is typed, the brief is on the board and the error says why', async () => {
    for (const existing of [false, true]) {
      const { r, launched, typed, board } = await run(false, existing);
      assert.deepStrictEqual(launched, []);
      assert.deepStrictEqual(typed, [], 'not even into a terminal that already runs the agent');
      assert.strictEqual(r.delivered, false);
      assert.strictEqual(r.submitted, true);
      assert.ok(board.brief_path && fs.existsSync(board.brief_path));
      assert.strictEqual(board.error_point, 'no_terminal');
      assert.match(r.error ?? '', /not trusted.*"evil-script --flag"/);
    }
  });

  it('trusted (or serve) launches and delivers', async () => {
    for (const trusted of [true, undefined]) {
      const t = await run(trusted, false);
      assert.deepStrictEqual(t.launched, ['evil-script --flag x']);
      assert.strictEqual(t.r.delivered, true, t.r.error);
    }
  });

  it('the schema refuses control characters in launch, naming the line', () => {
    for (const esc of ['\\n', '\\r', '\\t', '\\u001b[2J', '\\u0000', '\\u007f', '\\u0085', '\\u009b31m', '\\u2028']) {
      const text = `[a]\nmode = "embedded"\nlaunch = "claude${esc}rm -rf ~"\n`;
      assert.throws(
        () => parseTeam(text, 'team.toml'),
        (e: TeamError) => e instanceof TeamError && e.line === 3 && e.field === '[a].launch' && /control characters/.test(e.message),
        esc,
      );
    }
    assert.strictEqual(
      parseTeam('[a]\nmode = "embedded"\nlaunch = "claude --model \'x y\'"\n', 'team.toml').agents[0].launch,
      "claude --model 'x y'",
    );
  });
});

describe('security gap 8: a pause after a key ending in ESC', () => {
  const agent = (steps: TeamAgent['dispatch_steps']): TeamAgent => ({ key: 'w', mode: 'embedded', dispatch_steps: steps });

  it('waits ESC_SETTLE_MS between "escape" and the text that follows, counting sleeps already there', async () => {
    const cases: [TeamAgent['dispatch_steps'], number[]][] = [
      [
        [
          { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['escape'] } },
          { tool: 'terminal_input', with: { text: '{message}', send: 'enter' } },
        ],
        [ESC_SETTLE_MS, ENTER_AFTER_TYPE_MS],
      ],
      [
        [
          { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['up', 'esc'] } },
          { tool: 'terminal_input', with: { text: '{message}' } },
          { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['enter'] } },
        ],
        [ESC_SETTLE_MS, ENTER_AFTER_TYPE_MS],
      ],
      [
        [
          { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['escape'] } },
          { tool: '__sleep', with: { ms: 200 } },
          { tool: 'terminal_input', with: { text: '{message}' } },
        ],
        [200, ESC_SETTLE_MS - 200],
      ],
      [
        [
          { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['escape'] } },
          { tool: '__sleep', with: { ms: 2000 } },
          { tool: 'terminal_input', with: { text: '{message}' } },
        ],
        [2000],
      ],
      [
        [
          { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['escape'] } },
          { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['up'] } },
          { tool: 'terminal_input', with: { text: '{message}' } },
        ],
        [ESC_SETTLE_MS],
      ],
      [
        [
          { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['ctrl+u'] } },
          { tool: 'terminal_input', with: { text: '{message}' } },
        ],
        [],
      ],
    ];
    for (const [steps, want] of cases) {
      const slept: number[] = [];
      const { d, typed } = dispatcher([agent(steps)], { sleep: async (ms) => void slept.push(ms) });
      const r = await d.dispatch({ agent: 'w', taskId: 't1', brief: 'b' });
      assert.strictEqual(r.delivered, true, r.error);
      assert.deepStrictEqual(slept, want, JSON.stringify(steps));
      assert.ok(typed.length >= 2);
    }
  });
});

describe('security gap 9: ids and reasons from requests are escaped in logs and output', () => {
  const NASTY = 'x\u001b]0;pwned\u0007\u009b2J\u007f';

  it('the doorbell’s log line and warnings carry no raw control character', () => {
    const paths = new HandoffPaths(tmp);
    const log: string[] = [];
    const boards = new Boards(paths, { log: logTo((_l, m) => void log.push(m)) });
    const routes = {
      boards,
      checkReportPath: (a: string, p: string) => paths.reportPathFor(a, p),
      log: logTo((_l, m) => void log.push(m)),
    };
    for (const id of [NASTY, `${NASTY}::t`, `w::${NASTY}`]) {
      const r = ring(routes, { id, status: 'progress', summary: 's', report_path: null });
      const warning = (r.body as { warning?: string }).warning;
      if (warning) assert.doesNotMatch(warning, RAW_CONTROL, warning);
    }
    assert.ok(log.length >= 3);
    for (const l of log) assert.doesNotMatch(l, RAW_CONTROL, l);
    assert.ok(
      log.some((l) => l.includes('\\u001b]0;pwned\\u0007\\u009b2J\\u007f')),
      log.join('\n'),
    );
  });

  it('a refused report_path is answered with an escaped message', () => {
    const paths = new HandoffPaths(tmp);
    const routes = { boards: new Boards(paths), checkReportPath: (a: string, p: string) => paths.reportPathFor(a, p) };
    assert.throws(
      () => ring(routes, { id: 'w::t', status: 'done', summary: 's', report_path: `/etc/${NASTY}` }),
      (e: Error) => !RAW_CONTROL.test(e.message) && /\\u009b/.test(e.message),
    );
  });

  it('a dispatch failure’s log line, error and error_reason carry no raw control character', async () => {
    const log: string[] = [];
    const w: TeamAgent = { key: 'w', mode: 'embedded', dispatch_steps: [] };
    const { d, boards } = dispatcher([w], { log, find: async () => Promise.reject(new Error(`terminal ${NASTY} is gone`)) });
    const bad = await d.dispatch({ agent: 'w', taskId: NASTY, brief: 'b' });
    const gone = await d.dispatch({ agent: 'w', taskId: 't1', brief: 'b' });
    for (const r of [bad, gone]) assert.doesNotMatch(r.error ?? '', RAW_CONTROL, r.error);
    assert.doesNotMatch(boards.get('w').error_reason ?? '', RAW_CONTROL);
    assert.ok(log.length >= 2);
    for (const l of log) assert.doesNotMatch(l, RAW_CONTROL, l);
  });

  it('agent-lens status escapes every field the hub sends, and JSON output escapes DEL and C1', async () => {
    const hub = new Hub({ bodyLimit: 64 * 1024 });
    const board = {
      agent: `a${NASTY}`,
      state: `s${NASTY}`,
      task_id: `t${NASTY}`,
      last_event: { status: `e${NASTY}`, summary: `m${NASTY}` },
      error_reason: `r${NASTY}`,
    };
    hub.mount(BOARDS_PATH, () => ({ boards: [board], ungrouped: [] }), { method: 'GET' });
    const port = await hub.listen();
    const file = path.join(tmp, 'hub.json');
    writeDiscovery(file, { v: 1, port, token: hub.token, pid: process.pid });
    const before = process.env.AGENT_LENS_HUB;
    process.env.AGENT_LENS_HUB = file;
    try {
      for (const args of [[], ['--json']]) {
        const out: string[] = [];
        const err: string[] = [];
        assert.strictEqual(
          await handoffCommand(
            'status',
            args,
            (s) => out.push(s),
            (s) => err.push(s),
          ),
          0,
          err.join('\n'),
        );
        assert.strictEqual(out.length, 1);
        // Tabs separate the fields of the table form; nothing else may be raw.
        const fields = out[0].split('\t');
        for (const f of fields) assert.doesNotMatch(f, RAW_CONTROL, JSON.stringify(out[0]));
        if (args.length) assert.deepStrictEqual(JSON.parse(out[0]).boards[0], board, 'still the same JSON');
        else assert.strictEqual(fields.length, 5, 'one line, five fields');
      }
    } finally {
      if (before === undefined) delete process.env.AGENT_LENS_HUB;
      else process.env.AGENT_LENS_HUB = before;
      await hub.close();
    }
    assert.strictEqual(jsonLine({ s: '\u0085\u2028' }), '{"s":"\\u0085\\u2028"}');
  });
});
