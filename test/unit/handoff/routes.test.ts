import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Boards } from '../../../src/handoff/boards';
import type { DispatchRequest, DispatchResult } from '../../../src/handoff/dispatch';
import { HandoffPaths } from '../../../src/handoff/paths';
import { cameToRest, type Route, Router } from '../../../src/handoff/routes';
import type { StateChange, TerminalState } from '../../../src/store/types';
import { handoffRows } from '../../../src/views/handoffRows';
import { statusBar, treeRows } from '../../../src/views/model';
import { SILENT } from '../../../src/common/log';

function term(state: TerminalState['state'], extra: Partial<TerminalState> = {}): TerminalState {
  return {
    id: 'term-a',
    name: 'A',
    agent: 'claude-code',
    state,
    source: 'pty-scrape',
    evidence: '',
    since: 0,
    sessionKey: 's1',
    words: [],
    history: [],
    ...extra,
  };
}
const change = (prev: TerminalState | undefined, cur: TerminalState): StateChange => ({ id: cur.id, previous: prev, current: cur });

describe('routing triggers (seed 000)', () => {
  let tmp: string;
  let boards: Boards;
  let sent: DispatchRequest[];
  let saved: Route[];
  let router: Router;
  let n = 0;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-routes-'));
    boards = new Boards(new HandoffPaths(tmp));
    sent = [];
    saved = [];
    router = new Router({
      dispatch: async (req): Promise<DispatchResult> => {
        sent.push(req);
        boards.set({ ...boards.get(req.agent), state: 'in_progress', task_id: req.taskId });
        return { submitted: true, delivered: true };
      },
      boards,
      taskId: () => `1203-${String(++n).padStart(2, '0')}`,
      reportPathOf: (name) => (name === 'A' ? '/r/a/reports/x-report.md' : undefined),
      log: SILENT,
      save: (r) => (saved = r),
    });
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('fires once when A comes to rest (Stopped or Completed), with A’s name, agent, last reply and report path', async () => {
    router.add('A', 'B', 'From {from_name} ({from_agent}): {last_reply} — {report_path}');
    assert.strictEqual(saved.length, 1, 'persisted');
    const done = term('completed', {
      words: [{ source: 'hook', at: 1, agent: 'claude-code', state: 'completed', evidence: 'Stop', reply: 'All tests pass.', locator: {} }],
    });
    router.follow(change(term('working'), done));
    router.follow(change(done, { ...done, source: 'jsonl-watcher' })); // the same rest, confirmed by another source: no new transition
    await new Promise((r) => setImmediate(r));
    assert.strictEqual(sent.length, 1);
    assert.strictEqual(sent[0].agent, 'B');
    assert.strictEqual(sent[0].brief, 'From A (claude-code): All tests pass. — /r/a/reports/x-report.md');
    assert.ok(!cameToRest(change(term('working'), term('waiting'))));
    assert.ok(!cameToRest(change(undefined, term('idle', { agent: 'shell' }))));
    assert.ok(cameToRest(change(term('working'), term('stopped'))));
  });

  it('a busy target holds one pending brief (the newest) until its task ends, then gets it', async () => {
    router.add('A', 'B', '{last_reply}');
    boards.set({ ...boards.get('B'), state: 'in_progress', task_id: 'busy' });
    for (const reply of ['first', 'second', 'third']) {
      const rest = term('completed', {
        sessionKey: reply,
        words: [{ source: 'hook', at: 1, agent: 'claude-code', state: 'completed', evidence: '', reply, locator: {} }],
      });
      router.follow(change(term('working', { sessionKey: reply }), rest));
    }
    assert.strictEqual(sent.length, 0);
    assert.ok(router.pendingFor(router.routes()[0].id));
    boards.receive({ id: 'B::busy', status: 'done', summary: 'ok', report_path: null }, 'doorbell');
    await new Promise((r) => setImmediate(r));
    assert.deepStrictEqual(
      sent.map((s) => s.brief),
      ['third'],
    );
    assert.strictEqual(router.pendingFor(router.routes()[0].id), undefined);
  });

  it('routes can be removed, and are listed in the tree', () => {
    const r = router.add('A', 'B', 't');
    const rows = handoffRows(
      { agents: [], teamFile: '/t.toml', ungrouped: [], routes: router.routes().map((x) => ({ ...x, pending: false })) },
      0,
    );
    assert.ok(rows.some((g) => g.label === 'Routes' && g.children?.some((c) => c.label === 'A → B' && c.route === r.id)));
    assert.strictEqual(router.remove(r.id), true);
    assert.deepStrictEqual(saved, []);
    assert.strictEqual(router.remove(r.id), false);
  });
});

describe('handoff views', () => {
  it('each agent’s board in the tree, not-drivable agents say so, the status bar counts tasks in flight', () => {
    const b = (agent: string, state: 'in_progress' | 'done' | 'idle', extra = {}) => ({
      agent,
      state,
      task_id: state === 'idle' ? null : 't1',
      last_event: null,
      progress: null,
      error_reason: null,
      error_point: null,
      report_path: state === 'done' ? '/r.md' : null,
      brief_path: null,
      delivery: 'delivered' as const,
      delivered_to: 'T',
      updated_at: 0,
      ...extra,
    });
    const handoff = {
      agents: [
        { key: 'w', name: 'Worker', mode: 'embedded', drivable: true, board: b('w', 'in_progress') },
        { key: 'd', name: 'Docs', mode: 'embedded', drivable: true, board: b('d', 'done') },
        { key: 'site', name: 'site', mode: 'web', drivable: false, board: b('site', 'idle') },
      ],
      teamFile: '/t.toml',
      registryError: 'team.toml:3: [w].mode: expected one of …',
      ungrouped: [],
      routes: [],
    };
    const rows = treeRows({ terminals: [], waits: [], now: 0, handoff });
    const g = rows.find((r) => r.label === 'Handoff')!;
    assert.strictEqual(g.description, '1 in flight');
    assert.deepStrictEqual(
      g.children!.map((c) => [c.label, c.description]),
      [
        ['team.toml has an error', 'team.toml:3: [w].mode: expected one of …'],
        ['Worker', 'in progress · t1'],
        ['Docs', 'done · t1'],
        ['site', 'not drivable from VS Code (mode web)'],
      ],
    );
    assert.ok(g.children![2].children!.some((c) => c.label === 'Open Report' && c.command?.id === 'agentLens.openReport'));
    assert.strictEqual(statusBar({ terminals: [], waits: [], now: 0, handoff }).handoff?.text, '$(mail) 1');
    assert.strictEqual(statusBar({ terminals: [], waits: [], now: 0 }).handoff, undefined);
  });
});
