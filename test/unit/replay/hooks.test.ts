import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { castStartMs, recordingHooks } from '../../../harness/recordingLogs';
import { main } from '../../../src/cli/cli';
import { parseCast } from '../../../src/formats/cast';
import { replayFused, type ShownChange } from '../../../src/replay/fused';
import { HOOK_LINE_LIMIT, HookFileError, hookReports, parseHookFile } from '../../../src/formats/hookFile';
import { replayCast } from '../../../src/replay/replay';
import type { Wait } from '../../../src/store/waits';
import { AGENT_COMMAND as COMMAND_OF } from '../../../harness/commandLine';
import { ROOT } from '../helpers';

const RECORDINGS = path.join(ROOT, 'test/fixtures/recordings');

describe('replay --hooks: the hooks file', () => {
  const parseErr = (text: string) => {
    try {
      parseHookFile('h.jsonl', text);
    } catch (e) {
      assert.ok(e instanceof HookFileError, `a HookFileError, not ${(e as Error).name}`);
      return (e as Error).message;
    }
    assert.fail('no error');
  };

  it('reads both forms; blank lines and CRLF are fine; t lines are placed by t0, at_ms lines are not', () => {
    const text = [
      '',
      '{"t": 1.5, "agent": "claude-code", "payload": {"hook_event_name": "UserPromptSubmit"}}\r',
      '   ',
      '{"at_ms": 1796229284638, "agent": "opencode", "payload": {"type": "session.status", "properties": {}}}',
      '{"t": -0.25, "agent": "hermes", "payload": {"hook": "on_session_start"}, "note": "extra keys are ignored"}',
      '',
    ].join('\n');
    const lines = parseHookFile('h.jsonl', text);
    assert.deepStrictEqual(lines, [
      { file: 'h.jsonl', line: 2, agent: 'claude-code', payload: { hook_event_name: 'UserPromptSubmit' }, t: 1.5 },
      { file: 'h.jsonl', line: 4, agent: 'opencode', payload: { type: 'session.status', properties: {} }, atMs: 1796229284638 },
      { file: 'h.jsonl', line: 5, agent: 'hermes', payload: { hook: 'on_session_start' }, t: -0.25 },
    ]);
    assert.deepStrictEqual(
      hookReports(lines, 1796229280000).map((r) => [r.agent, r.at]),
      [
        ['hermes', 1796229279750],
        ['claude-code', 1796229281500],
        ['opencode', 1796229284638],
      ],
    );
    assert.deepStrictEqual(parseHookFile('empty.jsonl', '\n\n'), []);
  });

  it('names file:line and what is wrong', () => {
    const ok = '{"t": 1, "agent": "codex", "payload": {}}';
    assert.match(parseErr(`${ok}\n{"t": 1, "agent": "codex", "payload": {}`), /^h\.jsonl:2: not JSON: /);
    assert.match(parseErr(`${ok}\n\n{"t": 1, "agent": "codex"}`), /^h\.jsonl:3: "payload" is missing \(the hook's stdin JSON/);
    assert.match(parseErr('{"t": 1, "agent": "codex", "payload": [1]}'), /^h\.jsonl:1: "payload" must be an object/);
    assert.strictEqual(
      parseErr('{"t": 1, "agent": "cursor", "payload": {}}'),
      'h.jsonl:1: unknown agent "cursor" (one of claude-code, codex, opencode, gemini, hermes, copilot, qwen, kilocode, droid)',
    );
    assert.match(parseErr('{"t": 1, "payload": {}}'), /^h\.jsonl:1: "agent" is missing \(one of claude-code, /);
    assert.strictEqual(
      parseErr('{"t": 1, "at_ms": 1796229284638, "agent": "codex", "payload": {}}'),
      'h.jsonl:1: both "t" and "at_ms": give one',
    );
    assert.strictEqual(
      parseErr('{"at": 1796229284638, "agent": "codex", "payload": {}}'),
      'h.jsonl:1: no time: give "t" (seconds on the cast clock) or "at_ms" (epoch milliseconds)',
    );
    assert.strictEqual(
      parseErr('{"t": "1.5", "agent": "codex", "payload": {}}'),
      'h.jsonl:1: "t" must be a number (seconds on the cast clock)',
    );
    assert.strictEqual(
      parseErr('{"at_ms": -5, "agent": "codex", "payload": {}}'),
      'h.jsonl:1: "at_ms" must be epoch milliseconds, above 0',
    );
    assert.match(parseErr('[1, 2]'), /^h\.jsonl:1: not a JSON object/);
    assert.strictEqual(
      parseErr(`${ok}\n{"t": 1, "agent": "codex", "payload": {"x": "${'a'.repeat(HOOK_LINE_LIMIT)}"}}`),
      `h.jsonl:2: line longer than ${HOOK_LINE_LIMIT} characters`,
    );
  });

  it('the CLI: exit 2 with that one line; --t0 needs a log or hooks file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-hookfile-'));
    try {
      const cast = path.join(RECORDINGS, 'claude-code/08-esc-interrupt/session.cast');
      const bad = path.join(dir, 'bad.jsonl');
      fs.writeFileSync(bad, '{"t": 1, "agent": "claude-code", "payload": {}}\n{"t": 2, "agent": "amp", "payload": {}}\n');
      const errs: string[] = [];
      assert.strictEqual(
        main(
          ['replay', cast, '--hooks', bad],
          () => undefined,
          (s) => errs.push(s),
        ),
        2,
      );
      assert.deepStrictEqual(errs, [
        `agent-lens: ${bad}:2: unknown agent "amp" (one of claude-code, codex, opencode, gemini, hermes, copilot, qwen, kilocode, droid)`,
      ]);
      assert.strictEqual(
        main(
          ['replay', cast, '--hooks', path.join(dir, 'missing.jsonl')],
          () => undefined,
          (s) => errs.push(s),
        ),
        2,
      );
      assert.match(errs[1], /missing\.jsonl: cannot read: ENOENT/);
      assert.strictEqual(
        main(
          ['replay', cast, '--t0', '1796229490.451'],
          () => undefined,
          (s) => errs.push(s),
        ),
        2,
      );
      assert.match(errs[2], /--t0 places session logs and hooks on the cast clock: give --log FILE or --hooks FILE too/);
      assert.strictEqual(
        main(
          ['replay', cast, '--hooks'],
          () => undefined,
          (s) => errs.push(s),
        ),
        2,
      );
      assert.match(errs[3], /--hooks needs a value/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

interface Fixture {
  key: string;
  agent: string;
  dir: string;
  castFile: string;
  t0Ms: number;
  /** The recording's hooks in `at_ms` form and in `t` form (converted with the recording's own t = 0). */
  atFile: string;
  tFile: string;
}

/**
 * The stored recordings' hook payloads (converted by harness/recordingLogs.ts `recordingHooks`) replayed with
 * their screens through the extension's hook source, mapping and store. What fusion must show, read from the
 * recordings (FACTS.md §4 of each CLI): the permission dialog is one wait seen by both the screen and the
 * hook; the hook sees it first (its PermissionRequest fires as the dialog is drawn, before the screen has held
 * it for the debounce), so the wait is opened by the hook.
 */
describe('replay --hooks: stored recordings, screen + hooks through the store', function () {
  this.timeout(60_000);
  let tmp: string;
  const fx: Record<string, Fixture> = {};
  const keys = [
    'claude-code/04-bash-permission-approve',
    'codex/04-approval-approve',
    'opencode/04-permission-approve',
    'kilocode/04-permission-approve',
    'claude-code/08-esc-interrupt',
  ];

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'al-hookreplay-'));
    for (const key of keys) {
      const [agent] = key.split('/');
      // The hand-labelled recordings, or the harness's own (Kilo's are only there).
      const dir = [RECORDINGS, path.join(ROOT, 'test/fixtures/live')].map((r) => path.join(r, key)).find((d) => fs.existsSync(d))!;
      const castFile = path.join(dir, 'session.cast');
      const t0Ms = castStartMs(dir, parseCast(fs.readFileSync(castFile, 'utf8'), castFile));
      assert.ok(t0Ms, `${key}: no start time`);
      const hooks = recordingHooks(dir, agent);
      assert.ok(hooks.length > 0, `${key}: no recorded hooks`);
      const base = path.join(tmp, key.replace('/', '-'));
      const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
      fs.writeFileSync(`${base}.at.jsonl`, jsonl(hooks));
      fs.writeFileSync(`${base}.t.jsonl`, jsonl(hooks.map((h) => ({ t: (h.at_ms - t0Ms!) / 1000, agent: h.agent, payload: h.payload }))));
      fx[key] = { key, agent, dir, castFile, t0Ms: t0Ms!, atFile: `${base}.at.jsonl`, tFile: `${base}.t.jsonl` };
    }
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  function fused(f: Fixture) {
    const cast = parseCast(fs.readFileSync(f.castFile, 'utf8'), f.castFile);
    const hooks = hookReports(parseHookFile(f.atFile, fs.readFileSync(f.atFile, 'utf8')), f.t0Ms);
    const res = replayFused(cast, { commandLine: COMMAND_OF[f.agent], hooks, t0Ms: f.t0Ms });
    const session = res.store.sessions().find((s) => s.terminalId === 'replay');
    assert.ok(session, 'the replayed terminal has an agent session');
    const screenOnly = replayCast(cast, { commandLine: COMMAND_OF[f.agent] }).detections;
    return { ...res, session: session!, screenOnly };
  }

  const lastBeforeExit = (changes: ShownChange[]) => changes.filter((c) => c.state !== 'exited').at(-1)!;
  const show = (changes: ShownChange[]) =>
    changes.map((c) => `${c.t} ${c.state}${c.waitKind ? `/${c.waitKind}` : ''} ${c.source} ${c.evidence}`).join('\n');
  const permissionWait = (waits: Wait[]) => {
    const ws = waits.filter((w) => w.kind === 'permission');
    assert.strictEqual(ws.length, 1, `one permission wait: ${JSON.stringify(waits)}`);
    return ws[0];
  };

  /**
   * Who closes the wait is whoever first says the dialog is gone. Claude Code and Codex fire no hook when a
   * dialog is approved (only PostToolUse once the command ran), so the screen, which sees the dialog vanish
   * and the spinner return, closes it; OpenCode's plugin gets `permission.replied` the moment it is answered,
   * before the screen's redraw has settled, so the hook closes it.
   */
  const CLOSED_BY: Record<string, 'pty-scrape' | 'hook'> = {
    'claude-code/04-bash-permission-approve': 'pty-scrape',
    'codex/04-approval-approve': 'pty-scrape',
    'opencode/04-permission-approve': 'hook',
    // Kilo's plugin events are OpenCode's, reported as Kilo's.
    'kilocode/04-permission-approve': 'hook',
  };

  for (const key of Object.keys(CLOSED_BY)) {
    it(`${key}: one permission wait seen by screen and hook, opened by the hook, closed by ${CLOSED_BY[key]} after approval; the turn ends completed by the hook`, () => {
      const { changes, store, session, screenOnly } = fused(fx[key]);
      const w = permissionWait(session.waits);
      assert.deepStrictEqual([...w.seenBy].sort(), ['hook', 'pty-scrape'], show(changes));
      assert.strictEqual(w.openedBy, 'hook');
      assert.strictEqual(w.terminalId, 'replay');
      assert.ok(w.question, 'the hook names what the dialog would run');
      assert.strictEqual(w.closedBy, CLOSED_BY[key], show(changes));
      assert.ok(w.closedAt !== undefined && w.closedAt > w.openedAt + 10_000, 'held open ~20 s, then approved');
      assert.deepStrictEqual(store.waits(), [], 'no wait left open');
      // The shown state: waiting/permission, first said by the hook, earlier than the screen alone could.
      const hookWait = changes.find((c) => c.state === 'waiting' && c.waitKind === 'permission' && c.source === 'hook');
      const screenWait = screenOnly.find((d) => d.state === 'waiting');
      assert.ok(hookWait && screenWait && hookWait.t < screenWait.t, show(changes));
      assert.ok(
        changes.some((c) => c.state === 'waiting' && c.waitKind === 'permission' && c.source === 'pty-scrape'),
        show(changes),
      );
      // After approval it works again; the turn's end is the hook's word (Stop / session idle), not the screen's "stopped".
      const closed = w.closedAt! - fx[key].t0Ms;
      assert.ok(
        changes.some((c) => c.state === 'working' && c.t * 1000 >= closed - 1),
        show(changes),
      );
      assert.deepStrictEqual([lastBeforeExit(changes).state, lastBeforeExit(changes).source], ['completed', 'hook'], show(changes));
    });
  }

  it('claude-code/08-esc-interrupt: hooks are silent on an interrupt, so the shown state after it comes from the screen; no wait left open', () => {
    const f = fx['claude-code/08-esc-interrupt'];
    const { changes, store, session } = fused(f);
    assert.ok(
      changes.some((c) => c.state === 'working' && c.source === 'hook'),
      `the prompt's UserPromptSubmit was heard\n${show(changes)}`,
    );
    const last = lastBeforeExit(changes);
    assert.deepStrictEqual([last.state, last.source], ['stopped', 'pty-scrape'], show(changes));
    assert.match(last.evidence, /Interrupted/);
    assert.ok(!changes.some((c) => c.source === 'hook' && c.t > last.t), 'no hook word after the interrupt');
    assert.deepStrictEqual(store.waits(), []);
    assert.ok(
      session.waits.every((w) => w.closedAt !== undefined),
      JSON.stringify(session.waits),
    );
  });

  it('the built CLI (node dist/cli.js replay … --hooks …): at_ms form with --t0 and t form without it print the same lines, and the in-process main() agrees', () => {
    const cli = path.join(ROOT, 'dist/cli.js');
    assert.ok(fs.existsSync(cli), 'build first: node esbuild.mjs');
    for (const key of keys) {
      const f = fx[key];
      const common = ['replay', f.castFile, '--command-line', COMMAND_OF[f.agent]];
      const run = (args: string[]) => {
        const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
        assert.strictEqual(r.status, 0, `${key}: ${r.stderr}`);
        assert.strictEqual(r.stderr, '');
        return r.stdout.trimEnd().split('\n');
      };
      const atForm = run([...common, '--hooks', f.atFile, '--t0', String(f.t0Ms / 1000)]);
      const tForm = run([...common, '--hooks', f.tFile]);
      assert.deepStrictEqual(tForm, atForm, key);
      const inProcess: string[] = [];
      assert.strictEqual(
        main(
          [...common, '--hooks', f.atFile, '--t0', String(f.t0Ms / 1000)],
          (s) => inProcess.push(s),
          () => undefined,
        ),
        0,
      );
      assert.deepStrictEqual(inProcess, atForm, key);
      const lines = atForm.map((l) => JSON.parse(l) as { source: string; state: string; waitKind?: string });
      assert.ok(
        lines.some((l) => l.source === 'hook'),
        `${key}: hook words in the output\n${atForm.join('\n')}`,
      );
      if (key !== 'claude-code/08-esc-interrupt')
        assert.ok(
          lines.some((l) => l.source === 'hook' && l.state === 'waiting' && l.waitKind === 'permission'),
          atForm.join('\n'),
        );
    }
  });
});
