/**
 * Whether a held request may be offered: the kernel's word (a /proc folder) that its sender runs the installed
 * answering hook, under Claude Code, which is the foreground job of a terminal. A fake /proc for each case, and
 * once the real one, with the real hook script run by this test process (not Claude Code, no terminal).
 */
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkProvenance } from '../../../src/answer/provenance';
import type { PeerVerdict } from '../../../src/hub/peer';
import { answeringScript, installReporter } from '../../../src/integrations/reporter/reporterFiles';
import { ROOT } from '../helpers';

const SCRIPT = '/home/u/.agent-lens/bin/permission.cjs';
const HOOK = 4100;
const AGENT = 4000;
const SHELL = 3900;

interface FakeProcess {
  argv: string[];
  comm: string;
  ppid: number;
  pgrp: number;
  session: number;
  tty: number;
  tpgid: number;
}

/** Writes `<proc>/<pid>/{cmdline,comm,stat}` as the kernel would (proc(5)). */
function writeProc(proc: string, pid: number, p: FakeProcess): void {
  const dir = path.join(proc, String(pid));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'cmdline'), `${p.argv.join('\0')}\0`);
  fs.writeFileSync(path.join(dir, 'comm'), `${p.comm}\n`);
  const tail = '0 0 0 0 0 20 0 1 0 12345 1000000 100 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0';
  fs.writeFileSync(path.join(dir, 'stat'), `${pid} (${p.comm}) S ${p.ppid} ${p.pgrp} ${p.session} ${p.tty} ${p.tpgid} 4194560 ${tail}\n`);
}

/** The real layout: a shell leading its session, Claude Code its foreground job, the hook below Claude Code. */
function layout(more: { agent?: Partial<FakeProcess>; hook?: Partial<FakeProcess> } = {}): Record<number, FakeProcess> {
  const tty = 34816;
  return {
    [SHELL]: { argv: ['-bash'], comm: 'bash', ppid: 1, pgrp: SHELL, session: SHELL, tty, tpgid: AGENT },
    [AGENT]: { argv: ['claude'], comm: 'claude', ppid: SHELL, pgrp: AGENT, session: SHELL, tty, tpgid: AGENT, ...more.agent },
    [HOOK]: {
      argv: ['/usr/bin/node', SCRIPT, 'claude-code'],
      comm: 'node',
      ppid: AGENT,
      pgrp: AGENT,
      session: SHELL,
      tty,
      tpgid: AGENT,
      ...more.hook,
    },
  };
}

const verified = (pid = HOOK, chain = [AGENT, SHELL]): PeerVerdict => ({ provenance: 'verified', peer: { pid, chain, sid: SHELL } });

