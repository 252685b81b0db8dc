import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { FIXTURES } from '../../helpers';
import { ancestorsIn, terminalAmong, type TerminalPids, WindowsLineage } from '../../../../src/sources/hooks/lineage';
import { HookSource, TRACE_BUDGET_MS } from '../../../../src/sources/hooks/hookSource';
import { descendants, findAgent } from '../../../../src/sources/process/processTree';
import type { TableRow as WinProcess } from '../../../../src/sources/process/procTypes';
import { linkParents, parseCimProcesses } from '../../../../src/sources/process/windows';
import { AgentStore } from '../../../../src/store/store';

const DIR = path.join(FIXTURES, 'platform', 'win32');
/** The machine of cim-ps51.json, as the scan read it before any hook ran, and again while two hooks run. */
const before = linkParents(parseCimProcesses(fs.readFileSync(path.join(DIR, 'cim-ps51.json'), 'utf8')));
const during = linkParents(parseCimProcesses(fs.readFileSync(path.join(DIR, 'cim-ps51-hooks.json'), 'utf8')));

/** The terminals of that machine, known as Agent Lens knows them: each shell's pid, and the agent a scan found below it. */
function terminalsOf(rows: readonly WinProcess[]): TerminalPids {
  const shells = new Map<number, string>([
    [8200, 'T-claude'],
    [8400, 'T-claude-npm'],
    [8600, 'T-gemini'],
    [8700, 'T-codex'],
  ]);
  const agents = new Map<string, number>();
  for (const [pid, id] of shells) {
    const found = findAgent(descendants(rows, pid));
    if (found) agents.set(id, found.pid);
  }
  return { shellPids: shells, agentPids: agents };
}

/** A Windows report: the reporter's parent (the hook's shell) as `pid`, no ancestry. */
const report = (agent: string, pid: number, sessionId: string, event = 'UserPromptSubmit', cwd = 'C:\\Users\\张三\\proj') => ({
  v: 1,
  agent,
  at: Date.now(),
  pid,
  payload: { hook_event_name: event, session_id: sessionId, cwd },
});

describe('Windows reports: the hub walks up the CIM table from the hook’s shell to a terminal', () => {
  const t = terminalsOf(during);

  it('the scan finds Codex’s node launcher (codex.js), while its hooks run below codex.exe', () => {
    assert.strictEqual(t.agentPids.get('T-codex'), 8710);
    assert.deepStrictEqual(ancestorsIn(during, 10020).slice(0, 4), [8720, 8710, 8700, 7100]);
  });

  it('a Codex hook’s shell lands on the terminal whose scan found codex.js; a Claude Code one on its own', () => {
    assert.strictEqual(terminalAmong([10020, ...ancestorsIn(during, 10020)], t), 'T-codex');
    assert.strictEqual(terminalAmong([10010, ...ancestorsIn(during, 10010)], t), 'T-claude');
    // The reporter itself (a plugin's agent is the sender itself) walks the same way.
    assert.strictEqual(terminalAmong([10021, ...ancestorsIn(during, 10021)], t), 'T-codex');
  });

  it('the agent the scan found names the terminal where the link up to the shell is not known', () => {
    const noShell = { shellPids: new Map([...t.shellPids].filter(([pid]) => pid !== 8700)), agentPids: t.agentPids };
    assert.strictEqual(terminalAmong([10020, ...ancestorsIn(during, 10020)], noShell), 'T-codex');
  });

  it('a shell wins over an agent pid kept from an earlier scan (Windows reuses ids soon)', () => {
    const stale = { shellPids: t.shellPids, agentPids: new Map([...t.agentPids, ['T-gemini', 8720]]) };
    assert.strictEqual(terminalAmong([10020, ...ancestorsIn(during, 10020)], stale), 'T-codex');
  });

  it('a hook shell whose parent id a newer process took is placed nowhere, not under that process’s terminal', () => {
    assert.deepStrictEqual(ancestorsIn(during, 10030), []);
    assert.strictEqual(terminalAmong([10030], t), undefined);
  });

  it('the walk is bounded and stops at loops and at parents the table lacks', () => {
    const loop = [
      { pid: 1, ppid: 2 },
      { pid: 2, ppid: 3 },
      { pid: 3, ppid: 1 },
    ];
    assert.deepStrictEqual(ancestorsIn(loop, 1), [2, 3]);
    assert.deepStrictEqual(ancestorsIn(loop, 99), []);
    const chain = Array.from({ length: 500 }, (_, i) => ({ pid: i + 1, ppid: i + 2 }));
    assert.strictEqual(ancestorsIn(chain, 1).length, 64);
    // 6032 is named by explorer's row as its parent, but has none of its own (it exited): the walk ends there.
    assert.deepStrictEqual(ancestorsIn(during, 10011), [10010, 8300, 8200, 7100, 7000, 6120, 6032]);
  });
});

/** A lineage over tables given: the scan's shared one (read before the hooks) and reads made now. */
function lineage(reads: (readonly WinProcess[] | Promise<never>)[], shared: readonly WinProcess[] | undefined = before) {
  const made = { reads: 0 };
  const fresh = {
    read: () => {
      const r = reads[Math.min(made.reads++, reads.length - 1)];
      return r instanceof Promise ? r : Promise.resolve([...r]);
    },
  };
  return { l: new WindowsLineage({ latest: () => (shared ? [...shared] : undefined) }, fresh), made };
}

