import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TerminalMemory, waitMarkerOpen } from '../../../../src/sources/terminal/terminalMemory';
import { markerName } from '../../../../src/hooks/markers';
import { parseRemembered, REMEMBERED_FOR_MS, type RememberedTerminal, rememberedWords } from '../../../../src/sources/terminal/remembered';
import { AgentStore } from '../../../../src/store/store';
import { SILENT } from '../../../../src/common/log';

/** A terminal revived after Reload Window gets back what it had: the agent's session, and a dialog that waited. */
describe('remembered terminals across a reload', () => {
  const now = 1_000_000;
  const r: RememberedTerminal = {
    shellPid: 100,
    agent: 'claude-code',
    agentPid: 200,
    cwd: '/work/demo-app',
    sessionIds: ['sess-1'],
    wait: {
      kind: 'permission',
      question: 'Bash: rm -rf build',
      options: ['Yes', 'No'],
      openedAt: now - 20_000,
      openedBy: 'hook',
      byHook: true,
    },
    savedAt: now - 5000,
  };
  const found = { agent: 'claude-code' as const, pid: 200 };

  it('brings back the session and the open dialog, dated from when it appeared', () => {
    const store = new AgentStore({ clock: { now: () => now } });
    store.openTerminal('t1', 'claude');
    for (const o of rememberedWords(r, 't1', found, true, now)) store.observe(o);
    const t = store.terminal('t1')!;
    assert.deepStrictEqual([t.agent, t.state, t.waitKind], ['claude-code', 'waiting', 'permission']);
    const [w] = store.waits();
    assert.deepStrictEqual([w.question, w.options, w.openedAt, w.terminalId], ['Bash: rm -rf build', ['Yes', 'No'], now - 20_000, 't1']);
    // Hooks of the session (Claude's Stop applies only to sessions the store knows) are taken again.
    assert.ok(store.knowsAgentSession('claude-code', 'sess-1'));
  });

  it('a dialog a hook saw stays closed when its marker is gone (answered during the reload)', () => {
    const words = rememberedWords(r, 't1', found, false, now);
    assert.ok(words.every((o) => o.state !== 'waiting'));
    assert.strictEqual(words.length, 1, 'the session id still comes back');
  });

  it('a dialog only the screen saw comes back whatever the markers say', () => {
    const screenOnly = { ...r, wait: { ...r.wait!, openedBy: 'pty-scrape' as const, byHook: false } };
    assert.ok(rememberedWords(screenOnly, 't1', found, false, now).some((o) => o.state === 'waiting'));
  });

  it('gives nothing for another agent, another process, or a memory too old', () => {
    assert.deepStrictEqual(rememberedWords(r, 't1', { agent: 'codex', pid: 200 }, true, now), []);
    assert.deepStrictEqual(rememberedWords(r, 't1', { agent: 'claude-code', pid: 201 }, true, now), []);
    assert.deepStrictEqual(rememberedWords(r, 't1', found, true, r.savedAt + REMEMBERED_FOR_MS + 1), []);
  });

  it('a newer word of any source closes the restored dialog as usual', () => {
    const store = new AgentStore({ clock: { now: () => now } });
    store.openTerminal('t1', 'claude');
    for (const o of rememberedWords(r, 't1', found, true, now)) store.observe(o);
    store.observe({
      source: 'jsonl-watcher',
      at: now + 1000,
      agent: 'claude-code',
      state: 'working',
      evidence: 'claude.tool_result',
      locator: { sessionId: 'sess-1' },
    });
    assert.deepStrictEqual([store.terminal('t1')!.state, store.waits().length], ['working', 0]);
  });

  it('a log read before the scan found the terminal is taken over when the remembered session comes back', () => {
    const store = new AgentStore({ clock: { now: () => now } });
    store.openTerminal('t1', 'claude');
    // The log's backlog is read at activation, before the revived terminal's agent is found: a session apart.
    store.observe({
      source: 'jsonl-watcher',
      at: now - 30_000,
      agent: 'claude-code',
      state: 'working',
      evidence: 'claude.prompt: "human"',
      prompt: true,
      locator: { sessionId: 'sess-1', cwd: '/work/demo-app' },
    });
    assert.strictEqual(store.terminal('t1')!.agent, 'shell');
    for (const o of rememberedWords({ ...r, wait: undefined }, 't1', found, true, now)) store.observe(o);
    store.observe({
      source: 'process',
      at: now,
      agent: 'claude-code',
      state: 'idle',
      evidence: 'process claude (pid 200), running since before this window (re)loaded',
      locator: { terminalId: 't1' },
    });
    const t = store.terminal('t1')!;
    assert.deepStrictEqual([t.agent, t.state, t.source], ['claude-code', 'working', 'jsonl-watcher']);
  });

  it('reads back only well-formed, recent entries from the workspace state', () => {
    const kept = parseRemembered([r, { ...r, savedAt: now - REMEMBERED_FOR_MS - 1 }, { shellPid: 'x' }, null, 7], now);
    assert.deepStrictEqual(kept, [r]);
    assert.deepStrictEqual(parseRemembered('garbage', now), []);
  });

  it('a window keeps it in a 0600 file at once, and the next window gives it back (a reload may end the host abruptly)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-mem-'));
    fs.chmodSync(dir, 0o700);
    const { file, markers } = rememberWait(dir, now);
    assert.strictEqual(fs.statSync(file).mode & 0o777, 0o600);
    fs.mkdirSync(markers);
    // Named as this platform's reporter names it: the agent's pid (POSIX), its session (Windows).
    fs.writeFileSync(path.join(markers, markerName(200, 'claude-code', 'sess-9')), '');
    const after = new AgentStore({ clock: { now: () => now } });
    after.openTerminal('t9', 'claude');
    const m2 = new TerminalMemory(file, after, FACTS, () => markers, SILENT);
    m2.agentFound('t9', { agent: 'claude-code', pid: 200 });
    assert.deepStrictEqual([after.terminal('t9')!.state, after.waits()[0]?.question], ['waiting', 'Bash: rm -rf build']);
    m2.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('whether a remembered wait is still open, by the marker each platform names', () => {
    let dir: string;
    beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-markers-'))));
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
    const touch = (name: string) => fs.writeFileSync(path.join(dir, name), '');

    for (const platform of ['linux', 'darwin'] as const)
      it(`${platform}: the marker of the agent process the scan found again`, () => {
        assert.strictEqual(waitMarkerOpen(dir, found, ['sess-1'], platform), false);
        touch('200');
        assert.strictEqual(waitMarkerOpen(dir, found, ['sess-1'], platform), true);
        assert.strictEqual(waitMarkerOpen(dir, { ...found, pid: 201 }, ['sess-1'], platform), false, 'another process');
      });

    it('win32: the marker of one of the terminal’s sessions (Windows names markers by session, not by process)', () => {
      touch('200'); // a pid name means nothing here: Windows hook shells cannot name the agent
      assert.strictEqual(waitMarkerOpen(dir, found, ['sess-0', 'sess-1'], 'win32'), false, 'answered during the reload');
      touch(markerName(4711, 'claude-code', 'sess-1', 'win32')); // the pid the reporter saw is its shell's: not in the name
      assert.strictEqual(waitMarkerOpen(dir, found, ['sess-0', 'sess-1'], 'win32'), true);
      assert.strictEqual(waitMarkerOpen(dir, { ...found, agent: 'codex' }, ['sess-1'], 'win32'), false, 'another agent’s session');
      assert.strictEqual(waitMarkerOpen(dir, found, [], 'win32'), undefined, 'no session to name it by: cannot tell');
    });

    it('no marker folder (no hook ever opened a wait, or another home): cannot tell', () => {
      for (const platform of ['linux', 'win32'] as const)
        assert.strictEqual(waitMarkerOpen(path.join(dir, 'none'), found, ['sess-1'], platform), undefined);
      assert.strictEqual(waitMarkerOpen(undefined, found, ['sess-1']), undefined);
    });

    it('win32 after a reload: the open permission comes back while its session’s marker is there, not after it is cleared', () => {
      const { file, markers } = rememberWait(dir, now, 'win32');
      fs.mkdirSync(markers);
      const marker = path.join(markers, markerName(9999, 'claude-code', 'sess-9', 'win32'));
      const revive = () => {
        const after = new AgentStore({ clock: { now: () => now } });
        after.openTerminal('t9', 'claude');
        const m2 = new TerminalMemory(file, after, FACTS, () => markers, SILENT, 'win32');
        m2.agentFound('t9', { agent: 'claude-code', pid: 200 });
        const seen = [after.terminal('t9')!.state, after.waits()[0]?.question];
        m2.dispose(); // writes what it has back, as a reload does
        return seen;
      };
      fs.writeFileSync(marker, '');
      assert.deepStrictEqual(revive(), ['waiting', 'Bash: rm -rf build']);
      fs.rmSync(marker);
      assert.deepStrictEqual(revive(), ['idle', undefined], 'answered in the terminal during the reload: the session, no wait');
    });
  });
});

/** The scan's facts both windows share: the terminal's shell and the agent in it. */
const FACTS = { shellPidOf: () => 100, agentPidOf: () => 200 };

/**
 * A window whose terminal t1 shows Claude Code's open permission (session sess-9), closed as a reload closes it:
 * what it remembered is in `file`, and `markers` is where the hooks' wait markers go (not created).
 */
function rememberWait(dir: string, now: number, platform?: NodeJS.Platform): { file: string; markers: string } {
  const file = path.join(dir, 'hubs', 'ws.terminals.json');
  const markers = path.join(dir, 'hubs', 'waiting');
  const before = new AgentStore({ clock: { now: () => now } });
  before.openTerminal('t1', 'claude');
  const m1 = new TerminalMemory(file, before, FACTS, () => markers, SILENT, platform);
  before.observe({
    source: 'hook',
    at: now - 1000,
    agent: 'claude-code',
    state: 'waiting',
    evidence: 'PermissionRequest',
    wait: { kind: 'permission', question: 'Bash: rm -rf build' },
    locator: { terminalId: 't1', sessionId: 'sess-9' },
  });
  m1.dispose();
  return { file, markers };
}
