// The handoff root is inside the workspace by default, so a cloned repository can plant links in it, and a
// ```handoff block needs no token. Regressions of the SECURITY.md review: each failed before its fix.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HandoffService } from '../../../src/handoff/service';
import { parseTeam, TeamError } from '../../../src/handoff/team/registry';
import type { DeliveryTarget } from '../../../src/handoff/steps';
import { Hub } from '../../../src/hub/hub';
import { logTo } from '../../../src/common/log';

let tmp: string;
let outside: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-links-'));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-outside-'));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

async function withService<T>(fn: (s: HandoffService, warnings: string[]) => Promise<T> | T): Promise<T> {
  const root = path.join(tmp, 'handoff');
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(path.join(tmp, 'team.toml'), '[w]\nmode = "embedded"\n');
  const typed: string[] = [];
  const find = async (): Promise<DeliveryTarget> => ({
    pid: 1,
    title: 't',
    id: 't',
    activate: async () => undefined,
    write: async (d) => void typed.push(d),
  });
  const warnings: string[] = [];
  const hub = new Hub({ bodyLimit: 64 * 1024 });
  const service = new HandoffService({
    root,
    teamFile: path.join(tmp, 'team.toml'),
    hub,
    hubFile: path.join(tmp, 'hub.json'),
    hubEnv: 'AGENT_LENS_HUB',
    cli: '/bin/false',
    finder: { find },
    log: logTo((l, m) => void (l === 'warn' && warnings.push(m))),
    sleep: async () => undefined,
  });
  service.start();
  try {
    await hub.listen();
    return await fn(service, warnings);
  } finally {
    service.dispose();
    await hub.close();
  }
}

const event = (id: string) => ({ id, status: 'progress', summary: 'echo $(touch /tmp/pwned)', report_path: null });

describe('handoff files never go through a planted link', () => {
  it('an events.jsonl that is a link (say, to a shell rc file) is never appended to', async () => {
    const rc = path.join(outside, '.bashrc');
    fs.writeFileSync(rc, '# mine\n');
    fs.mkdirSync(path.join(tmp, 'handoff', 'w'), { recursive: true });
    fs.symlinkSync(rc, path.join(tmp, 'handoff', 'w', 'events.jsonl'));
    await withService((s, warnings) => {
      assert.strictEqual(s.ringLocal(event('w::t1'), 'doorbell').ok, true);
      assert.ok(
        warnings.some((w) => /events log/.test(w)),
        warnings.join('\n'),
      );
    });
    assert.strictEqual(fs.readFileSync(rc, 'utf8'), '# mine\n');
  });

  it('an agent folder that is a link is not written through: no status.json, brief or read.md lands outside', async () => {
    fs.mkdirSync(path.join(tmp, 'handoff'));
    fs.symlinkSync(outside, path.join(tmp, 'handoff', 'w'), 'dir');
    await withService(async (s, warnings) => {
      s.ringLocal(event('w::t1'), 'doorbell');
      const r = await s.dispatch({ agent: 'w', taskId: 't2', brief: 'b' });
      assert.strictEqual(r.submitted, false);
      assert.match(r.error ?? '', /symbolic link/);
      assert.ok(
        warnings.some((w) => /could not save w's board: .*symbolic link/.test(w)),
        warnings.join('\n'),
      );
    });
    assert.deepStrictEqual(fs.readdirSync(outside), []);
  });

  it('a briefs/ folder that is a link is refused before the brief is written', async () => {
    const agentDir = path.join(tmp, 'handoff', 'w');
    fs.mkdirSync(agentDir, { recursive: true });
    fs.symlinkSync(outside, path.join(agentDir, 'briefs'), 'dir');
    await withService(async (s) => {
      const r = await s.dispatch({ agent: 'w', taskId: 't1', brief: 'b' });
      assert.strictEqual(r.delivered, false);
      assert.match(r.error ?? '', /briefs is a symbolic link/);
    });
    assert.deepStrictEqual(fs.readdirSync(outside), []);
  });

  it('real folders still work: the event is logged and the board saved', async () => {
    await withService((s) => {
      assert.strictEqual(s.ringLocal(event('w::t1'), 'doorbell').ok, true);
      const log = fs.readFileSync(s.paths.eventsLog('w'), 'utf8').trim().split('\n');
      assert.strictEqual(log.length, 1);
      assert.strictEqual(JSON.parse(fs.readFileSync(s.paths.statusJson('w'), 'utf8')).agent, 'w');
    });
  });
});

describe('a ```handoff block printed in a terminal (no token)', () => {
  it('rings only for a registered agent and makes no folder for another key', async () => {
    await withService((s) => {
      const r = s.ringLocal(event('stranger::t1'), 'terminal');
      assert.strictEqual(r.ok, false);
      assert.match(r.error ?? '', /"stranger" is not a registered agent/);
      assert.strictEqual(fs.existsSync(path.join(s.paths.root, 'stranger')), false);
      assert.strictEqual(s.ringLocal(event('w::t1'), 'terminal').ok, true);
      // The token-holding doorbell still takes unregistered keys (seed 002: boards for agents not in the registry).
      assert.strictEqual(s.ringLocal(event('stranger::t1'), 'doorbell').ok, true);
      // …on a board in memory only: a key nobody registered never gets a folder.
      assert.strictEqual(s.boards.get('stranger').last_event?.summary, event('x').summary);
      assert.strictEqual(fs.existsSync(path.join(s.paths.root, 'stranger')), false);
    });
  });
});

describe('team.toml args', () => {
  it('refuse control characters, naming the field', () => {
    assert.throws(
      () => parseTeam('[a]\nmode = "embedded"\nlaunch = "claude"\nargs = ["ok", "x\\u001b[2J"]\n', 'team.toml'),
      (e: unknown) => e instanceof TeamError && /args/.test(e.message) && /control characters/.test(e.message),
    );
    assert.deepStrictEqual(
      parseTeam('[a]\nmode = "embedded"\nlaunch = "claude"\nargs = ["--model", "x y"]\n', 'team.toml').agents[0].args,
      ['--model', 'x y'],
    );
  });
});
