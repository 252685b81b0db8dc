import * as assert from 'assert';
import { execFileSync, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { hostPlatform } from '../../../src/common/platform';
import { candidates, seenAmong, type TerminalFacts, terminalVerdict } from '../../../src/handoff/targets';
import type { TeamAgent } from '../../../src/handoff/team/schema';
import {
  foregroundFrom,
  foregroundOf,
  isInteractiveShell,
  parseProcJob,
  parsePsJobs,
  processesUnder,
  readJobs,
  ttyHolder,
} from '../../../src/sources/process/processTree';

const linux = process.platform === 'linux';
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('the foreground of a terminal: readers on real /proc and ps', () => {
  it('parses /proc/<pid>/stat job fields of this process, as ps reports them', function () {
    if (!linux) this.skip();
    const j = parseProcJob(fs.readFileSync('/proc/self/stat', 'utf8'))!;
    assert.strictEqual(j.pid, process.pid);
    const [pgid, tpgid] = execFileSync('ps', ['-o', 'pgid=,tpgid=', '-p', String(process.pid)], { encoding: 'utf8' })
      .trim()
      .split(/\s+/)
      .map(Number);
    assert.deepStrictEqual([j.pgid, j.tpgid], [pgid, tpgid]);
  });

  it('counts fields after the last ")" (a comm with spaces and parentheses), and reads no tty for a detached process', async function () {
    if (!linux) this.skip();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-fg-'));
    const odd = path.join(dir, 'a) (b c');
    fs.symlinkSync('/bin/sleep', odd);
    const p = spawn(odd, ['30'], { detached: true, stdio: 'ignore' });
    try {
      const stat = await until(() => {
        const s = fs.readFileSync(`/proc/${p.pid}/stat`, 'utf8');
        return s.includes('(a) (b c)') && s;
      }, 'the exec');
      // detached: a new session, so its own group and no controlling terminal.
      assert.deepStrictEqual(parseProcJob(stat), { pid: p.pid, pgid: p.pid, tpgid: -1, tty: '' });
      assert.deepStrictEqual(parsePsJobs(execFileSync('ps', ['-o', 'pid=,pgid=,tpgid=,tty=', '-p', String(p.pid)], { encoding: 'utf8' })), [
        { pid: p.pid, pgid: p.pid, tpgid: -1, tty: '' },
      ]);
    } finally {
      p.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('parses ps job lines as macOS prints them', () => {
    assert.deepStrictEqual(parsePsJobs('  501   501   612 ttys000\n  612   612   612 ttys000\n  700   700     0 ??\n'), [
      { pid: 501, pgid: 501, tpgid: 612, tty: 'ttys000' },
      { pid: 612, pgid: 612, tpgid: 612, tty: 'ttys000' },
      { pid: 700, pgid: 700, tpgid: 0, tty: '' },
    ]);
  });

  it('decides foreground from the tty the root runs on', () => {
    const root = { pid: 10, pgid: 10, tpgid: 20, tty: '34816' };
    assert.strictEqual(foregroundFrom(root, { pid: 20, pgid: 20, tpgid: 20, tty: '34816' }), 'foreground');
    assert.strictEqual(
      foregroundFrom(root, { pid: 21, pgid: 20, tpgid: 20, tty: '34816' }),
      'foreground',
      'a member of the foreground job',
    );
    assert.strictEqual(foregroundFrom(root, { pid: 30, pgid: 30, tpgid: 20, tty: '34816' }), 'background');
    assert.strictEqual(foregroundFrom(root, { pid: 20, pgid: 20, tpgid: 20, tty: '34817' }), 'background', 'on another terminal');
    assert.strictEqual(foregroundFrom({ ...root, tty: '' }, { pid: 20, pgid: 20, tpgid: -1, tty: '' }), 'background', 'no terminal at all');
    assert.strictEqual(foregroundFrom(root, undefined), 'gone');
  });

  it('tells a shell reading its input from a shell running a script or a command', () => {
    const p = (name: string, ...args: string[]) => ({ pid: 1, ppid: 0, name, args });
    assert.ok(isInteractiveShell(p('bash', '/bin/bash', '--init-file', '/x/shellIntegration-bash.sh')), "VS Code's bash");
    assert.ok(isInteractiveShell(p('bash', 'bash', '--norc', '--noprofile', '-i')));
    assert.ok(isInteractiveShell(p('bash', '-bash')), 'a login shell');
    assert.ok(isInteractiveShell(p('bash', 'claude')), '`exec -a claude bash` is still bash');
    assert.ok(isInteractiveShell(p('zsh', 'zsh', '-i')));
    assert.ok(!isInteractiveShell(p('bash', 'bash', '/opt/agent.sh')), 'a script');
    assert.ok(!isInteractiveShell(p('sh', 'sh', '-c', 'cd x && claude')), 'a command string');
    assert.ok(!isInteractiveShell(p('claude', 'claude')));
    assert.ok(!isInteractiveShell(p('cat', 'claude')));
  });

  it('reads nothing on Windows: its consoles have no process groups', async () => {
    assert.strictEqual(await readJobs([process.pid], 'win32'), undefined);
    assert.strictEqual(await ttyHolder(process.pid, 'win32'), undefined);
    assert.strictEqual(await foregroundOf(process.pid, process.pid, 'win32'), 'unknown');
    assert.strictEqual(await foregroundOf(process.pid, 999_999_999, 'win32'), 'gone');
  });
});

/**
 * A real tty: a tmux pane on a private socket running an interactive bash, standing in for a VS Code terminal
 * (its pane process is the terminal's shell). The same reads TerminalFinder makes, then its decision.
 */
describe('the foreground of a real terminal (tmux pty, interactive bash)', function () {
  this.timeout(30_000);
  let tmp: string;
  let shell: number;
  const env = () => ({ ...process.env, TMUX_TMPDIR: tmp, TMUX: '' });
  const tmux = (...args: string[]) => execFileSync('tmux', args, { env: env(), encoding: 'utf8' });
  const type = (line: string) => {
    tmux('send-keys', '-t', 't', '-l', '--', line);
    tmux('send-keys', '-t', 't', 'Enter');
  };
  const agent: TeamAgent = { key: 'claude', mode: 'embedded', process: 'claude', dispatch_steps: [] };
  const claude = () => path.join(tmp, 'claude');
  /** What TerminalFinder reads about a terminal (src/vscode/terminalFinder.ts `facts`), with the store's view given. */
  const facts = async (seen?: TerminalFacts['seen']): Promise<TerminalFacts> => ({
    open: true,
    seen,
    agent: await seenAmong(shell, candidates(agent, await processesUnder(shell), shell)),
    holder: (await ttyHolder(shell))?.leader,
  });
  /** Agents a test ended: a process table read just before (macOS's, up to half a second old) may still list one. */
  const ended = new Set<number>();
  const claudePid = () =>
    until(async () => (await processesUnder(shell)).find((p) => p.name === 'claude' && !ended.has(p.pid))?.pid, 'claude to start');

  before(function () {
    // Forced to win32 the readers answer as on Windows (no job control; its readers are tested on recorded tables:
    // windows.test.ts): nothing to read from a real tty here.
    if (!linux || !hasTmux || hostPlatform() === 'win32') this.skip();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'al-fg-tty-'));
    fs.symlinkSync('/bin/sleep', claude());
    tmux('new-session', '-d', '-s', 't', '-x', '120', '-y', '30', 'bash --norc --noprofile -i');
    shell = Number(tmux('display-message', '-p', '-t', 't', '#{pane_pid}').trim());
  });
  after(() => {
    if (!tmp) return;
    spawnSync('tmux', ['kill-server'], { env: env() });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a shell at its prompt holds its terminal; a terminal named for the agent is not enough', async () => {
    const holder = await until(async () => (await ttyHolder(shell))?.leader, 'the holder');
    assert.strictEqual(holder.pid, shell);
    assert.ok(isInteractiveShell(holder));
    const v = terminalVerdict({ ...agent, window_hint: 'claude' }, await facts({ agent: 'claude-code', state: 'idle' }));
    assert.deepStrictEqual(v, { ok: false, why: 'no process "claude" runs in it' });
  });

  it('an agent-named program started at the prompt holds it, and qualifies', async () => {
    type(`${claude()} 100`);
    const pid = await claudePid();
    await until(async () => (await foregroundOf(shell, pid)) === 'foreground', 'the foreground');
    assert.strictEqual((await ttyHolder(shell))?.leader?.pid, pid);
    assert.deepStrictEqual(terminalVerdict(agent, await facts()), { ok: true, pid });
    // The macOS path (one `ps -o pid=,pgid=,tpgid=,tty=`, `ps -o pid=,ppid=,comm=,args=`): procps takes the same.
    assert.strictEqual(await foregroundOf(shell, pid, 'darwin'), 'foreground');
    assert.strictEqual((await ttyHolder(shell, 'darwin'))?.leader?.name, 'claude');
    // Ctrl+C: the agent is gone, the shell has its terminal back. The check before the next key says so.
    tmux('send-keys', '-t', 't', 'C-c');
    await until(async () => (await foregroundOf(shell, pid)) === 'gone', 'the agent to go');
    ended.add(pid);
    const again = terminalVerdict(agent, {
      open: true,
      agent: { pid, fg: await foregroundOf(shell, pid) },
      holder: (await ttyHolder(shell))?.leader,
    });
    assert.deepStrictEqual(again, { ok: false, why: `claude (pid ${pid}) has exited` });
  });

  it('an agent-named program in the background, the shell at its prompt: refused, whatever the store shows', async () => {
    type(`${claude()} 100 &`);
    const pid = await claudePid();
    try {
      await until(async () => (await ttyHolder(shell))?.leader?.pid === shell, 'the prompt');
      assert.strictEqual(await foregroundOf(shell, pid), 'background');
      assert.strictEqual(await foregroundOf(shell, pid, 'darwin'), 'background');
      assert.ok(isInteractiveShell((await ttyHolder(shell, 'darwin'))!.leader!), 'ps sees the shell holding it too');
      const v = terminalVerdict(agent, await facts({ agent: 'claude-code', state: 'idle' }));
      assert.deepStrictEqual(v, {
        ok: false,
        why: `claude (pid ${pid}) runs there, but not in the foreground: another program or the shell gets what is typed`,
      });
    } finally {
      ended.add(pid);
      process.kill(pid, 'SIGKILL');
    }
  });

  it('a shell without job control keeps a background agent in its own group: the shell still holds the terminal', async () => {
    type(`set +m; ${claude()} 100 &`);
    const pid = await claudePid();
    try {
      await until(async () => (await foregroundOf(shell, pid)) === 'foreground', 'the shared group');
      const v = terminalVerdict(agent, await facts());
      assert.strictEqual(v.ok, false);
      assert.match((v as { why: string }).why, /its shell \("bash"\) holds the terminal/);
    } finally {
      ended.add(pid);
      process.kill(pid, 'SIGKILL');
      type('set -m');
    }
  });
});
