import * as assert from 'assert';
import * as fc from 'fast-check';
import { type Board, idleBoard } from '../../../src/handoff/board';
import { AgentStore } from '../../../src/store/store';
import type { HandoffView } from '../../../src/views/handoffRows';
import { stateCodicon } from '../../../src/views/labels';
import * as msg from '../../../src/views/messages';
import { badge, historyLines, pickItems, statusBar, treeRows, type ViewInput } from '../../../src/views/model';
import { detailRows } from '../../../src/views/usageRows';
import type { UsageFigures } from '../../../src/usage/figures';
import type { TreeRow } from '../../../src/views/treeRow';
import * as picks from '../../../src/views/picks';
import * as notifyPicks from '../../../src/notify/channelPicks';
import { makeChannel } from '../../../src/notify/channelList';
import { LIMITS, type PickSpec, shownInput } from '../../../src/views/untrusted';
import { obs } from '../obs';
import { hiddenIn, iconsIn, markdownProblems } from '../shownText';
import { checkPick, checkPlain, type Hostile, RUNS, SEED, values, VIEW_RUNS } from './hostileText';

// ---- what the user sees -------------------------------------------------------------------------------------

function checkTree(rows: readonly TreeRow[], depth = 0): number {
  let n = 0;
  for (const r of rows) {
    checkPlain(`row ${r.key} label`, r.label, LIMITS.label);
    checkPlain(`row ${r.key} description`, r.description, LIMITS.description);
    if (r.tooltip) assert.deepStrictEqual(markdownProblems(r.tooltip), [], `row ${r.key} tooltip:\n${r.tooltip}`);
    n += 1 + (r.children ? checkTree(r.children, depth + 1) : 0);
  }
  return n;
}

function board(agent: string, h: Hostile, extra: Partial<Board>): Board {
  return {
    ...idleBoard(agent, 0),
    task_id: h.taskId,
    last_event: { id: h.key, status: 'progress', summary: h.summary, report_path: null, at: 0, via: 'terminal' },
    delivery: 'delivered',
    delivered_to: h.name,
    brief_path: h.path,
    report_path: h.path,
    ...extra,
  };
}

/** Terminals, waits (a dialog with options, a reply that asks), boards, routes and hooks, every text hostile. */
function world(h: Hostile, active: string): ViewInput {
  const store = new AgentStore();
  store.openTerminal('A', h.name);
  store.openTerminal('B', h.name2);
  store.openTerminal('C', h.name);
  store.observe(
    obs('hook', 1000, 'waiting', { wait: 'permission', question: h.question, evidence: h.evidence, locator: { terminalId: 'A' } }),
  );
  store.observe({
    ...obs('hook', 1000, 'waiting', { evidence: h.evidence, locator: { terminalId: 'C' } }),
    wait: { kind: 'question', question: h.question, options: [h.option, 'No'] },
  });
  store.observe(
    obs('jsonl-watcher', 2000, 'failed', {
      agent: 'codex',
      reason: h.reason,
      evidence: h.evidence,
      locator: { terminalId: 'B', sessionId: 'S' },
    }),
  );
  const handoff: HandoffView = {
    agents: [
      { key: h.key, name: h.agentName, mode: h.mode, drivable: true, note: h.note, board: board(h.key, h, { state: 'in_progress' }) },
      { key: 'e', name: 'E', mode: 'embedded', drivable: true, board: board('e', h, { state: 'error', error_reason: h.error }) },
      { key: 'n', name: h.agentName, mode: h.mode, drivable: false, board: board('n', h, { state: 'done' }) },
    ],
    teamFile: h.path,
    registryError: h.error,
    ungrouped: [{ id: h.key, status: 'done', summary: h.summary, report_path: null, at: 0, via: 'doorbell' }],
    routes: [{ id: 'r', from: h.route, to: h.key, template: h.template, created: 0, pending: true }],
  };
  return {
    terminals: store.terminals(),
    waits: store.waits(),
    now: 60_000,
    activeTerminalId: active,
    hooks: [{ agent: 'codex', scope: 'user', state: 'error', path: h.path, note: h.note }],
    handoff,
    // The model's name and the last reply are the agent's text; a full context puts the warning on the row too.
    usage: new Map([
      ['A', usageOf(h, 0.95)],
      ['B', usageOf(h, 0.5)],
    ]),
  };
}

function usageOf(h: Hostile, fill: number): UsageFigures {
  return {
    agent: 'claude-code',
    session: h.key,
    model: h.agentName,
    turns: 3,
    tokens: { input: 1200, output: 300, cacheRead: 5000, cacheWrite: 10 },
    contextUsed: fill * 200_000,
    contextWindow: 200_000,
    contextFill: fill,
    cost: 0.42,
    costSource: 'estimated',
    pricesChecked: '2026-12-06',
    turnTokens: [10, 500, 20],
    turnMs: [1000, 61_000, 3000],
    lastReply: h.summary,
    partial: false,
    updatedAt: 0,
  };
}

