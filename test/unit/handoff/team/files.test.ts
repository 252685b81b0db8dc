// team.toml as a repository can plant it: a device, an endless or oversized file, a link out of the workspace.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readTeamFile, TeamError, TeamRegistry } from '../../../../src/handoff/team/registry';
import type { TeamAgent } from '../../../../src/handoff/team/schema';
import { writeAgentSection } from '../../../../src/handoff/team/writeBack';

let tmp: string;
beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-teamfiles-'))));
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const bareAgent = (key: string): TeamAgent => ({ key, mode: 'web', dispatch_steps: [] });

function teamError(fn: () => unknown): TeamError {
  try {
    fn();
  } catch (e) {
    if (e instanceof TeamError) return e;
    throw e;
  }
  throw new assert.AssertionError({ message: 'expected a TeamError' });
}

describe('team: files a repository can plant', () => {
  it('a team.toml that is a link to /dev/zero or over 256 KB is refused at once; a link to a regular file is read', () => {
    const file = path.join(tmp, 'team.toml');
    fs.symlinkSync('/dev/zero', file);
    assert.match(teamError(() => readTeamFile(file)).message, /cannot read the file: .* is a device, not a regular file/);
    fs.rmSync(file);
    fs.writeFileSync(path.join(tmp, 'dotfiles.toml'), '[a]\nmode = "web"\n');
    fs.symlinkSync(path.join(tmp, 'dotfiles.toml'), file);
    assert.deepStrictEqual(
      readTeamFile(file).agents.map((a) => a.key),
      ['a'],
      'dotfile managers keep team.toml as a link',
    );
    fs.writeFileSync(path.join(tmp, 'big.toml'), `# ${'x'.repeat(300 * 1024)}\n`);
    assert.match(teamError(() => readTeamFile(path.join(tmp, 'big.toml'))).message, /is over 256 KB/);
  });

  it('the workspace’s team.toml is refused when .agent-lens is a link, or when it links out of the workspace', () => {
    const ws = path.join(tmp, 'repo');
    const victim = path.join(tmp, 'victim');
    fs.mkdirSync(ws);
    fs.mkdirSync(victim);
    fs.writeFileSync(path.join(victim, 'team.toml'), '[a]\nmode = "web"\n');
    fs.symlinkSync(victim, path.join(ws, '.agent-lens'));
    const file = path.join(ws, '.agent-lens', 'team.toml');
    const r = new TeamRegistry(file, { checkFrom: ws });
    assert.match(r.load()?.message ?? '', /\.agent-lens is a symbolic link: .*agentLens\.handoff\.teamFile in your user settings/);
    assert.deepStrictEqual(r.agents(), []);
    assert.deepStrictEqual(new TeamRegistry(file).load(), undefined, 'a file the user chose may sit behind a link');
    const e = teamError(() => writeAgentSection(file, bareAgent('b'), { checkFrom: ws }));
    assert.match(e.message, /nothing was written/);
    assert.strictEqual(fs.readFileSync(path.join(victim, 'team.toml'), 'utf8'), '[a]\nmode = "web"\n');
    fs.rmSync(path.join(ws, '.agent-lens'));
    fs.mkdirSync(path.join(ws, '.agent-lens'));
    fs.symlinkSync(path.join(victim, 'team.toml'), file);
    assert.match(new TeamRegistry(file, { checkFrom: ws }).load()?.message ?? '', /is a symbolic link to .*outside the workspace/);
    fs.rmSync(file);
    fs.writeFileSync(path.join(ws, 'mine.toml'), '[a]\nmode = "web"\n');
    fs.symlinkSync(path.join(ws, 'mine.toml'), file);
    assert.strictEqual(new TeamRegistry(file, { checkFrom: ws }).load(), undefined, 'a link inside the workspace is fine');
    writeAgentSection(file, bareAgent('b'), { checkFrom: ws });
    assert.match(fs.readFileSync(path.join(ws, 'mine.toml'), 'utf8'), /\[b\]/);
  });
});
