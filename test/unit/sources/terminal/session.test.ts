import * as assert from 'assert';
import { CastBuffer } from '../../../../src/formats/castWriter';
import { parseCast } from '../../../../src/formats/cast';
import { replayCast } from '../../../../src/replay/replay';
import { parseAliases, readDecision } from '../../../../src/sources/terminal/readPolicy';
import { replyQuestion, TerminalSession } from '../../../../src/sources/terminal/session';
import { describe as describeState } from '../../../../src/views/labels';
import { AgentStore } from '../../../../src/store/store';
import { FakeScheduler } from '../../fakeScheduler';
import { recordings } from '../../helpers';
import { hostPlatform } from '../../../../src/common/platform';

describe('read policy', () => {
  const resolver = {
    alias: (n: string) =>
      parseAliases(
        `alias cc='claude --model opus'\nalias ll='ls -la'\nfunction cx() {\n  npx @openai/codex "$@"\n}\noc() { opencode; }\n`,
      ).get(n),
    script: (w: string, _dir?: string) =>
      w === './agent.sh'
        ? '#!/bin/sh\n# runs claude\necho "claude starting"\nexec claude --continue\n'
        : w === './build.sh'
          ? '#!/bin/sh\nmake all\n'
          : undefined,
  };
  const table: [string, 'low' | 'medium' | 'high', boolean, string | undefined][] = [
    ['claude', 'high', true, 'claude-code'],
    ['npx @openai/codex', 'high', true, 'codex'],
    ['cc', 'high', true, 'claude-code'],
    ['cx --full-auto', 'high', true, 'codex'],
    ['oc', 'high', true, 'opencode'],
    ['./agent.sh', 'high', true, 'claude-code'],
    ['bash ./agent.sh', 'high', true, 'claude-code'],
    ['cd tools && ./agent.sh --fast', 'high', true, 'claude-code'],
    ['./build.sh', 'high', false, undefined],
    ['ll', 'high', false, undefined],
    ['npm run dev', 'high', false, undefined],
    ['', 'high', true, undefined],
    ['whatever', 'low', true, undefined],
  ];
  for (const [cmd, conf, read, agent] of table) {
    it(`${JSON.stringify(cmd)} (${conf}) → ${read ? 'read' : 'not read'}`, () => {
      const d = readDecision(cmd, conf, resolver);
      assert.strictEqual(d.read, read, d.reason);
      assert.strictEqual(d.agent, agent);
    });
  }
  it(`follows cd into an absolute folder by the platform's rules (now: ${hostPlatform()})`, () => {
    const dirs: (string | undefined)[] = [];
    const seen = {
      alias: () => undefined,
      script: (_w: string, dir?: string) => {
        dirs.push(dir);
        return undefined;
      },
    };
    readDecision('cd C:\\work && cd D:\\other && agent.cmd', 'high', seen);
    readDecision('cd /srv/app && cd sub && ./agent.sh', 'high', seen);
    readDecision('cd a && cd ~/b && ./agent.sh', 'high', seen);
    const win = hostPlatform() === 'win32';
    assert.deepStrictEqual(dirs, [win ? 'D:\\other' : 'C:\\work/D:\\other', '/srv/app/sub', '~/b']);
  });

  it('parses fish aliases and abbreviations', () => {
    const m = parseAliases(`alias gg 'gemini --yolo'\nabbr -a am amp\n`);
    assert.strictEqual(m.get('gg'), 'gemini --yolo');
    assert.strictEqual(m.get('am'), 'amp');
  });
});

