import * as assert from 'assert';
import { checkMessage, planSteps, StepError } from '../../../src/handoff/steps';
import {
  findProcesses,
  narrow,
  paneVerdict,
  type Qualified,
  refusal,
  type TerminalFacts,
  terminalVerdict,
} from '../../../src/handoff/targets';
import { parseTeam } from '../../../src/handoff/team/registry';
import type { TeamAgent } from '../../../src/handoff/team/schema';
import { serializeAgent } from '../../../src/handoff/team/writeBack';
import type { ProcInfo } from '../../../src/sources/process/processTree';

const claude: TeamAgent = { key: 'claude', mode: 'embedded', process: 'claude', window_hint: 'claude', dispatch_steps: [] };
const unnamed: TeamAgent = { key: 'helper', mode: 'embedded', window_hint: 'helper', dispatch_steps: [] };
const proc = (pid: number, name: string, ...args: string[]): ProcInfo => ({ pid, ppid: 1, name, args: args.length ? args : [name] });
const bash = proc(100, 'bash', '/bin/bash', '--init-file', '/x/shellIntegration-bash.sh');
const ok = (pid?: number) => ({ ok: true, pid });
const why = (v: ReturnType<typeof terminalVerdict>) => (v.ok ? 'ok' : v.why);

/**
 * Which VS Code terminal a dispatch may type into (TerminalFinder's decision, fed with what it reads: the agent
 * process and its place on the tty, the tty's foreground leader, the store's view), as a table.
 */
describe('which terminal qualifies (VS Code finder decision)', () => {
  const cases: [string, TeamAgent, TerminalFacts, RegExp | ReturnType<typeof ok>][] = [
    ['the agent in the foreground', claude, { open: true, agent: { pid: 7, fg: 'foreground' }, holder: proc(7, 'claude') }, ok(7)],
    [
      'a shell whose name matches window_hint, no agent',
      claude,
      { open: true, holder: bash, seen: { agent: 'shell', state: 'idle' } },
      /^no process "claude" runs in it$/,
    ],
    [
      'the agent in the background under a shell at its prompt',
      claude,
      { open: true, agent: { pid: 7, fg: 'background' }, holder: bash, seen: { agent: 'claude-code', state: 'idle' } },
      /runs there, but not in the foreground/,
    ],
    [
      'the agent exited (a stale store still shows it)',
      claude,
      { open: true, agent: { pid: 7, fg: 'gone' }, holder: bash, seen: { agent: 'claude-code', state: 'idle' } },
      /has exited/,
    ],
    [
      'the agent in the group of a shell without job control',
      claude,
      { open: true, agent: { pid: 7, fg: 'foreground' }, holder: bash },
      /its shell \("bash"\) holds the terminal/,
    ],
    ['a closed terminal', claude, { open: false, agent: { pid: 7, fg: 'foreground' } }, /closed/],
    [
      'Windows: below the shell, the store shows the agent running',
      claude,
      { open: true, agent: { pid: 7, fg: 'unknown' }, seen: { agent: 'claude-code', state: 'working' } },
      ok(7),
    ],
    [
      'Windows: below the shell, the store shows a shell',
      claude,
      { open: true, agent: { pid: 7, fg: 'unknown' }, seen: { agent: 'shell', state: 'idle' } },
      /cannot read which program holds this terminal/,
    ],
    [
      'Windows: below the shell, the store shows it exited',
      claude,
      { open: true, agent: { pid: 7, fg: 'unknown' }, seen: { agent: 'claude-code', state: 'exited' } },
      /cannot read/,
    ],
    ['Windows: not below the shell at all', claude, { open: true, seen: { agent: 'claude-code', state: 'idle' } }, /no process "claude"/],
    [
      'no process: the store shows an agent, a program holds the tty',
      unnamed,
      { open: true, holder: proc(7, 'ssh'), seen: { agent: 'codex', state: 'idle' } },
      ok(undefined),
    ],
    [
      'no process: the store shows a shell',
      unnamed,
      { open: true, holder: bash, seen: { agent: 'shell', state: 'idle' } },
      /shows no agent running/,
    ],
    [
      'no process: the store shows it exited',
      unnamed,
      { open: true, holder: bash, seen: { agent: 'codex', state: 'exited' } },
      /has exited/,
    ],
    [
      'no process: the store lags, the shell is back at its prompt',
      unnamed,
      { open: true, holder: bash, seen: { agent: 'codex', state: 'idle' } },
      /its shell \("bash"\) holds the terminal/,
    ],
    ['no process: nothing known about it', unnamed, { open: true }, /shows no agent running/],
  ];
  for (const [name, agent, facts, want] of cases) {
    it(name, () => {
      const v = terminalVerdict(agent, facts);
      if (want instanceof RegExp) assert.match(why(v), want);
      else assert.deepStrictEqual(v, want);
    });
  }
});

