// A repository that commits `.agent-lens/handoff` or `.agent-lens` as a link must not make Agent Lens write
// outside it. `serve --workspace DIR` takes the extension's defaults (DIR/.agent-lens/{handoff,team.toml}, the
// workspace's choice); a root named with --root is the user's own and may be a link, which the log then names.
// AGENT_LENS_DIST=<dist folder> runs these against another build.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { send } from '../handoffContract';
import { type ServeChild, snapshot, startServe } from '../serveChild';

const TEAM = '[Documents]\nmode = "web"\n[projects]\nmode = "web"\ndescription = "planted"\n';

describe('serve --workspace: nothing is written through a link the repository planted', function () {
  this.timeout(60_000);
  let tmp: string;
  let victim: string;
  let repo: string;
  let run: ServeChild | undefined;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-ws-'));
    victim = path.join(tmp, 'victim');
    repo = path.join(tmp, 'repo');
    fs.mkdirSync(path.join(victim, 'Documents'), { recursive: true });
    fs.mkdirSync(path.join(victim, 'projects'));
    fs.writeFileSync(path.join(victim, 'projects', 'status.json'), '{"mine": "the user own status.json"}\n');
    fs.mkdirSync(repo);
  });
  afterEach(async () => {
    await run?.stop();
    run = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Start, a dispatch to `projects` and a doorbell event for `Documents`: what the review ran. */
  async function exercise(
    args: string[],
  ): Promise<{ dispatch: { status: number; json: any }; ring: { status: number; json: any }; port: number; token: string }> {
    run = startServe(args, path.join(tmp, 'run', 'hub.json'), { lifeMs: 30_000 });
    const { port, token } = await run.info();
    const dispatch = await send(port, 'POST', '/handoff/dispatch', {
      token,
      body: JSON.stringify({ agent: 'projects', task_id: '1204-01', brief: 'the user task text' }),
    });
    const ring = await send(port, 'POST', '/handoff', {
      token,
      body: JSON.stringify({ id: 'Documents::t1', status: 'progress', summary: 'planted', report_path: null }),
    });
    return { dispatch, ring, port, token };
  }

  it('.agent-lens/handoff -> victim: start, a dispatch and an event leave the victim as it was; the log and the dispatch name the link', async () => {
    fs.mkdirSync(path.join(repo, '.agent-lens'));
    fs.writeFileSync(path.join(repo, '.agent-lens', 'team.toml'), TEAM);
    fs.symlinkSync(victim, path.join(repo, '.agent-lens', 'handoff'));
    const before = snapshot(victim);
    const { dispatch, ring, port, token } = await exercise(['--workspace', repo]);
    const link = path.join(repo, '.agent-lens', 'handoff');
    console.log(`      dispatch ${dispatch.status}: ${String(dispatch.json?.error).slice(0, 200)}`);
    assert.deepStrictEqual(snapshot(victim), before, 'nothing created or changed under the victim');
    assert.ok(run!.stderr().includes(`${link} is a symbolic link`), run!.stderr());
    assert.strictEqual(dispatch.status, 400);
    assert.ok(String(dispatch.json.error).includes(`${link} is a symbolic link`), dispatch.json.error);
    assert.match(dispatch.json.error, /user settings/, 'says what to do');
    assert.strictEqual(ring.status, 200, 'the boards still work, in memory');
    const boards = (await send(port, 'GET', '/handoff/boards', { token })).json.boards;
    assert.strictEqual(boards.find((b: { agent: string }) => b.agent === 'Documents')?.last_event?.summary, 'planted');
  });

  it('.agent-lens -> victim (its team.toml there): the registry is refused naming the link, and nothing is written', async () => {
    fs.writeFileSync(path.join(victim, 'team.toml'), TEAM);
    fs.symlinkSync(victim, path.join(repo, '.agent-lens'));
    const before = snapshot(victim);
    const { dispatch, ring } = await exercise(['--workspace', repo]);
    const link = path.join(repo, '.agent-lens');
    assert.deepStrictEqual(snapshot(victim), before, 'nothing created or changed under the victim');
    const log = run!.stderr();
    assert.match(log, new RegExp(`team\\.toml: .*${link.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is a symbolic link`), log);
    assert.match(log, /agentLens\.handoff\.teamFile in your user settings/);
    assert.match(dispatch.json.error, /not registered/, 'no agent of the linked registry is used');
    assert.strictEqual(ring.status, 200);
    assert.ok(!fs.existsSync(path.join(victim, 'handoff')));
  });

  it('a root the user named on the command line may be a link: it is used, and the log says where it leads', async () => {
    fs.writeFileSync(path.join(victim, 'team.toml'), TEAM);
    fs.symlinkSync(victim, path.join(repo, 'mine'));
    const { dispatch } = await exercise(['--root', path.join(repo, 'mine')]);
    assert.match(run!.stderr(), new RegExp(`leads through a symbolic link to ${victim.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
    assert.strictEqual(dispatch.json.submitted, true, JSON.stringify(dispatch.json));
    assert.ok(fs.existsSync(path.join(victim, 'projects', 'briefs', '1204-01-brief.md')), 'written where the user pointed');
  });
});
