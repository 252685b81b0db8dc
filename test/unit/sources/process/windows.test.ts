import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { FIXTURES } from '../../helpers';
import { candidates, seenAmong, terminalVerdict } from '../../../../src/handoff/targets';
import type { TeamAgent } from '../../../../src/handoff/team/schema';
import { descendants, findAgent, findAgents, isInteractiveShell, isShellName } from '../../../../src/sources/process/processTree';
import { AgentCensus, censusOf, countWithoutFolders, sessionsIn } from '../../../../src/sources/process/agentCensus';
import { agentCwds } from '../../../../src/sources/process/agentCwd';
import { processStartedBefore, startedBeforeIn } from '../../../../src/sources/process/startTicks';
import { ProcessTable, SCAN_AGE_MS, TABLE_READERS, type TableRow } from '../../../../src/sources/process/table';
import {
  CIM_COMMAND,
  linkParents,
  parseCimDate,
  parseCimProcesses,
  powershellExe,
  readCimTable,
} from '../../../../src/sources/process/windows';
import { splitWindowsCommandLine } from '../../../../src/sources/process/windowsArgv';

const DIR = path.join(FIXTURES, 'platform', 'win32');
const read = (f: string) => fs.readFileSync(path.join(DIR, f), 'utf8');
const table = (f = 'cim-ps51.json') => linkParents(parseCimProcesses(read(f)));
const byPid = (rows: readonly TableRow[], pid: number) => rows.find((p) => p.pid === pid)!;
const NPM = 'C:\\Users\\张三\\AppData\\Roaming\\npm';
/** Windows' table (TABLE_READERS.win32) with the PowerShell query answered by `run`. */
const winTable = (run: () => Promise<string>, now?: () => number) =>
  new ProcessTable({ ...TABLE_READERS.win32!, read: readCimTable(run) }, now);

