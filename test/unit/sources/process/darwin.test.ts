/**
 * macOS's process tools read as text (src/sources/process/darwin.ts, src/common/psParents.ts), on outputs laid out
 * as Apple's ps, lsof and stty print them (test/fixtures/platform/darwin/SOURCES.md says how each was built), then
 * on garbage. Pure: the same on every platform the suite is forced to.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { chainOf, parseParents } from '../../../../src/common/psParents';
import {
  lsofCwdArgs,
  parseLsofCwds,
  parseLstart,
  parsePs,
  parseSttySize,
  type PsRow,
  unescapeLsof,
} from '../../../../src/sources/process/darwin';
import { descendants, findAgent, findAgents, foregroundFrom, isInteractiveShell } from '../../../../src/sources/process/processTree';
import { FIXTURES } from '../../helpers';

const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, 'platform', 'darwin', name), 'utf8');

describe('macOS ps table (ps -axww -o pid=,ppid=,pgid=,tpgid=,tty=,ucomm=,args=)', () => {
  const rows = parsePs(fixture('ps-table.txt'));
  const row = (pid: number): PsRow => rows.find((r) => r.pid === pid)!;

  it('reads every line, with its job fields; a process without a terminal has no tty', () => {
    assert.strictEqual(rows.length, 16);
    assert.deepStrictEqual(row(1), {
      pid: 1,
      ppid: 0,
      name: 'launchd',
      args: ['/sbin/launchd'],
      exe: 'launchd',
      job: { pid: 1, pgid: 1, tpgid: 0, tty: '' },
    });
    // tpgid 41010 is wider than its column (4): the line shifts right and is still read.
    assert.deepStrictEqual(row(41002).job, { pid: 41002, pgid: 41002, tpgid: 41010, tty: 'ttys000' });
  });

  it('keeps an executable path with spaces whole, up to the component the kernel names (cut at 16)', () => {
    const gpu = row(9828);
    assert.strictEqual(gpu.exe, 'Code Helper (GPU');
    assert.strictEqual(
      gpu.args[0],
      '/Applications/Visual Studio Code.app/Contents/Frameworks/Code Helper (GPU).app/Contents/MacOS/Code Helper (GPU)',
    );
    assert.strictEqual(gpu.args[1], '--type=gpu-process');
    assert.strictEqual(gpu.name, 'Code Helper (GPU)');
    const pty = row(9850);
    assert.strictEqual(pty.args[0], '/Applications/Visual Studio Code.app/Contents/Frameworks/Code Helper.app/Contents/MacOS/Code Helper');
    assert.strictEqual(pty.name, 'Code Helper');
    // An argument is not part of argv[0] because it follows a space: "(System)" stays an argument.
    assert.deepStrictEqual(row(95).args, ['/usr/libexec/UserEventAgent', '(System)']);
  });

  it('names a process by argv[0] (a native Claude Code runs a file named for its version), a shell by its executable', () => {
    assert.strictEqual(row(41010).exe, '2.1.37');
    assert.strictEqual(row(41010).name, 'claude');
    assert.deepStrictEqual([row(41002).name, row(41002).args], ['zsh', ['-zsh']]);
    assert.deepStrictEqual([row(41300).name, row(41300).args], ['mdworker_shared', ['mdworker_shared']], 'arguments ps could not read');
    assert.deepStrictEqual([row(41301).name, row(41301).args], ['git', ['git']], 'a zombie');
  });

  it('finds each terminal’s agent, and tells who holds each terminal', () => {
    assert.deepStrictEqual(findAgent(descendants(rows, 41002)), {
      agent: 'claude-code',
      evidence: 'process claude (pid 41010)',
      pid: 41010,
    });
    assert.deepStrictEqual(
      findAgents(descendants(rows, 41100)).map((a) => [a.agent, a.pid]),
      [
        ['codex', 41120],
        ['codex', 41121],
      ],
    );
    assert.strictEqual(findAgent(descendants(rows, 41200)), undefined);
    assert.strictEqual(foregroundFrom(row(41002).job, row(41010).job), 'foreground');
    assert.strictEqual(foregroundFrom(row(41100).job, row(41121).job), 'foreground', 'the launcher’s child shares its group');
    assert.strictEqual(foregroundFrom(row(41200).job, row(41210).job), 'background');
    assert.strictEqual(foregroundFrom(row(41002).job, row(41121).job), 'background', 'another terminal’s process');
    assert.ok(isInteractiveShell(row(41200)) && isInteractiveShell(row(41002)));
  });

  it('reads the layout of procps (ucomm in 15) when told its width, and any layout by its first space', () => {
    const procps = '    1     0     0    -1 ?        process_api     /process_api --addr 0.0.0.0:2024\n';
    const [p] = parsePs(procps, 15);
    assert.deepStrictEqual([p.exe, p.args, p.job.tty, p.job.tpgid], ['process_api', ['/process_api', '--addr', '0.0.0.0:2024'], '', -1]);
    const [q] = parsePs(procps);
    assert.deepStrictEqual([q.exe, q.args], ['process_api', ['/process_api', '--addr', '0.0.0.0:2024']]);
  });

  it('skips what is not a row, never throws, and bounds what it keeps', () => {
    const junk = ['', 'PID PPID', '12 x 3 4 ??', '\u0000\uffff', ' 7 1 1 0 ??', '-1 2 3 4 tty x'].join('\n');
    assert.deepStrictEqual(
      parsePs(junk).map((r) => [r.pid, r.name, r.args]),
      [[7, '', []]],
    );
    const long = `  9     1     9    0 ??       node             node /x/claude${' --flag\r'.repeat(50_000)}`;
    const t = Date.now();
    const [r] = parsePs(long);
    assert.ok(Date.now() - t < 1000, 'linear in the line');
    assert.strictEqual(r.args.length, 256, 'arguments kept per process');
    assert.strictEqual(parsePs('  1     0     1    0 ??       a                a\n'.repeat(70_000)).length, 65_536);
  });
});

describe('macOS lsof working folders (lsof -a -d cwd -Ffn -p …)', () => {
  it('asks for the cwd of exactly these processes, the fd field by name', () => {
    assert.deepStrictEqual(lsofCwdArgs([41010, 41120]), ['-a', '-d', 'cwd', '-Ffn', '-p', '41010,41120']);
  });

  it('reads each process’s folder: spaces, non-ASCII bytes as \\xNN, lsof’s own escapes', () => {
    assert.deepStrictEqual(
      parseLsofCwds(fixture('lsof-cwd.txt')),
      new Map([
        [41010, '/Users/me/src/agent lens'],
        [41120, '/Users/me/src/中文 app'],
        [41121, '/Users/me/src/中文 app'],
        [41200, '/Users/me/odd\\name\tx'],
      ]),
    );
  });

  it('reads lsof 4.99’s bare -Fn too (no f lines), and only a cwd where f lines say which', () => {
    assert.deepStrictEqual(
      parseLsofCwds('p12\nn/a b\np13\nn/c\n'),
      new Map([
        [12, '/a b'],
        [13, '/c'],
      ]),
    );
    assert.deepStrictEqual(parseLsofCwds('p12\nftxt\nn/bin/zsh\nfcwd\nn/w\n'), new Map([[12, '/w']]));
  });

  it('unescapes exactly lsof’s forms and leaves the rest as printed', () => {
    assert.strictEqual(unescapeLsof('\\\\x41'), '\\x41', 'an escaped backslash, then text');
    assert.strictEqual(unescapeLsof('\\xe2\\x82\\xac \\n'), '€ \n');
    assert.strictEqual(unescapeLsof('^B \\q \\x4'), '^B \\q \\x4', 'not escapes lsof writes');
  });

  it('skips garbage, a name that is not a path, a pid that is not one; never throws', () => {
    assert.deepStrictEqual(parseLsofCwds('n/orphan\npabc\nn/x\np5\nn relative\nfcwd\nn \\xff\\xfe\n\u0000'), new Map());
    assert.deepStrictEqual(parseLsofCwds(`p1\nn/${'a'.repeat(20_000)}\n`), new Map(), 'a name longer than any path');
  });
});

describe('macOS start times, terminal size, parents', () => {
  it('ps -o pid=,lstart= (C locale, UTC): seconds since the epoch; a line that is not one is skipped', () => {
    const starts = parseLstart(fixture('ps-lstart.txt'));
    assert.strictEqual(starts.get(41002), Date.UTC(2026, 11, 6, 10, 17, 58) / 1000);
    assert.ok(starts.get(9825)! < starts.get(41002)!);
    assert.strictEqual(starts.get(41010), starts.get(41002), 'the same second: order unknown');
    assert.strictEqual(parseLstart(' 5 Foo Bar  6 10:17:58 2026\n 6 Sat Dec 6 10:17 2026\njunk').size, 0);
  });

  it('stty -f … size: rows, then columns', () => {
    assert.deepStrictEqual(parseSttySize(fixture('stty-size.txt')), { cols: 200, rows: 50 });
    for (const bad of ['', '0 80', '24', 'stty: /dev/ttys009: Permission denied', '24 80 extra', '999999 1'])
      assert.strictEqual(parseSttySize(bad), undefined, bad);
  });

  it('ps -axo pid=,ppid=: the chain from a process up to, not including, launchd', () => {
    const parents = parseParents(fixture('ps-parents.txt'));
    assert.strictEqual(parents.size, 16);
    assert.deepStrictEqual(chainOf(parents, 41010), [41002, 9850, 9825]);
    assert.deepStrictEqual(chainOf(parents, 41010, 2), [41002, 9850]);
    assert.deepStrictEqual(chainOf(parents, 424242), []);
    assert.deepStrictEqual(
      chainOf(
        new Map([
          [5, 6],
          [6, 5],
        ]),
        5,
      ),
      [6],
      'a loop ends the walk before the process itself',
    );
    assert.strictEqual(parseParents('1 2 3\nx\n 4  5 \n').size, 1);
  });
});