describe('which tmux pane qualifies', () => {
  it('tmux naming a shell in the foreground refuses a pane unless that shell runs a script', () => {
    const agent = { ...claude, process: 'worker' };
    assert.match(
      why(paneVerdict(agent, { command: 'bash', agent: { pid: 7, fg: 'foreground' } })),
      /tmux shows the shell "bash" in its foreground/,
    );
    assert.deepStrictEqual(
      paneVerdict(agent, { command: 'bash', agent: { pid: 7, fg: 'foreground' }, holder: proc(7, 'bash', 'bash', '/opt/worker') }),
      ok(7),
    );
    assert.match(
      why(paneVerdict(agent, { command: 'claude', agent: { pid: 7, fg: 'foreground' }, holder: proc(6, 'bash', 'claude') })),
      /holds the terminal/,
      '`exec -a claude bash` is a shell',
    );
    assert.match(
      why(paneVerdict(agent, { command: 'claude', agent: { pid: 7, fg: 'unknown' } })),
      /could not be read/,
      'tmux runs where the foreground is readable: unknown is refused',
    );
  });

  it('finds the agent by name, by program or by script, but not a shell that calls itself claude', () => {
    const procs = [
      proc(10, 'bash', 'claude'),
      { ...proc(11, 'node', 'node', '/usr/local/bin/claude'), ppid: 10 },
      { ...proc(12, 'claude'), ppid: 11 },
    ];
    assert.deepStrictEqual(
      findProcesses(procs, 10, 'claude').map((p) => p.pid),
      [11, 12],
    );
    assert.deepStrictEqual(
      findProcesses([proc(10, 'claude')], 10, 'claude').map((p) => p.pid),
      [10],
      'the pane process itself',
    );
  });
});

describe('window_hint and the tmux target only narrow a choice', () => {
  const q = (name: string, paneId?: string): Qualified<string> => ({ item: name, names: [name], paneId });
  it('chooses among qualifying targets, never makes one', () => {
    assert.strictEqual(narrow([q('one claude'), q('two claude')], { ...claude, window_hint: 'two' }), 'two claude');
    assert.strictEqual(narrow([q('one'), q('two')], { ...claude, window_hint: 'none' }), 'one', 'process identifies the agent: the first');
    assert.strictEqual(narrow([], claude), undefined, 'nothing qualifies: nothing chosen, whatever the names');
    assert.strictEqual(
      narrow([q('codex pane')], unnamed),
      undefined,
      'without process a running agent is not taken unless the hint names it',
    );
    assert.strictEqual(narrow([q('a helper')], unnamed), 'a helper');
    assert.strictEqual(narrow([q('a', '%1'), q('b claude', '%2')], claude, '%1'), 'a', 'the tmux target first');
  });

  it('the refusal says what was looked for, where, why, and how to fix it, hint matches first', () => {
    const r = refusal(claude, 'terminal', [
      { name: 'bash', why: 'no process "claude" runs in it' },
      { name: 'Claude Code', why: 'no process "claude" runs in it' },
    ]);
    assert.strictEqual(
      r,
      'no terminal runs claude in its foreground (looked for process "claude", window_hint "claude"): "Claude Code": no process "claude" runs in it; "bash": no process "claude" runs in it. Nothing was typed: start claude in a terminal and leave it in the foreground, or add launch = "…" to its section of team.toml',
    );
    assert.match(
      refusal({ key: 'x', mode: 'embedded', dispatch_steps: [] }, 'tmux', []),
      /no tmux pane is open\. Nothing was typed: team\.toml gives x no process, window_hint or tmux pane/,
    );
  });
});

describe('what a step may type', () => {
  const type = (text: string) => planSteps([{ tool: 'terminal_input', with: { text } }], { message: 'm' });
  it('refuses line and paragraph separators and bidi controls in type steps and in the message, like other controls', () => {
    for (const c of ['\u2028', '\u2029', '\u202e', '\u2066', '\u200f', '\u061c', '\x1b', '\n']) {
      assert.throws(
        () => type(`echo a${c}b`),
        (e: unknown) => e instanceof StepError && /control characters/.test((e as Error).message),
        JSON.stringify(c),
      );
      assert.throws(() => checkMessage(`Read x${c} and execute it.`), StepError, JSON.stringify(c));
    }
    assert.deepStrictEqual(type('Lies den Brief — 読んで ✅'), [{ kind: 'type', text: 'Lies den Brief — 読んで ✅' }]);
  });
});

describe('allow_custom_message in team.toml', () => {
  it('is a documented boolean, off unless set, and survives write-back', () => {
    const [a] = parseTeam('[w]\nmode = "embedded"\nallow_custom_message = true\n', 'team.toml').agents;
    assert.strictEqual(a.allow_custom_message, true);
    assert.strictEqual(parseTeam('[w]\nmode = "embedded"\n', 'team.toml').agents[0].allow_custom_message, undefined);
    assert.throws(
      () => parseTeam('[w]\nmode = "embedded"\nallow_custom_message = "yes"\n', 'team.toml'),
      /allow_custom_message: expected true or false/,
    );
    const text = serializeAgent(a);
    assert.match(text, /^allow_custom_message = true$/m);
    assert.deepStrictEqual(parseTeam(text, 'team.toml').agents[0], a);
  });
});