describe('Windows process table: the CIM JSON (test/fixtures/platform/win32, built from the documented formats)', () => {
  it('reads Windows PowerShell 5.1 output: \\/Date()\\/, \\u0027, hidden command lines, non-ASCII paths', () => {
    const rows = parseCimProcesses(read('cim-ps51.json'));
    assert.strictEqual(rows.length, 23);
    assert.deepStrictEqual(byPid(rows, 0), { pid: 0, ppid: 0, name: 'System Idle Process', args: [] }, 'no command line, no date');
    assert.deepStrictEqual(byPid(rows, 4).args, []);
    assert.strictEqual(byPid(rows, 4).started, 1733470000000);
    assert.deepStrictEqual(byPid(rows, 8500).args, [
      'C:\\Program Files\\nodejs\\node.exe',
      `${NPM}\\node_modules\\@anthropic-ai\\claude-code\\cli.js`,
    ]);
    // npm's .cmd shim: "%dp0%\node_modules…" with %~dp0 ending in a backslash; the prompt's ' < > & escaped by 5.1.
    assert.deepStrictEqual(byPid(rows, 8620).args, [
      'node',
      `${NPM}\\\\node_modules\\@google\\gemini-cli\\dist\\index.js`,
      '--prompt-interactive',
      "fix Bob's <div> & test",
    ]);
    // VS Code's shell integration: a quoted argument holding \" around a path with spaces and a lower-case drive.
    assert.deepStrictEqual(byPid(rows, 8200).args.slice(1), [
      '-noexit',
      '-command',
      'try { . "c:\\Users\\张三\\AppData\\Local\\Programs\\Microsoft VS Code\\resources\\app\\out\\vs\\workbench\\contrib\\terminal\\common\\scripts\\shellIntegration.ps1" } catch {}',
    ]);
  });

  it('reads PowerShell 7 output as the same table: ISO dates with an offset and 100 ns ticks', () => {
    const five = parseCimProcesses(read('cim-ps51.json'));
    const seven = parseCimProcesses(read('cim-ps7.json'));
    assert.deepStrictEqual(
      seven.map(({ started: _s, ...p }) => p),
      five.map(({ started: _s, ...p }) => p),
    );
    for (const p of seven) {
      const s = byPid(five, p.pid).started;
      if (s === undefined) assert.strictEqual(p.started, undefined);
      else assert.ok(Math.abs(p.started! - s - 0.1234) < 1e-3, `pid ${p.pid}: ${p.started} vs ${s}`);
    }
  });

  it('reads a single process (an object, not an array) after a byte-order mark', () => {
    assert.deepStrictEqual(parseCimProcesses(read('cim-ps51-single-bom.json')), [
      { pid: 8300, ppid: 8200, name: 'claude.exe', args: ['C:\\Users\\张三\\.local\\bin\\claude.exe', '--resume'], started: 1733470700000 },
    ]);
  });

  it('never throws on garbage: an empty table, or the rows that have numeric ids', () => {
    for (const bad of [
      '',
      '\uFEFF',
      'not json',
      '[1, 2]',
      'null',
      '"x"',
      '{"ProcessId":"4","ParentProcessId":0}',
      '[{"ProcessId":-1,"ParentProcessId":0}]',
    ])
      assert.deepStrictEqual(parseCimProcesses(bad), [], JSON.stringify(bad));
    const mixed = parseCimProcesses(
      '[{"ProcessId":1.5,"ParentProcessId":0},{"ProcessId":7,"ParentProcessId":1,"Name":5,"CommandLine":{"x":1}}]',
    );
    assert.deepStrictEqual(mixed, [{ pid: 7, ppid: 1, name: '', args: [] }]);
    const long = parseCimProcesses(
      JSON.stringify({ ProcessId: 9, ParentProcessId: 1, Name: 'n'.repeat(5000), CommandLine: 'a '.repeat(100_000) }),
    );
    assert.strictEqual(long[0].name.length, 260);
    assert.strictEqual(long[0].args.length, 256);
  });

  it('reads CreationDate in each serialisation, and nothing else as a date', () => {
    assert.strictEqual(parseCimDate('/Date(1733480000000)/'), 1733480000000);
    assert.strictEqual(parseCimDate('/Date(1733480000000+0100)/'), 1733480000000, 'the ms are UTC; the offset is decoration');
    assert.strictEqual(parseCimDate({ value: '/Date(5)/', DisplayHint: 2 }), 5, 'a DateTime with extended properties');
    assert.strictEqual(parseCimDate('2024-12-06T11:13:20.5+01:00'), Date.UTC(2024, 11, 6, 10, 13, 20, 500));
    assert.strictEqual(parseCimDate('2024-12-06T10:13:20Z'), Date.UTC(2024, 11, 6, 10, 13, 20));
    assert.strictEqual(parseCimDate('2024-12-06T10:13:20'), new Date(2024, 11, 6, 10, 13, 20).getTime(), 'no offset: local time');
    for (const bad of [null, 5, '', '2024-13-45T99:00:00', `/Date(${'9'.repeat(70)})/`, '/Date(abc)/', '12/06/2024 10:13:20'])
      assert.strictEqual(parseCimDate(bad), undefined, JSON.stringify(bad));
  });

  it("drops a parent link to a reused id: a 'parent' that started after its child is another process", () => {
    const raw = parseCimProcesses(read('cim-ps51.json'));
    assert.strictEqual(byPid(raw, 9600).ppid, 8200, 'as Windows reports it');
    const rows = linkParents(raw);
    assert.strictEqual(byPid(rows, 9600).ppid, -1);
    assert.strictEqual(byPid(rows, 8300).ppid, 8200, 'a real child keeps its parent');
    assert.strictEqual(byPid(rows, 0).ppid, 0, 'no date: kept as reported');
    assert.deepStrictEqual(
      descendants(rows, 8200).map((p) => p.pid),
      [8300],
    );
  });

  it('asks Windows PowerShell by its full path, in UTF-8, for exactly the five properties read', () => {
    assert.strictEqual(powershellExe({ SystemRoot: 'C:\\WINDOWS' }), 'C:\\WINDOWS\\System32\\WindowsPowerShell\\v1.0\\powershell.exe');
    assert.strictEqual(powershellExe({}), 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe');
    assert.match(
      CIM_COMMAND,
      /^\$ProgressPreference='SilentlyContinue';\[Console\]::OutputEncoding=New-Object System\.Text\.UTF8Encoding \$false;/,
    );
    assert.match(
      CIM_COMMAND,
      /Get-CimInstance -ClassName Win32_Process \| Select-Object ProcessId,ParentProcessId,Name,CommandLine,CreationDate \| ConvertTo-Json -Compress$/,
    );
    assert.doesNotMatch(CIM_COMMAND, /wmic/i);
  });
});

describe('Windows command lines (the C runtime rules)', () => {
  const split = (s: string) => splitWindowsCommandLine(s);
  it('splits the examples of Microsoft\'s "Parsing C command-line arguments" table', () => {
    // Each after a program name: the first argument has rules of its own (below).
    assert.deepStrictEqual(split('p "a b c" d e').slice(1), ['a b c', 'd', 'e']);
    assert.deepStrictEqual(split('p "ab\\"c" "\\\\" d').slice(1), ['ab"c', '\\', 'd']);
    assert.deepStrictEqual(split('p a\\\\\\b d"e f"g h').slice(1), ['a\\\\\\b', 'de fg', 'h']);
    assert.deepStrictEqual(split('p a\\\\\\"b c d').slice(1), ['a\\"b', 'c', 'd']);
    assert.deepStrictEqual(split('p a\\\\\\\\"b c" d e').slice(1), ['a\\\\b c', 'd', 'e']);
    assert.deepStrictEqual(split('p a"b"" c d').slice(1), ['ab" c d']);
  });

  it('takes the program name up to its closing quote, backslashes and all', () => {
    assert.deepStrictEqual(
      split(
        '"C:\\Program Files\\nodejs\\node.exe" "C:\\Users\\张三\\AppData\\Roaming\\npm\\node_modules\\@anthropic-ai\\claude-code\\cli.js"',
      ),
      ['C:\\Program Files\\nodejs\\node.exe', 'C:\\Users\\张三\\AppData\\Roaming\\npm\\node_modules\\@anthropic-ai\\claude-code\\cli.js'],
    );
    assert.deepStrictEqual(split('"C:\\dir\\" x'), ['C:\\dir\\', 'x'], 'no escape in the program name');
    assert.deepStrictEqual(split('  \tC:\\x\\codex.exe\texec  "" last'), ['C:\\x\\codex.exe', 'exec', '', 'last']);
    assert.deepStrictEqual(split('"unterminated program'), ['unterminated program']);
    assert.deepStrictEqual(split('p "unterminated arg'), ['p', 'unterminated arg']);
    assert.deepStrictEqual(split(''), []);
    assert.deepStrictEqual(split(' \t '), []);
    assert.strictEqual(splitWindowsCommandLine('p ' + 'x '.repeat(1000), 5).length, 5);
  });
});

describe('agents in a Windows table', () => {
  const rows = table();

  it("finds each terminal's agent: the native claude.exe, node running npm's scripts, not cmd.exe nor a stale child", () => {
    const found = (shell: number) => {
      const f = findAgent(descendants(rows, shell));
      return f && { agent: f.agent, pid: f.pid };
    };
    assert.deepStrictEqual(found(8200), { agent: 'claude-code', pid: 8300 });
    assert.deepStrictEqual(found(8400), { agent: 'claude-code', pid: 8500 });
    assert.deepStrictEqual(found(8600), { agent: 'gemini', pid: 8620 }, 'cmd.exe /d /s /c is no agent; the node below it is');
    assert.deepStrictEqual(
      found(8700),
      { agent: 'codex', pid: 8710 },
      'codex.js, nearest the shell, before the codex.exe it keeps running',
    );
    assert.deepStrictEqual(
      findAgents(descendants(rows, 8700)).map((a) => a.pid),
      [8710, 8720],
    );
  });

  it("knows Git for Windows' bash.exe for a shell, and PowerShell's and cmd's shells for none (they start programs apart)", () => {
    assert.ok(isShellName('bash.exe'));
    assert.ok(isShellName('C:\\Program Files\\Git\\usr\\bin\\BASH.EXE'));
    assert.ok(isInteractiveShell({ pid: 1, ppid: 0, name: 'bash.exe', args: ['C:\\Program Files\\Git\\bin\\bash.exe', '--login', '-i'] }));
    assert.ok(!isShellName('pwsh.exe'));
    assert.ok(!isShellName('cmd.exe'));
    const agent = { key: 'cc', process: 'claude' } as TeamAgent;
    assert.deepStrictEqual(
      candidates(agent, descendants(rows, 8200), 8200).map((p) => p.pid),
      [8300],
      'claude.exe by its image name',
    );
  });

  it('the same from the PowerShell 7 table', () => {
    assert.strictEqual(findAgent(descendants(table('cim-ps7.json'), 8600))?.pid, 8620);
  });

  it('census: a launcher and its program once, helpers never, hidden command lines counted as doubt', () => {
    const procs = censusOf(rows);
    const c = { agents: sessionsIn(procs), hidden: procs.filter((p) => p.hidden).length };
    assert.deepStrictEqual(c.agents.map((a) => `${a.agent}:${a.pid}`).sort(), [
      'claude-code:8300',
      'claude-code:8500',
      'claude-code:9600',
      'codex:8710',
      'gemini:8620',
    ]);
    assert.strictEqual(c.hidden, 1, 'the elevated node.exe');
    assert.strictEqual(countWithoutFolders(c, 'claude-code'), undefined, 'three on the machine: cannot tell per folder');
    assert.strictEqual(countWithoutFolders(c, 'gemini'), undefined, 'one, but the hidden node.exe may be another');
    assert.strictEqual(countWithoutFolders(c, 'amp'), undefined, 'none seen, but the hidden one may be');
    const rest = censusOf(rows.filter((p) => p.pid !== 9300));
    const clear = { agents: sessionsIn(rest), hidden: rest.filter((p) => p.hidden).length };
    assert.strictEqual(countWithoutFolders(clear, 'gemini'), 1, 'the only gemini on the machine is the one in any folder');
    assert.strictEqual(countWithoutFolders(clear, 'codex'), 1, 'the app-server helper is no session');
    assert.strictEqual(countWithoutFolders(clear, 'amp'), 0);
  });

  it('census count from the shared table: undefined until a fresh table is there, then by the machine-wide rule', async () => {
    let calls = 0;
    const t = winTable(() => {
      calls++;
      return Promise.resolve(read('cim-ps51.json').replace(/,\{"ProcessId":9300[^}]*\}/, ''));
    });
    const census = new AgentCensus('/nonexistent', 'win32', {
      table: (age) => t.snapshot(age),
      cwds: (pids) => agentCwds(pids, 'win32'),
    });
    assert.strictEqual(census.count('gemini', 'C:\\work'), undefined, 'no table yet: cannot tell, a read starts');
    await census.refresh();
    assert.strictEqual(calls, 1);
    assert.strictEqual(census.count('gemini', 'C:\\work'), 1);
    assert.strictEqual(census.count('gemini', 'D:\\elsewhere'), 1, 'no folders on Windows: the one on the machine');
    assert.strictEqual(census.count('claude-code', 'C:\\work'), undefined, 'three on the machine');
    assert.strictEqual(census.count('amp', 'C:\\work'), 0);
    assert.strictEqual(calls, 1, 'counts answered from the one table');
  });

  it('startedBefore from CreationDate', async () => {
    assert.strictEqual(startedBeforeIn(rows, 8200, 8300), true);
    assert.strictEqual(startedBeforeIn(rows, 8300, 8200), false);
    assert.strictEqual(startedBeforeIn(rows, 0, 8200), undefined, 'the Idle process has no date');
    assert.strictEqual(startedBeforeIn(rows, 8200, 123456), undefined, 'gone');
    assert.strictEqual(
      startedBeforeIn(
        [
          { pid: 1, ppid: 0, name: 'a', args: [], started: 5 },
          { pid: 2, ppid: 0, name: 'b', args: [], started: 5 },
        ],
        1,
        2,
      ),
      undefined,
    );
    const t = winTable(() => Promise.resolve(read('cim-ps7.json')));
    assert.strictEqual(await processStartedBefore(8400, 8500, 'win32', undefined, t), true);
    const broken = winTable(() => Promise.reject(new Error('no PowerShell')));
    assert.strictEqual(await processStartedBefore(8400, 8500, 'win32', undefined, broken), undefined);
  });

  it('a dispatch to a Windows terminal: its process below the shell, the foreground unknown, so the store decides', async () => {
    const agent = { key: 'cc', process: 'claude' } as TeamAgent;
    const procs = descendants(rows, 8400);
    const found = candidates(agent, procs, 8400);
    assert.deepStrictEqual(
      found.map((p) => p.pid),
      [8500],
      'process = "claude" is node.exe running claude-code/cli.js',
    );
    const seen = await seenAmong(8400, found, () => Promise.resolve('unknown'));
    assert.deepStrictEqual(seen, { pid: 8500, fg: 'unknown' });
    assert.deepStrictEqual(terminalVerdict(agent, { open: true, agent: seen, seen: { agent: 'claude-code', state: 'waiting' } }), {
      ok: true,
      pid: 8500,
    });
    const v = terminalVerdict(agent, { open: true, agent: seen, seen: { agent: 'shell', state: 'idle' } });
    assert.strictEqual(v.ok, false, 'no running agent shown: nothing is typed on a guess');
  });
});

