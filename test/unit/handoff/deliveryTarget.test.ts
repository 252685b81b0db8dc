import * as assert from 'assert';
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { send } from '../handoffContract';

/**
 * Where dispatch types, as a black box: `agent-lens serve` (a real process), the real CLI, real HTTP and a real
 * tmux server on a private socket folder, with real shells and real agent-named processes in its panes.
 * AGENT_LENS_TEST_DIST points the tests at another build (the commit before this check existed, to see them
 * fail there).
 */
const DIST = process.env.AGENT_LENS_TEST_DIST ? path.resolve(process.env.AGENT_LENS_TEST_DIST) : path.resolve('dist');
const CLI = path.join(DIST, 'cli.js');
const hasTmux = spawnSync('tmux', ['-V']).status === 0;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(probe: () => T | undefined | false, what: string, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A private tmux server, a serve on it, and the CLI pointed at that serve. */
class World {
  readonly tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-target-'));
  private child: ChildProcess | undefined;
  private log = '';
  info!: { port: number; token: string };
  /** An executable named like the agent: a link to cat, so its comm is "claude" and it echoes what it reads. */
  readonly claude = path.join(this.tmp, 'bin', 'claude');

  constructor() {
    fs.mkdirSync(path.dirname(this.claude));
    fs.symlinkSync('/bin/cat', this.claude);
  }

  env(): NodeJS.ProcessEnv {
    return { ...process.env, TMUX_TMPDIR: this.tmp, TMUX: '' };
  }

  tmux(...args: string[]): string {
    return execFileSync('tmux', args, { env: this.env(), encoding: 'utf8' });
  }

  /** A session whose first pane runs an interactive bash, like a user's terminal. */
  async shell(session: string, window = 'main'): Promise<string> {
    if (spawnSync('tmux', ['has-session', '-t', session], { env: this.env() }).status === 0)
      this.tmux('new-window', '-t', session, '-n', window, 'bash --norc --noprofile -i');
    else this.tmux('new-session', '-d', '-s', session, '-n', window, '-x', '200', '-y', '50', 'bash --norc --noprofile -i');
    const target = `${session}:${window}`;
    await until(() => /\$ $|# $/m.test(this.capture(target).trimEnd() + ' '), `a prompt in ${target}`);
    return target;
  }

  /** Types a command line into a pane as a user would. */
  run(target: string, line: string): void {
    this.tmux('send-keys', '-t', target, '-l', '--', line);
    this.tmux('send-keys', '-t', target, 'Enter');
  }

  capture(target: string): string {
    return this.tmux('capture-pane', '-p', '-J', '-t', target);
  }

  command(target: string): string {
    return this.tmux('display-message', '-p', '-t', target, '#{pane_current_command}').trim();
  }

  panePid(target: string): number {
    return Number(this.tmux('display-message', '-p', '-t', target, '#{pane_pid}').trim());
  }

  /** The pids of processes below a pane's process whose argv[0] ends in `name`. */
  pidsNamed(target: string, name: string): number[] {
    const out: number[] = [];
    const walk = (pid: number) => {
      for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
        for (const c of fs.readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number)) {
          const argv0 = fs.readFileSync(`/proc/${c}/cmdline`, 'utf8').split('\0')[0];
          if (argv0.endsWith(name)) out.push(c);
          walk(c);
        }
      }
    };
    walk(this.panePid(target));
    return out;
  }

  async serve(team: string): Promise<void> {
    fs.writeFileSync(path.join(this.tmp, 'team.toml'), team);
    const infoFile = path.join(this.tmp, 'run', 'hub.json');
    this.child = spawn(
      process.execPath,
      [CLI, 'serve', '--root', path.join(this.tmp, 'handoff'), '--team', path.join(this.tmp, 'team.toml'), '--info-file', infoFile],
      { env: this.env(), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.child.stderr!.on('data', (c: Buffer) => (this.log += c.toString()));
    this.info = await until(() => {
      try {
        return JSON.parse(fs.readFileSync(infoFile, 'utf8'));
      } catch {
        return undefined;
      }
    }, `serve's info file (${this.log})`);
  }

  brief(): string {
    const f = path.join(this.tmp, 'brief.md');
    fs.writeFileSync(f, 'Fix the flaky test.\n');
    return f;
  }

  /** `agent-lens dispatch`, run to its end without blocking this process (the pane may be acted on meanwhile). */
  dispatch(
    agent: string,
    taskId: string,
    extra: string[] = [],
  ): Promise<{ status: number | null; stdout: string; stderr: string; json?: any }> {
    return new Promise((resolve) => {
      const c = spawn(process.execPath, [CLI, 'dispatch', '--agent', agent, '--task-id', taskId, '--brief', this.brief(), ...extra], {
        env: { ...this.env(), AGENT_LENS_HUB: path.join(this.tmp, 'run', 'hub.json') },
      });
      let stdout = '';
      let stderr = '';
      c.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      c.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      c.on('exit', (status) => {
        let json: unknown;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = undefined;
        }
        resolve({ status, stdout, stderr, json });
      });
    });
  }

  async board(agent: string): Promise<any> {
    const a = await send(this.info.port, 'GET', '/handoff/boards', { token: this.info.token });
    return a.json.boards.find((b: { agent: string }) => b.agent === agent);
  }

  async close(): Promise<void> {
    if (this.child && this.child.exitCode === null) {
      const exited = new Promise((r) => this.child!.once('exit', r));
      this.child.kill('SIGTERM');
      await exited;
    }
    spawnSync('tmux', ['kill-server'], { env: this.env() });
    fs.rmSync(this.tmp, { recursive: true, force: true });
  }
}

/** What a failed assertion shows of a dispatch: where it went, or the CLI's error (not the whole contract). */
function shown(d: { stderr: string; json?: any }): string {
  return d.json
    ? JSON.stringify({ delivered: d.json.delivered, delivered_to: d.json.board?.delivered_to, error: d.json.error })
    : d.stderr.trim();
}

const CLAUDE = '[claude]\nmode = "embedded"\nprocess = "claude"\nwindow_hint = "claude"\n';

describe('dispatch types only where the agent holds the terminal (serve, real tmux)', function () {
  this.timeout(60_000);
  let w: World;
  before(function () {
    if (!hasTmux || process.platform !== 'linux') this.skip();
  });
  beforeEach(() => {
    w = new World();
  });
  afterEach(async () => {
    await w?.close();
  });

  it('a bash pane titled "Claude Code" (the review\'s reproduction): --message is refused with 422, and without it nothing is typed (no_terminal)', async () => {
    const pane = await w.shell('work');
    w.run(pane, "printf '\\033]2;Claude Code\\007'; clear");
    await until(() => w.tmux('display-message', '-p', '-t', pane, '#{pane_title}').trim() === 'Claude Code', 'the title');
    await w.serve(CLAUDE);
    const pwned = path.join(w.tmp, 'PWNED');
    const custom = await w.dispatch('claude', '1204-01', ['--message', `touch ${pwned}; echo injected-by-dispatch`]);
    assert.strictEqual(custom.status, 1, shown(custom));
    assert.match(custom.stderr, /422: "message" is not accepted for claude: .*allow_custom_message = true/);
    assert.ok(!fs.existsSync(path.join(w.tmp, 'handoff', 'claude', 'briefs', '1204-01-brief.md')), 'refused before the brief is written');

    const plain = await w.dispatch('claude', '1204-02');
    assert.strictEqual(plain.status, 0, plain.stderr);
    assert.strictEqual(plain.json.delivered, false, shown(plain));
    const b = await w.board('claude');
    assert.strictEqual(b.error_point, 'no_terminal');
    assert.match(b.error_reason, /no tmux pane runs claude in its foreground \(looked for process "claude", window_hint "claude"\)/);
    assert.match(b.error_reason, /work:0\.0 Claude Code main.*no process "claude" runs in it/);
    assert.match(b.error_reason, /Nothing was typed: start claude in a terminal and leave it in the foreground/);
    await sleep(1500);
    assert.ok(!fs.existsSync(pwned), 'the message never ran');
    assert.doesNotMatch(w.capture(pane), /Read |execute it|injected/, 'nothing was typed into the shell');
  });

  it('a claude-named process in the foreground of a shell gets the line typed; {title} is the pane target, never its title', async () => {
    const pane = await w.shell('s');
    const typed = path.join(w.tmp, 'typed.txt');
    w.run(pane, `${w.claude} > ${typed}`);
    await until(() => w.command(pane) === 'claude', 'claude in the foreground');
    w.tmux('select-pane', '-t', pane, '-T', 'EVIL-TITLE');
    await w.serve(
      `${CLAUDE}[[claude.dispatch_steps]]\ntool = "terminal_input"\nwith = { text = "{message} via {title}" }\n[[claude.dispatch_steps]]\ntool = "terminal_input"\nwith = { mode = "hotkey", keys = ["enter"] }\n`,
    );
    const d = await w.dispatch('claude', '1204-03');
    assert.strictEqual(d.json?.delivered, true, shown(d));
    assert.strictEqual(d.json.board.delivered_to, 'tmux s:0.0');
    const line = await until(
      () => fs.readFileSync(typed, 'utf8').includes('execute it.') && fs.readFileSync(typed, 'utf8'),
      'the typed line',
    );
    assert.strictEqual(line, `Read ${d.json.brief_path} and execute it. via tmux s:0.0\n`);
    assert.doesNotMatch(line, /EVIL/);
  });

  it('a background `exec -a claude sleep` under a shell at its prompt is refused, and nothing is typed', async () => {
    const pane = await w.shell('s');
    w.run(pane, "exec -a claude sleep 1000 & printf '\\033]2;Claude Code\\007'");
    const [bg] = await until(() => w.pidsNamed(pane, 'claude').length > 0 && w.pidsNamed(pane, 'claude'), 'the background claude');
    try {
      await w.serve(CLAUDE);
      const d = await w.dispatch('claude', '1204-04');
      assert.strictEqual(d.json?.delivered, false, shown(d));
      const b = await w.board('claude');
      assert.strictEqual(b.error_point, 'no_terminal');
      assert.match(b.error_reason, new RegExp(`claude \\(pid ${bg}\\) runs there, but not in the foreground`));
      await sleep(1500);
      assert.doesNotMatch(w.capture(pane), /Read |execute it/);
    } finally {
      process.kill(bg, 'SIGKILL');
    }
  });

  it('the agent exits between the typing and Enter: Enter is not sent, so the shell that gets the terminal back runs nothing', async () => {
    const pane = await w.shell('s');
    w.run(pane, w.claude);
    await until(() => w.command(pane) === 'claude', 'claude in the foreground');
    const [agent] = w.pidsNamed(pane, 'claude');
    const late = path.join(w.tmp, 'LATE');
    await w.serve(
      `${CLAUDE}allow_custom_message = true\n[[claude.dispatch_steps]]\ntool = "terminal_input"\nwith = { text = "{message}" }\n[[claude.dispatch_steps]]\ntool = "__sleep"\nwith = { ms = 3000 }\n[[claude.dispatch_steps]]\ntool = "terminal_input"\nwith = { mode = "hotkey", keys = ["enter"] }\n`,
    );
    const pending = w.dispatch('claude', '1204-05', ['--message', `touch ${late}`]);
    // The text is echoed by the pane's tty: it has been typed; then the agent goes before Enter.
    await until(() => w.capture(pane).includes(`touch ${late}`), 'the typed text');
    process.kill(agent, 'SIGTERM');
    const d = await pending;
    await sleep(1500);
    assert.ok(!fs.existsSync(late), `the shell ran the typed line: Enter went in after the agent had gone (${shown(d)})`);
    assert.strictEqual(d.json?.delivered, false, shown(d));
    assert.match(d.json.error, /claude no longer holds tmux s:0\.0 \(.*\): nothing more was typed/);
  });

  it('a window Agent Lens launched qualifies only once its agent holds it: a shell there with the agent in its group never does', async () => {
    // launch starts claude in the background of a shell without job control, then an interactive shell: claude
    // shares the shell's foreground group, but the shell reads what is typed.
    const sleeper = path.join(w.tmp, 'sleeper', 'claude');
    fs.mkdirSync(path.dirname(sleeper));
    fs.symlinkSync('/bin/sleep', sleeper);
    w.tmux('new-session', '-d', '-s', 'other', 'sleep 1000'); // a server to open the window in
    await w.serve(
      `[claude]\nmode = "embedded"\nprocess = "claude"\nlaunch = "bash"\nargs = ["-c", "${sleeper} 1000 & exec bash --norc --noprofile -i"]\n`,
    );
    const d = await w.dispatch('claude', '1204-09');
    const pane = w
      .tmux('list-panes', '-a', '-F', '#{window_name} #{session_name}:#{window_index}.#{pane_index}')
      .split('\n')
      .find((l) => l.startsWith('claude '))
      ?.split(' ')[1];
    assert.ok(pane, 'the launched window');
    try {
      assert.strictEqual(d.json?.delivered, false, shown(d));
      assert.match(
        d.json.error,
        /bash started in tmux pane %\d+, but process "claude" did not come up in its foreground within 10 s \(its shell \("bash"\) holds the terminal/,
      );
      assert.doesNotMatch(w.capture(pane), /Read |execute it/, 'nothing was typed into the launched shell');
    } finally {
      for (const pid of w.pidsNamed(pane, 'claude')) process.kill(pid, 'SIGKILL');
    }
  });

  it('window_hint chooses between two panes that both run the agent; tmux = … pointing at a shell makes nothing qualify', async () => {
    const typedA = path.join(w.tmp, 'alpha.txt');
    const typedB = path.join(w.tmp, 'beta.txt');
    const alpha = await w.shell('s', 'alpha');
    const beta = await w.shell('s', 'beta');
    const shell = await w.shell('s', 'plain');
    w.run(alpha, `${w.claude} > ${typedA}`);
    w.run(beta, `${w.claude} > ${typedB}`);
    await until(() => w.command(alpha) === 'claude' && w.command(beta) === 'claude', 'claude in both');
    const pinned = `[pinned]\nmode = "embedded"\ntmux = "${shell}"\nwindow_hint = "plain"\n`;
    await w.serve(`[claude]\nmode = "embedded"\nprocess = "claude"\nwindow_hint = "beta"\n\n${pinned}`);
    const d = await w.dispatch('claude', '1204-06');
    assert.strictEqual(d.json?.delivered, true, shown(d));
    await until(() => fs.readFileSync(typedB, 'utf8').includes('execute it.'), 'the line in beta');
    assert.strictEqual(fs.readFileSync(typedA, 'utf8'), '', 'alpha got nothing');

    const p = await w.dispatch('pinned', '1204-07');
    assert.strictEqual(p.json?.delivered, false, shown(p));
    assert.match(
      (await w.board('pinned')).error_reason,
      /no tmux pane runs pinned in its foreground \(looked for a known agent CLI, window_hint "plain", tmux "s:plain"\)/,
    );
    await sleep(1500);
    assert.doesNotMatch(w.capture(shell), /Read |execute it/);
  });

  it('without process, a known agent CLI in the foreground qualifies a pane the hint names; a raw HTTP message is 422 there too', async () => {
    const pane = await w.shell('s', 'claude-pane');
    const typed = path.join(w.tmp, 'typed.txt');
    w.run(pane, `${w.claude} > ${typed}`);
    await until(() => w.command(pane) === 'claude', 'claude in the foreground');
    await w.serve('[helper]\nmode = "embedded"\nwindow_hint = "claude-pane"\n');
    const body = JSON.stringify({ agent: 'helper', task_id: '1204-08', brief: 'b', message: 'rm -rf ~/work' });
    const refused = await send(w.info.port, 'POST', '/handoff/dispatch', { token: w.info.token, body });
    assert.strictEqual(refused.status, 422, refused.text.slice(0, 200));
    assert.match(refused.json.error, /"message" is not accepted for helper/);
    const d = await w.dispatch('helper', '1204-08');
    assert.strictEqual(d.json?.delivered, true, shown(d));
    await until(() => fs.readFileSync(typed, 'utf8').includes(`Read ${d.json.brief_path} and execute it.`), 'the line');
  });
});