describe('answer: checkProvenance (a fake /proc)', () => {
  let tmp: string;
  let n = 0;
  /** A fresh /proc holding these processes. */
  const procOf = (ps: Record<number, FakeProcess>): string => {
    const proc = path.join(tmp, `proc${n++}`);
    for (const [pid, p] of Object.entries(ps)) writeProc(proc, Number(pid), p);
    return proc;
  };
  const refused = (verdict: PeerVerdict, proc: string, why: RegExp, script = SCRIPT) => {
    const p = checkProvenance(verdict, script, 'claude-code', proc);
    assert.strictEqual(p.ok, false, JSON.stringify(p));
    assert.match((p as { why: string }).why, why);
  };

  before(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'al-prov-'))));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('accepts the installed hook under Claude Code, the foreground job of its terminal', () => {
    assert.deepStrictEqual(checkProvenance(verified(), SCRIPT, 'claude-code', procOf(layout())), { ok: true, agentPid: AGENT });
  });

  it('accepts Claude Code run as `node …/@anthropic-ai/claude-code/cli.js`', () => {
    const agent = { argv: ['node', '/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js', '--resume'], comm: 'node' };
    assert.deepStrictEqual(checkProvenance(verified(), SCRIPT, 'claude-code', procOf(layout({ agent }))), { ok: true, agentPid: AGENT });
  });

  it('refuses an unverified or disproven sender, whatever /proc says', () => {
    const proc = procOf(layout());
    refused({ provenance: 'unverified', why: 'no socket owner', askable: true }, proc, /could not be verified \(no socket owner\)/);
    refused({ provenance: 'unverified', why: 'not Linux', askable: false }, proc, /could not be verified/);
    refused({ provenance: 'disproven', why: 'the claim is false' } as PeerVerdict, proc, /could not be verified/);
  });

  it('refuses a process running another script, or the script under another name', () => {
    for (const argv of [
      ['/usr/bin/node', '/home/u/.agent-lens/bin/report.cjs', 'claude-code'],
      ['/usr/bin/node', '/tmp/evil/permission.cjs', 'claude-code'],
      ['/usr/bin/node', `${SCRIPT}.bak`, 'claude-code'],
      ['/usr/bin/node', '--require', SCRIPT, 'evil.js'],
      ['/usr/bin/node', '-e', 'x', SCRIPT],
      [SCRIPT],
      ['/usr/bin/python3', 'fake.py', SCRIPT],
    ])
      refused(verified(), procOf(layout({ hook: { argv } })), /not the installed answering hook/, SCRIPT);
  });

  it('refuses a hook whose parent is not Claude Code (an agent spawning its own "hook")', () => {
    for (const agent of [
      { argv: ['node', 'evil.js'], comm: 'node' },
      { argv: ['python3', '/tmp/agent.py'], comm: 'python3' },
      { argv: ['codex'], comm: 'codex' },
      { argv: ['bash', '-c', 'claude'], comm: 'bash' },
      { argv: ['sh', '/home/u/.agent-lens/bin/agent-lens-permission', 'claude-code'], comm: 'sh' },
    ])
      refused(verified(), procOf(layout({ agent })), /its parent is not claude-code \(a program posing as its hook\)/);
  });

  it('refuses a Claude Code that is a background job, or has no terminal', () => {
    refused(verified(), procOf(layout({ agent: { tpgid: SHELL } })), /not the foreground job of a terminal/);
    refused(verified(), procOf(layout({ agent: { pgrp: 5555 } })), /not the foreground job of a terminal/);
    refused(verified(), procOf(layout({ agent: { tty: 0, tpgid: -1 } })), /not the foreground job of a terminal/);
    refused(verified(), procOf(layout({ agent: { tty: 0, tpgid: AGENT } })), /not the foreground job of a terminal/);
  });

  it('refuses what it cannot read: no process, no parent, no parent files, a garbled stat', () => {
    refused(verified(99_999), procOf(layout()), /its process could not be read/);
    refused(verified(HOOK, []), procOf(layout()), /has no parent/);
    const noAgent = procOf(layout());
    fs.rmSync(path.join(noAgent, String(AGENT)), { recursive: true });
    refused(verified(), noAgent, /its parent is not claude-code/);
    const noComm = procOf(layout());
    fs.rmSync(path.join(noComm, String(AGENT), 'comm'));
    refused(verified(), noComm, /its parent is not claude-code/);
    const garbled = procOf(layout());
    fs.writeFileSync(path.join(garbled, String(AGENT), 'stat'), 'garbage');
    refused(verified(), garbled, /its agent process could not be read/);
    const short = procOf(layout());
    fs.writeFileSync(path.join(short, String(AGENT), 'stat'), `${AGENT} (claude) S ${SHELL} ${AGENT}`);
    refused(verified(), short, /its agent process could not be read/);
  });

  it('reads fields after the last ")" of a comm that holds ") " itself', () => {
    const proc = procOf(layout());
    const tty = 34816;
    fs.writeFileSync(
      path.join(proc, String(AGENT), 'stat'),
      `${AGENT} (claude) S 1 2 3 4) S ${SHELL} ${AGENT} ${SHELL} ${tty} ${AGENT} 4194560 0 0\n`,
    );
    assert.deepStrictEqual(checkProvenance(verified(), SCRIPT, 'claude-code', proc), { ok: true, agentPid: AGENT });
    fs.writeFileSync(
      path.join(proc, String(AGENT), 'stat'),
      `${AGENT} (claude) S ${AGENT} ${AGENT} 4) S ${SHELL} 1 ${SHELL} ${tty} ${AGENT}\n`,
    );
    refused(verified(), proc, /not the foreground job/);
  });
});

describe('answer: checkProvenance (the real /proc)', function () {
  this.timeout(30_000);

  it('refuses the real installed hook run by this test process: its parent is not Claude Code', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'al-prov-real-'));
    installReporter(home, path.join(ROOT, 'dist/agent-lens-report.js'), { path: process.execPath, electron: false }, 'linux');
    const script = answeringScript(home);
    // stdin kept open: the hook reads it whole first, so it stays alive while /proc is read.
    const child = spawn(process.execPath, [script, 'claude-code'], { stdio: ['pipe', 'ignore', 'ignore'], env: {} });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const argv = () => fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
      for (let i = 0; i < 100 && argv()[1] !== script; i++) await new Promise((r) => setTimeout(r, 20));
      assert.strictEqual(argv()[1], script, 'the child runs the installed script');
      const verdict: PeerVerdict = { provenance: 'verified', peer: { pid: child.pid!, chain: [process.pid], sid: process.pid } };
      const p = checkProvenance(verdict, script, 'claude-code');
      assert.strictEqual(p.ok, false, JSON.stringify(p));
      assert.match((p as { why: string }).why, /its parent is not claude-code/);
      const other = checkProvenance(verdict, path.join(home, 'bin', 'report.cjs'), 'claude-code');
      assert.match((other as { why: string }).why, /not the installed answering hook/, 'the script is checked first');
    } finally {
      child.kill();
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