describe('terminal session (live timing with a manual clock)', () => {
  const rec = recordings().find((r) => r.agent === 'claude-code' && r.scenario === '04-bash-permission-approve')!;

  it('plays a recording at its own pace and reaches the same states as the replay', () => {
    const sched = new FakeScheduler();
    const store = new AgentStore({ clock: sched });
    store.openTerminal('t1', 'bash');
    const s = new TerminalSession('t1', (o) => store.observe(o), sched, { cols: rec.cast.cols, rows: rec.cast.rows });
    const seen: string[] = [];
    store.onDidChange((c) => c.current && seen.push(`${c.current.agent}/${c.current.state}`));
    s.startExecution('claude', true);
    let last = 0;
    for (const e of rec.cast.events) {
      sched.advance((e.t - last) * 1000);
      last = e.t;
      if (e.code === 'o') s.write(e.data);
      if (e.code === 'x') s.endExecution(Number(e.data));
    }
    const replay = replayCast(rec.cast, { commandLine: 'claude' }).detections.map((d) => `${d.agent}/${d.state}`);
    assert.deepStrictEqual(seen, replay);
    assert.strictEqual(sched.pending, 0, 'no timers left after the execution ended');
  });

  it('settles a state by its timer when output pauses', () => {
    const sched = new FakeScheduler();
    const store = new AgentStore({ clock: sched });
    store.openTerminal('t1', 'x');
    const s = new TerminalSession('t1', (o) => store.observe(o), sched, { cols: 120, rows: 35 });
    s.startExecution('claude', true);
    s.write('\x1b[?1049h\x1b]0;◐ Claude Code\x07');
    assert.strictEqual(store.terminal('t1')!.state, 'idle');
    sched.advance(200);
    assert.strictEqual(store.terminal('t1')!.state, 'working', 'committed by the deadline timer, without more output');
  });

  it('uses the process scan only for unread executions, and reports exited when the process goes', () => {
    const store = new AgentStore();
    store.openTerminal('t1', 'x');
    const s = new TerminalSession('t1', (o) => store.observe(o), new FakeScheduler());
    s.startExecution('./run-something', false);
    s.setProcessAgent({ agent: 'opencode', evidence: 'process opencode (pid 42)' });
    assert.deepStrictEqual(
      [store.terminal('t1')!.agent, store.terminal('t1')!.state, store.terminal('t1')!.source],
      ['opencode', 'working', 'process'],
    );
    s.setProcessAgent(undefined);
    assert.strictEqual(store.terminal('t1')!.state, 'exited');
    // The unread command ends while the agent still runs in it: exited, with the exit code as evidence.
    s.startExecution('sh -c claude', false);
    s.setProcessAgent({ agent: 'claude-code', evidence: 'process claude (pid 7)' });
    s.endExecution(0);
    assert.deepStrictEqual(
      [store.terminal('t1')!.agent, store.terminal('t1')!.state, store.terminal('t1')!.evidence],
      ['claude-code', 'exited', 'command ended with exit code 0'],
    );
  });

  it('an agent command the shell could not find is no agent: the terminal is a shell that says why', () => {
    const store = new AgentStore();
    store.openTerminal('t1', 'bash');
    const s = new TerminalSession('t1', (o) => store.observe(o), new FakeScheduler());
    s.startExecution('claude', true, { agent: 'claude-code', evidence: 'command line: claude' });
    assert.strictEqual(store.terminal('t1')!.agent, 'claude-code');
    s.write('bash: claude: command not found\r\n');
    s.endExecution(127);
    const t = store.terminal('t1')!;
    assert.deepStrictEqual([t.agent, t.state, t.evidence], ['shell', 'idle', 'command not found: claude']);
    assert.strictEqual(describeState(t, 0), 'shell · command not found: claude');
    // An agent that ran and exited with an error of its own stays the agent that exited.
    s.startExecution('claude', true, { agent: 'claude-code', evidence: 'command line: claude' });
    s.endExecution(1);
    assert.deepStrictEqual([store.terminal('t1')!.agent, store.terminal('t1')!.state], ['claude-code', 'exited']);
  });

  it('an agent found in a terminal revived after a reload is at rest until a source says more', () => {
    const store = new AgentStore();
    store.openTerminal('t1', 'opencode');
    const s = new TerminalSession('t1', (o) => store.observe(o), new FakeScheduler());
    s.setProcessAgent({ agent: 'opencode', evidence: 'process opencode (pid 42)', revived: true });
    const t = store.terminal('t1')!;
    assert.deepStrictEqual([t.agent, t.state, t.source], ['opencode', 'idle', 'process']);
    assert.match(t.evidence, /running since before this window/);
  });

  it('a reply’s question loses the quotes and the reply’s own bullet', () => {
    assert.strictEqual(
      replyQuestion('codex.reply+reply-question: "• I can use pytest or unittest. Which one should I use?"'),
      'I can use pytest or unittest. Which one should I use?',
    );
    assert.strictEqual(replyQuestion('cc.reply+reply-question: "Which format do you want?"'), 'Which format do you want?');
  });

  it('records the stream as a cast that replays to the same states', () => {
    const sched = new FakeScheduler();
    const buf = new CastBuffer(rec.cast.cols, rec.cast.rows, sched.now(), 'claude');
    let last = 0;
    for (const e of rec.cast.events) {
      sched.advance((e.t - last) * 1000);
      last = e.t;
      if (e.code === 'o') buf.output(sched.now(), e.data);
    }
    const cast = parseCast(buf.toCast('test'));
    assert.strictEqual(cast.command, 'claude');
    const a = replayCast(cast).detections.map((d) => `${d.agent}/${d.state}`);
    const b = replayCast(rec.cast, { commandLine: 'claude' })
      .detections.map((d) => `${d.agent}/${d.state}`)
      .filter((x) => !x.endsWith('exited'));
    assert.deepStrictEqual(a, b);
  });

  it('bounds the recording and marks it truncated', () => {
    const buf = new CastBuffer(80, 24, 0, undefined, 1000);
    for (let i = 0; i < 100; i++) buf.output(i, 'x'.repeat(50));
    assert.ok(buf.truncated);
    assert.ok(buf.toCast('t').length < 2000);
  });
});
