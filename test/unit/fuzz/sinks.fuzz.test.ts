import * as assert from 'assert';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { type Board, idleBoard } from '../../../src/handoff/board';
import { DispatchFailure } from '../../../src/handoff/dispatch';
import { HandoffService } from '../../../src/handoff/service';
import type { DeliveryTarget } from '../../../src/handoff/steps';
import { Hub } from '../../../src/hub/hub';
import { AgentStore } from '../../../src/store/store';
import type { HandoffView } from '../../../src/views/handoffRows';
import { stateCodicon } from '../../../src/views/labels';
import * as msg from '../../../src/views/messages';
import { badge, historyLines, pickItems, statusBar, treeRows, type ViewInput } from '../../../src/views/model';
import type { TreeRow } from '../../../src/views/treeRow';
import * as picks from '../../../src/views/picks';
import { LIMITS, type PickSpec, plain, shownInput, shownPick } from '../../../src/views/untrusted';
import { obs } from '../obs';
import { hiddenIn, iconsIn, linksIn, markdownProblems } from '../shownText';
import { fuzzSeed } from './mutate';
import { SILENT } from '../../../src/common/log';

/** Runs per property in `npm test`; `npm run fuzz` sets more (AGENT_LENS_FUZZ_RUNS) and a fresh seed. */
const RUNS = Number(process.env.AGENT_LENS_FUZZ_RUNS ?? 300);
/** A world renders some 40 tooltips through marked: fewer runs in `npm test`, all of them under `npm run fuzz`. */
const VIEW_RUNS = process.env.AGENT_LENS_FUZZ_RUNS ? RUNS : 100;
const SEED = fuzzSeed();

// ---- hostile text -------------------------------------------------------------------------------------------

const ARGS = fc.string({ maxLength: 16 }).map((s) => encodeURIComponent(JSON.stringify({ text: `${s}\r` })));
const COMMANDS = [
  'workbench.action.terminal.sendSequence',
  'agentLens.recordTerminal',
  'agentLens.answerWait',
  'workbench.extensions.installExtension',
  '_workbench.open',
];
const target = fc.oneof(
  fc.tuple(fc.constantFrom(...COMMANDS), ARGS).map(([c, a]) => `command:${c}?${a}`),
  fc.constantFrom(
    'https://evil.example/x',
    'http://127.0.0.1:1/',
    'file:///etc/passwd',
    'command:agentLens.showHistory',
    'HTTPS://E.EXAMPLE',
    'Command:x',
  ),
);
const title = fc.oneof(
  fc.constant(''),
  fc.tuple(fc.constantFrom('"', "'"), fc.constantFrom('Open Report', 'Show Terminal', '')).map(([q, t]) => ` ${q}${t}${q}`),
);
/** What may stand between `]` and `(`: nothing, or a character a renderer might drop or a layer might turn into a space. */
const SPLITS = [
  '',
  '',
  '',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u202e',
  '\u2066',
  '\u061c',
  '\u00ad',
  '\ufeff',
  '\u{e0020}',
  '\n',
  '\r\n',
  '\t',
  '\u2028',
  '\u0085',
  '\x00',
];
const linkWith = (splits: readonly string[]) =>
  fc
    .tuple(
      fc.constantFrom('', '[', ']', '[[', 'x]'),
      fc.oneof(fc.constantFrom('Open Report', 'Show Terminal', '[x]', 'a]b', '$(pass) OK'), fc.string({ maxLength: 8 })),
      fc.constantFrom(...splits),
      target,
      title,
    )
    .map(([pre, l, sp, t, ti]) => `${pre}[${l}]${sp}(${t}${ti})`);
