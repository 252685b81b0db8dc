import { onLinux } from '../../src/common/platform';
import type { ChildProcessWithoutNullStreams } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseCast, type Cast } from '../../src/formats/cast';
import { logTo } from '../../src/common/log';
import { Boards } from '../../src/handoff/boards';
import { Dispatcher, type HubFacts } from '../../src/handoff/dispatch';
import { HandoffPaths } from '../../src/handoff/paths';
import type { DeliveryTarget } from '../../src/handoff/steps';
import type { TeamAgent } from '../../src/handoff/team/schema';

/** The repository root, from the bundled test's location (out/test/unit/…). */
export const ROOT = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the repository root above ' + __dirname);
    dir = up;
  }
  return dir;
})();

export const FIXTURES = path.join(ROOT, 'test', 'fixtures');

/** The command each recorded agent was started with, as shell integration would report it. */
export { AGENT_COMMAND as COMMAND_OF } from '../../harness/commandLine';

export interface RecordingFixture {
  /** `shared` (labelled by hand, from ../shared/recordings) or `live` (npm run record). */
  origin: 'shared' | 'live';
  agent: string;
  scenario: string;
  dir: string;
  cast: Cast;
  expectedText: string;
}

export function recordings(origin: 'shared' | 'live' = 'shared'): RecordingFixture[] {
  const root = path.join(FIXTURES, origin === 'shared' ? 'recordings' : 'live');
  const out: RecordingFixture[] = [];
  // A missing folder is an error, not an empty list: every test over the recordings would pass on nothing.
  if (!fs.existsSync(root)) throw new Error(`no recordings in ${root}: the fixtures are part of the repository, restore them`);
  for (const agent of fs.readdirSync(root).sort()) {
    const adir = path.join(root, agent);
    if (!fs.statSync(adir).isDirectory()) continue;
    for (const scenario of fs.readdirSync(adir).sort()) {
      const dir = path.join(adir, scenario);
      const castFile = path.join(dir, 'session.cast');
      if (!fs.existsSync(castFile) || !fs.existsSync(path.join(dir, 'expected.json'))) continue;
      out.push({
        origin,
        agent,
        scenario,
        dir,
        cast: parseCast(fs.readFileSync(castFile, 'utf8'), castFile),
        expectedText: fs.readFileSync(path.join(dir, 'expected.json'), 'utf8'),
      });
    }
  }
  return out;
}

export function negatives(): { name: string; cast: Cast }[] {
  const dir = path.join(FIXTURES, 'negative');
  if (!fs.existsSync(dir)) throw new Error(`no negative recordings in ${dir}: the fixtures are part of the repository, restore them`);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.cast'))
    .sort()
    .map((f) => ({ name: f.replace(/\.cast$/, ''), cast: parseCast(fs.readFileSync(path.join(dir, f), 'utf8'), f) }));
}

/** Feeds a spawned process `stdin` and collects what it writes until it closes. */
export function collect(p: ChildProcessWithoutNullStreams, stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c) => (stdout += c));
    p.stderr.on('data', (c) => (stderr += c));
    p.stdin.on('error', () => undefined);
    p.stdin.end(stdin);
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Any C0, DEL or C1 character: none may be left raw in a log line, an error or terminal output. */
export const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** An id or reason a request might send: a terminal title, a bell, a C1 "clear screen" and DEL. */
export const NASTY = 'x\u001b]0;pwned\u0007\u009b2J\u007f';

/** Where a test's doorbell is, as the brief and the dispatcher are told. */
export const HUB_FACTS: HubFacts = {
  port: 5555,
  hubEnv: 'AGENT_LENS_HUB',
  hubFile: '/home/u/.agent-lens/hubs/x.json',
  cli: '/home/u/.agent-lens/bin/agent-lens',
};

/** A terminal that records what is written to it in `typed`. */
export function typingTarget(typed: string[]): DeliveryTarget {
  return { pid: 4242, title: 'worker terminal', id: 'term-1', activate: async () => undefined, write: async (d) => void typed.push(d) };
}

/** A Dispatcher over the handoff folder `root` for `agents`, typing into a typingTarget unless `find` is given. */
export function testDispatcher(
  root: string,
  agents: TeamAgent[],
  o: { find?: (a: TeamAgent) => Promise<DeliveryTarget>; sleep?: (ms: number) => Promise<void>; log?: string[] } = {},
) {
  const typed: string[] = [];
  const paths = new HandoffPaths(root);
  const boards = new Boards(paths);
  const d = new Dispatcher({
    agent: (k) => agents.find((a) => a.key === k),
    boards,
    paths,
    facts: () => HUB_FACTS,
    finder: { find: o.find ?? (async () => typingTarget(typed)) },
    sleep: o.sleep ?? (async () => undefined),
    log: logTo((_l, m) => void o.log?.push(m)),
  });
  return { d, boards, typed };
}

/**
 * For a suite that asks the real Linux kernel (its socket table, /proc of live processes): its tests are pending, not
 * failed, when the unit suite runs with the platform forced to macOS or Windows (npm run test:platforms), whose
 * readers never ask that kernel. Call it inside the describe.
 */
export function needsLinuxKernel(): void {
  before(function () {
    if (!onLinux()) this.skip();
  });
}