describe('the shared table on Windows (one PowerShell call per scan: TABLE_READERS.win32)', () => {
  const ok = '[{"ProcessId":1,"ParentProcessId":0,"Name":"a.exe","CommandLine":"a.exe"}]';
  const setup = () => {
    let now = 1000;
    let calls = 0;
    const answers: ((v: string) => void)[] = [];
    const failures: ((e: Error) => void)[] = [];
    const t = winTable(
      () =>
        new Promise<string>((res, rej) => {
          calls++;
          answers.push(res);
          failures.push(rej);
        }),
      () => now,
    );
    return {
      t,
      calls: () => calls,
      answer: (i: number, v = ok) => answers[i](v),
      fail: (i: number) => failures[i](new Error('boom')),
      at: (ms: number) => (now = ms),
    };
  };

  it('shares a query in flight and its answer for 2 s, whatever younger table a reader asks for, then asks again', async () => {
    const s = setup();
    const a = s.t.rows(SCAN_AGE_MS);
    const b = s.t.rows(SCAN_AGE_MS);
    assert.strictEqual(s.calls(), 1, 'readers of one scan share the query in flight');
    s.answer(0);
    assert.strictEqual((await a)[0].pid, 1);
    assert.strictEqual(await b, await a);
    s.at(2900);
    await s.t.rows(SCAN_AGE_MS);
    assert.strictEqual(s.calls(), 1, 'fresh: 1.9 s after it was asked, though the reader asked for 0.5 s');
    s.at(3001);
    const c = s.t.rows(SCAN_AGE_MS);
    assert.strictEqual(s.calls(), 2, 'stale: asked again');
    s.answer(1);
    await c;
  });

  it('keeps no failed query, and serves no table older than its 2 s', async () => {
    const s = setup();
    const first = s.t.rows(SCAN_AGE_MS);
    assert.strictEqual(s.calls(), 1);
    s.fail(0);
    await assert.rejects(first, /boom/);
    const second = s.t.rows(SCAN_AGE_MS);
    assert.strictEqual(s.calls(), 2, 'the failure was not kept: asked again');
    s.answer(1);
    assert.strictEqual((await second).length, 1);
    s.at(4000);
    const third = s.t.rows(SCAN_AGE_MS);
    assert.strictEqual(s.calls(), 3, 'too old: asked again');
    s.answer(2);
    await third;
  });
});
