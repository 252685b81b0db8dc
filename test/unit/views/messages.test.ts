import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { type Board, idleBoard } from '../../../src/handoff/board';
import type { DeliveryTarget } from '../../../src/handoff/steps';
import { HandoffService } from '../../../src/handoff/service';
import { Hub } from '../../../src/hub/hub';
import { AgentStore } from '../../../src/store/store';
import { coalesce } from '../../../src/views/coalesce';
import { handoffRows } from '../../../src/views/handoffRows';
import { answerBox, boardNotice, briefWhat, dispatchNotice, waitLogLines, waitNotice } from '../../../src/views/messages';
import { historyLines } from '../../../src/views/model';
import { FakeScheduler } from '../fakeScheduler';
import { obs } from '../obs';
import { hiddenIn, linksIn, markdownProblems } from '../shownText';
import { SILENT } from '../../../src/common/log';

const ARGS = encodeURIComponent(JSON.stringify({ text: 'touch pwned-by-link\r' }));
const LINK = `[Open Report](command:workbench.action.terminal.sendSequence?${ARGS} "Open Report")`;

describe('messages: untrusted parts are text', () => {
  it('the wait notification and the Answer… box carry a hook’s question, never as a link', () => {
    const w = { id: 'w1', agent: 'claude-code' as const, kind: 'permission' as const, question: `Bash: npm test ${LINK}` };
    const name = 'bash [x](command:y)\u202e';
    const msg = waitNotice(w, name);
    assert.deepStrictEqual(linksIn(msg), []);
    assert.deepStrictEqual(hiddenIn(msg), []);
    assert.match(
      msg,
      /^Claude Code in “bash \[x\] \(command:y\)\\u202e” is waiting for approval: Bash: npm test \[Open Report\] \(command:/,
    );
    const box = answerBox(w, name);
    for (const t of [box.title, box.prompt, box.placeHolder]) assert.deepStrictEqual(linksIn(t), [], t);
    assert.strictEqual(
      waitNotice({ ...w, question: 'Bash: npm test' }, 'bash'),
      'Claude Code in “bash” is waiting for approval: Bash: npm test',
      'ordinary text unchanged',
    );
  });

  it('the log line names the wait, its kind, the agent and the escaped terminal; the command only at trace', () => {
    const w = {
      id: 'w7',
      agent: 'claude-code' as const,
      kind: 'permission' as const,
      question: 'Bash: curl -H "Authorization: Bearer sk-SECRET"',
    };
    const lines = waitLogLines(w, 'bash\n2026-12-04 21:00:00.000 [info] forged');
    assert.strictEqual(lines.info, 'notified: wait w7 (permission) of claude-code in “bash\\u000a2026-12-04 21:00:00.000 [info] forged”');
    assert.ok(!lines.info.includes('SECRET'));
    assert.match(lines.trace!, /^wait w7 asks: Bash: curl .*sk-SECRET/);
    assert.strictEqual(waitLogLines({ ...w, question: undefined }, 'bash').trace, undefined);
  });

  it('a done summary with a link, and a dispatch error quoting a workspace’s launch, show no link', async () => {
    const b: Board = {
      ...idleBoard('claude', 0),
      state: 'done',
      task_id: '1204-01',
      last_event: { id: 'claude::1204-01', status: 'done', summary: `All tests pass. ${LINK}`, report_path: null, at: 1, via: 'terminal' },
    };
    const n = boardNotice(b);
    assert.strictEqual(n.level, 'info');
    assert.deepStrictEqual(linksIn(n.text), []);
    assert.strictEqual(boardNotice({ ...b, state: 'blocked' }).level, 'warning');

    // A workspace's team.toml whose launch holds a link, through the real service in Restricted Mode.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'al-messages-'));
    fs.writeFileSync(
      path.join(tmp, 'team.toml'),
      `[claude]\nmode = "embedded"\nlaunch = ${JSON.stringify(`claude [Trust this folder and run](command:workbench.action.terminal.sendSequence?${ARGS})`)}\n`,
    );
    const hub = new Hub({ bodyLimit: 64 * 1024 });
    const find = async (): Promise<DeliveryTarget> => assert.fail('an untrusted workspace never looks for a terminal');
    const service = new HandoffService({
      root: path.join(tmp, 'h'),
      teamFile: path.join(tmp, 'team.toml'),
      hub,
      hubFile: path.join(tmp, 'hub.json'),
      hubEnv: 'AGENT_LENS_HUB',
      cli: '/bin/false',
      finder: { find },
      trusted: () => false,
      log: SILENT,
      sleep: async () => undefined,
    });
    try {
      service.start();
      await hub.listen();
      const r = await service.dispatch({ agent: 'claude', taskId: '1204-01', brief: 'b' });
      assert.strictEqual(linksIn(r.error ?? '').length, 1, 'the raw error holds the link: the sink is real');
      const shown = dispatchNotice(r, briefWhat('claude', '1204-01'));
      assert.strictEqual(shown.level, 'error');
      assert.deepStrictEqual(linksIn(shown.text), []);
      assert.match(
        shown.text,
        /^Agent Lens: Brief claude::1204-01 is on the board but was not delivered: no terminal to deliver to: this workspace is not trusted/,
      );
    } finally {
      service.dispose();
      await hub.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('handoff tooltips escape every part from team.toml, boards and routes', () => {
    const evil = `![x](https://e.example/i.png) <img src=x> &#x202E; ${LINK}`;
    const board: Board = {
      ...idleBoard('k', 0),
      state: 'error',
      task_id: evil,
      error_reason: evil,
      brief_path: evil,
      delivery: 'delivered',
      delivered_to: evil,
      last_event: { id: evil, status: 'done', summary: evil, report_path: null, at: 0, via: 'doorbell' },
    };
    const rows = handoffRows(
      {
        agents: [{ key: 'k', name: evil, mode: evil, drivable: true, note: evil, board }],
        teamFile: evil,
        registryError: evil,
        ungrouped: [],
        routes: [{ id: 'r', from: evil, to: evil, template: evil, created: 0, pending: false }],
      },
      0,
    );
    const tips: string[] = [];
    const walk = (rs: typeof rows) => rs.forEach((r) => (r.tooltip && tips.push(r.tooltip), r.children && walk(r.children)));
    walk(rows);
    assert.ok(tips.length >= 5, `${tips.length} tooltips`);
    for (const t of tips) assert.deepStrictEqual(markdownProblems(t), [], t);
  });

  it('"Show State History" lines are escaped (they go to the log)', () => {
    const store = new AgentStore();
    store.openTerminal('A', 'bash\nforged line');
    store.observe(obs('pty-scrape', 1000, 'working', { evidence: 'x\u202ey', locator: { terminalId: 'A' } }));
    const lines = historyLines({ terminals: store.terminals(), waits: [], now: 2000 });
    for (const l of lines) assert.deepStrictEqual(hiddenIn(l), [], l);
    assert.ok(lines.some((l) => l.startsWith('[bash\\u000aforged line]')));
  });
});

describe('render coalescing', () => {
  it('runs at once, folds a burst into one trailing run per 100 ms, and always shows the last state', () => {
    const clock = new FakeScheduler();
    let state = 0;
    const shown: number[] = [];
    const render = coalesce(clock, 100, () => shown.push(state));
    render();
    assert.deepStrictEqual(shown, [0], 'the first call runs without delay');
    for (let i = 1; i <= 5000; i++) {
      state = i;
      render();
      if (i % 50 === 0) clock.advance(1);
    }
    clock.advance(200);
    assert.strictEqual(shown.at(-1), 5000, 'the last state is shown');
    // 100 ms of events (5000 calls) give the leading run plus one per interval, not one per call.
    assert.ok(shown.length <= 3, `${shown.length} runs`);
    assert.strictEqual(clock.pending, 0);
    clock.advance(1000);
    const before = shown.length;
    render();
    assert.strictEqual(shown.length, before + 1, 'idle again: the next call runs at once');
    assert.strictEqual(clock.pending, 0);
  });

  it('cancel drops a pending run', () => {
    const clock = new FakeScheduler();
    let runs = 0;
    const render = coalesce(clock, 100, () => runs++);
    render();
    render();
    assert.strictEqual(clock.pending, 1);
    render.cancel();
    clock.advance(500);
    assert.strictEqual(runs, 1);
  });
});