function checkViews(h: Hostile): void {
  for (const active of ['A', 'B']) {
    const v = world(h, active);
    assert.ok(checkTree(treeRows(v)) >= 15, 'every kind of row was built');
    assert.ok(checkTree(detailRows(v)) >= 10, 'every kind of Session Details row was built');
    const sb = statusBar(v);
    const s = v.terminals.find((t) => t.id === active)!;
    for (const [item, icons] of [
      [sb.summary, 2],
      [sb.handoff, 1],
      [sb.active, 1],
    ] as const) {
      assert.ok(item, 'every status-bar item is shown');
      assert.deepStrictEqual(hiddenIn(item.text), [], item.text);
      assert.strictEqual(iconsIn(item.text).length, icons, `status-bar text ${JSON.stringify(item.text)}`);
      for (const line of item.tooltip.split('\n')) checkPlain('status-bar tooltip', line, LIMITS.tooltip);
      checkPlain('status-bar aria label', item.ariaLabel, LIMITS.tooltip);
    }
    assert.deepStrictEqual(iconsIn(sb.active!.text), [stateCodicon(s)]);
    checkPlain('badge', badge(v)!.tooltip);
    for (const p of pickItems(v)) checkPick('terminal pick', p);
    for (const line of historyLines(v)) assert.deepStrictEqual(hiddenIn(line), [], line);
  }
}

function checkMessages(h: Hostile): void {
  const v = world(h, 'A');
  const w = v.waits.find((x) => x.terminalId === 'A')!;
  const b = v.handoff!.agents[0].board;
  const texts: [string, string][] = [
    ['wait notification', msg.waitNotice(w, h.name)],
    ['moved on', msg.movedOnNotice(w, h.name)],
    ['nothing typed', msg.nothingTypedNotice(h.error)],
    ['failed', msg.failedNotice(h.error)],
    ['board done', msg.boardNotice({ ...b, state: 'done' }).text],
    ['board blocked', msg.boardNotice({ ...b, state: 'blocked', last_event: null }).text],
    ['dispatch refused', msg.dispatchNotice({ submitted: false, delivered: false, refused: h.error }, msg.briefWhat(h.key, h.taskId)).text],
    ['dispatch failed', msg.dispatchNotice({ submitted: true, delivered: false, error: h.error, board: b }, msg.handshakeWhat(h.key)).text],
    [
      'dispatch delivered',
      msg.dispatchNotice({ submitted: true, delivered: true, note: h.note, board: b }, msg.briefWhat(h.key, h.taskId)).text,
    ],
    ['ready', msg.readyNotice(h.key, h.summary)],
    ['no agent', msg.noAgentNotice(h.path)],
    ['init', msg.initNotice(h.path)],
    ['registered', msg.registeredNotice(h.key, h.path)],
    ['hook installed', msg.hookNotice('install', h.agentName, h.path, { note: h.note }).text],
    ['hook failed', msg.hookNotice('uninstall', h.agentName, h.path, { error: h.error }).text],
    ['saved', msg.savedNotice(h.path, true)],
    ['write failed', msg.writeFailedNotice(h.path, h.error)],
    ['replay failed', msg.replayFailedNotice(h.error)],
    ['turn ended', msg.turnNotice({ agent: w.agent, state: 'failed', reason: h.error, startedAt: 0, endedAt: 61_000 }, h.name)],
    ['notify test', notifyPicks.testResultNotice(1, [h.error, h.note]).text],
  ];
  for (const [where, t] of texts) checkPlain(where, t);
  const boxes = [
    msg.answerBox(w, h.name),
    { prompt: msg.taskIdPrompt(h.key) },
    { prompt: msg.cancelPrompt(h.key, h.taskId) },
    { title: msg.handshakeProgress(h.key) },
  ];
  for (const box of boxes) for (const [k, t] of Object.entries(shownInput(box))) checkPlain(`input ${k}`, t);
  const log = msg.waitLogLines(w, h.name);
  for (const line of [log.info, log.trace ?? '']) assert.deepStrictEqual(hiddenIn(line), [], line);
  const specs: [string, PickSpec[]][] = [
    ['agent pick', picks.agentPicks(v.handoff!.agents)],
    ['board pick', picks.boardPicks(v.handoff!.agents.map((a) => a.board))],
    ['route pick', picks.routePicks(v.handoff!.routes)],
    ['name pick', picks.namePicks([h.name, h.name2])],
    ['brief pick', picks.briefSourcePicks(true, h.path)],
    ['mode pick', picks.modePicks()],
    ['notification channel pick', [notifyPicks.channelPick(makeChannel({ kind: 'command', argv: [h.path || 'p', h.name || 'n'] }), 0)]],
    [
      'hook pick',
      picks.hookPicks([
        {
          agent: 'claude-code',
          scope: 'system',
          state: 'partial',
          found: { found: true, why: h.why },
          path: h.path,
          note: h.note,
          picked: true,
        },
      ]),
    ],
  ];
  for (const [where, list] of specs) for (const p of list) checkPick(where, p);
}

describe(`fuzz: hostile text in every message, prompt, pick, tree row and status-bar item (seed ${SEED})`, function () {
  this.timeout(600_000);

  it('tree rows (labels, descriptions, Markdown tooltips), the status bar, the badge, terminal picks and history', () => {
    fc.assert(fc.property(values, checkViews), { numRuns: VIEW_RUNS, seed: SEED });
  });

  it('notifications, input boxes, quick picks and the wait log line', () => {
    fc.assert(fc.property(values, checkMessages), { numRuns: RUNS, seed: SEED });
  });
});