describe('WindowsLineage: a table that holds the hook’s shell, read within the report’s time', () => {
  it('the scan’s table serves a process it already holds (a plugin’s agent): no read', async () => {
    const { l, made } = lineage([during]);
    assert.deepStrictEqual(await l.ancestry(8710, 1000), ancestorsIn(before, 8710));
    assert.strictEqual(made.reads, 0);
  });

  it('a hook’s shell, newer than the scan’s table: a table is read now', async () => {
    const { l, made } = lineage([during]);
    assert.deepStrictEqual((await l.ancestry(10020, 1000))?.slice(0, 3), [8720, 8710, 8700]);
    assert.strictEqual(made.reads, 1);
  });

  it('a read that had started before the shell did is followed by one more', async () => {
    const { l, made } = lineage([before, during]);
    assert.deepStrictEqual((await l.ancestry(10010, 1000))?.slice(0, 2), [8300, 8200]);
    assert.strictEqual(made.reads, 2);
  });

  it('gives up within its budget: a query that hangs, or tables that never hold the process', async () => {
    const hang = lineage([new Promise<never>(() => undefined)]);
    const started = Date.now();
    assert.strictEqual(await hang.l.ancestry(10020, 60), undefined);
    assert.ok(Date.now() - started < 1000);
    const never = lineage([before]);
    assert.strictEqual(await never.l.ancestry(10020, 1000), undefined);
    assert.strictEqual(never.made.reads, 2, 'two reads at most');
    const failing = lineage([Promise.reject(new Error('PowerShell failed')) as Promise<never>]);
    assert.strictEqual(await failing.l.ancestry(10020, 200), undefined);
  });
});

describe('HookSource with ancestryOf: a report with no ancestry waits for it until its session has a terminal', () => {
  function rig(reads: (readonly WinProcess[] | Promise<never>)[] = [during]) {
    const store = new AgentStore();
    for (const id of ['T-claude', 'T-claude-npm', 'T-gemini', 'T-codex']) store.openTerminal(id, id);
    const { l, made } = lineage(reads);
    const asked: number[] = [];
    const hooks = new HookSource(store, {
      terminalFor: (pids) => terminalAmong(pids, terminalsOf(during)),
      ancestryOf: (pid, budget) => {
        asked.push(pid);
        assert.strictEqual(budget, TRACE_BUDGET_MS);
        return l.ancestry(pid, budget);
      },
    });
    return { store, hooks, asked, made };
  }

  it('a Codex report from its hook’s shell lands on the terminal whose scan found codex.js', async () => {
    const { store, hooks, asked } = rig();
    await hooks.handle(report('codex', 10020, 'thread-1'));
    assert.deepStrictEqual([store.terminal('T-codex')!.agent, store.terminal('T-codex')!.state], ['codex', 'working']);
    assert.strictEqual(store.terminal('T-gemini')!.agent, 'shell');
    // The session has its terminal now: the next report is recorded at once, without a table.
    assert.strictEqual(hooks.handle(report('codex', 10099, 'thread-1', 'Stop')), undefined);
    assert.deepStrictEqual(asked, [10020]);
    assert.strictEqual(store.terminal('T-codex')!.state, 'completed');
  });

  it('a Claude Code report lands on its terminal; one no table places is held twice per session at most', async () => {
    const { store, hooks, asked } = rig();
    await hooks.handle(report('claude-code', 10010, 'sess-a'));
    assert.strictEqual(store.terminal('T-claude')!.agent, 'claude-code');
    // Another folder: the binder does not link it to T-claude by its turn start either.
    for (let i = 0; i < 3; i++) await hooks.handle(report('claude-code', 10030, 'sess-orphan', 'UserPromptSubmit', 'D:\\elsewhere'));
    assert.deepStrictEqual(asked, [10010, 10030, 10030]);
    assert.strictEqual(store.terminal('T-codex')!.agent, 'shell', 'the orphaned shell’s reused parent id is not followed');
  });

  it('not held: reports that carry their ancestry (POSIX), or no session id to follow later ones by', async () => {
    const { hooks, asked } = rig();
    assert.strictEqual(hooks.handle({ ...report('codex', 10020, 'thread-2'), ancestry: [8720, 8710, 8700] }), undefined);
    const { session_id: _drop, ...noSession } = report('codex', 10020, 'x').payload;
    assert.strictEqual(hooks.handle({ ...report('codex', 10020, 'x'), payload: noSession }), undefined);
    assert.deepStrictEqual(asked, []);
  });

  it('a table that cannot be read in time: the report is recorded as before, in no terminal', async () => {
    const { store, hooks } = rig([Promise.reject(new Error('PowerShell failed')) as Promise<never>]);
    await hooks.handle(report('codex', 10020, 'thread-3'));
    assert.strictEqual(store.terminal('T-codex')!.agent, 'shell');
    assert.ok(store.knowsAgentSession('codex', 'thread-3'), 'the session is still recorded, for the binder to link');
  });

  it('a malformed report is still refused with 400, held or not', async () => {
    const { hooks } = rig();
    assert.throws(() => hooks.handle({ v: 1, agent: 'codex' }), /not a report/);
  });
});
