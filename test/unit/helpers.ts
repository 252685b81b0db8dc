import type { ChildProcessWithoutNullStreams } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseCast, type Cast } from '../../src/formats/cast';

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