const link = linkWith(SPLITS);
const MARKUP = [
  '![i](https://evil.example/x.png)',
  '<https://evil.example>',
  '<img src=x onerror=alert(1)>',
  '<a href="command:x">y</a>',
  '<script>x</script>',
  '&#x202E;',
  '&#8238;',
  '&rlm;',
  '&lrm;',
  '&zwj;',
  '&lt;b&gt;',
  '# heading',
  '**bold**',
  '_em_',
  '~~del~~',
  '`code`',
  '    indented',
  '> quote',
  '- item',
  '1. item',
  '| a | b |',
  '---',
  '<!-- c -->',
  'www.evil.example',
  'https://evil.example/p',
  'a@evil.example',
  '[r]: https://evil.example',
  '[x][r]',
  '$(zap)',
  '\\$(zap)',
  '$(sync~spin)',
  '\\',
  '](',
  ']',
  '(',
  '"',
  '{0}',
  '{1}',
];
const HIDDEN = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
  '\x00',
  '\x07',
  '\x1b[2J',
  '\x7f',
  '\u0085',
  '\u009b',
  '\u2028',
  '\u2029',
  '\u200b',
  '\ufeff',
  '\u00ad',
  '\u{e0041}',
  '\u200d',
  '\r',
  '\n',
  '\t',
];
const piece = fc.oneof(
  { weight: 4, arbitrary: link },
  { weight: 2, arbitrary: fc.constantFrom(...MARKUP) },
  { weight: 2, arbitrary: fc.constantFrom(...HIDDEN) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 16 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
);
const text = fc.array(piece, { maxLength: 8 }).map((a) => a.join(''));
/** 2,000–10,000 characters of one piece repeated. */
const huge = fc.tuple(piece, fc.integer({ min: 2000, max: 10_000 })).map(([p, n]) => (p || 'x').repeat(Math.ceil(n / (p || 'x').length)));
const hostile = fc.oneof({ weight: 12, arbitrary: text }, { weight: 1, arbitrary: huge });

const FIELDS = [
  'name',
  'name2',
  'question',
  'option',
  'evidence',
  'reason',
  'summary',
  'error',
  'taskId',
  'agentName',
  'key',
  'note',
  'mode',
  'path',
  'route',
  'template',
  'why',
] as const;
type Hostile = Record<(typeof FIELDS)[number], string>;
const values = fc.record(
  Object.fromEntries(FIELDS.map((f) => [f, hostile])) as Record<(typeof FIELDS)[number], fc.Arbitrary<string>>,
) as fc.Arbitrary<Hostile>;

// ---- what the user sees -------------------------------------------------------------------------------------

/** A text VS Code shows as a message, prompt, title, placeholder, label or description. */
function checkPlain(where: string, s: string, max: number = LIMITS.message): void {
  assert.deepStrictEqual(linksIn(s), [], `${where}: a link in ${JSON.stringify(s)}`);
  assert.deepStrictEqual(hiddenIn(s), [], `${where}: raw hidden characters in ${JSON.stringify(s)}`);
  assert.ok(Array.from(s).length <= max, `${where}: ${Array.from(s).length} > ${max} characters`);
  assert.strictEqual(plain(s, max), s, `${where}: the adapter's plain() would change it (not idempotent)`);
}

function checkPick(where: string, spec: PickSpec): void {
  const p = shownPick(spec);
  checkPlain(`${where} label`, p.label, LIMITS.label + (spec.icon ? spec.icon.length + 4 : 0));
  assert.deepStrictEqual(iconsIn(p.label), spec.icon ? [spec.icon] : [], `${where}: icons in ${JSON.stringify(p.label)}`);
  for (const [k, v] of [
    ['description', p.description],
    ['detail', p.detail],
  ] as const) {
    if (v === undefined) continue;
    checkPlain(`${where} ${k}`, v, k === 'detail' ? LIMITS.detail : LIMITS.description);
    assert.deepStrictEqual(iconsIn(v), [], `${where} ${k}: icons in ${JSON.stringify(v)}`);
  }
}

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
  };
}

function checkViews(h: Hostile): void {
  for (const active of ['A', 'B']) {
    const v = world(h, active);
    assert.ok(checkTree(treeRows(v)) >= 15, 'every kind of row was built');
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

  it('real dispatch errors: a workspace team.toml’s launch (Restricted Mode) and a finder’s reason reach the message as text', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'al-sinks-'));
    const team = path.join(tmp, 'team.toml');
    fs.writeFileSync(team, '[w]\nmode = "embedded"\n');
    let trusted = false;
    let reason = '';
    const find = async (): Promise<DeliveryTarget> => {
      throw new DispatchFailure('no_terminal', reason);
    };
    const hub = new Hub({ bodyLimit: 64 * 1024 });
    const service = new HandoffService({
      root: path.join(tmp, 'h'),
      teamFile: team,
      hub,
      hubFile: path.join(tmp, 'hub.json'),
      hubEnv: 'AGENT_LENS_HUB',
      cli: '/bin/false',
      finder: { find },
      trusted: () => trusted,
      log: SILENT,
      sleep: async () => undefined,
    });
    service.start();
    await hub.listen();
    let n = 0;
    let rawLinks = 0;
    // The schema refuses control characters in launch (a test of its own): links split by anything else reach the text.
    const launch = fc
      .tuple(linkWith(['', '', '\u200b', '\u202e', '\u2066', ' ']), text)
      .map(([l, t]) => `claude ${l} ${t.replace(/[\p{Cc}\u2028\u2029]/gu, '')}`);
    try {
      await fc.assert(
        fc.asyncProperty(launch, hostile, fc.boolean(), async (cmd, why, finderFails) => {
          fs.writeFileSync(team, `[w]\nmode = "embedded"\nlaunch = ${JSON.stringify(cmd)}\n`);
          service.registry.load();
          trusted = finderFails;
          reason = why;
          const r = await service.dispatch({ agent: 'w', taskId: `t${++n}`, brief: 'b' });
          assert.ok(r.error, 'the dispatch failed as set up');
          if (linksIn(r.error).length) rawLinks++;
          const shown = msg.dispatchNotice(r, msg.briefWhat('w', `t${n}`));
          assert.strictEqual(shown.level, 'error');
          checkPlain('dispatch error', shown.text);
        }),
        { numRuns: Math.max(30, Math.floor(RUNS / 5)), seed: SEED },
      );
    } finally {
      service.dispose();
      await hub.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    assert.ok(rawLinks > 0, 'some raw errors held a link VS Code would render, so the property was exercised');
  });
});
