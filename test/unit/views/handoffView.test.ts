import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SILENT } from '../../../src/common/log';
import { DispatchFailure } from '../../../src/handoff/dispatch';
import { HandoffService } from '../../../src/handoff/service';
import { Hub } from '../../../src/hub/hub';
import { handoffView, newlySettled } from '../../../src/views/handoffView';

describe('the handoff as the side bar shows it', () => {
  let tmp: string;
  let service: HandoffService;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-handoff-view-'));
    fs.writeFileSync(path.join(tmp, 'team.toml'), '[coder]\nmode = "embedded"\ndisplay_name = "Coder"\n\n[site]\nmode = "web"\n');
    service = new HandoffService({
      root: path.join(tmp, 'handoff'),
      teamFile: path.join(tmp, 'team.toml'),
      hub: new Hub({ bodyLimit: 64 * 1024 }),
      hubFile: path.join(tmp, 'hub.json'),
      hubEnv: 'AGENT_LENS_HUB',
      cli: '/bin/false',
      finder: { find: () => Promise.reject(new DispatchFailure('no_terminal', 'none here')) },
      log: SILENT,
    });
    service.start();
  });
  afterEach(() => {
    service.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('lists the registered agents with their boards, and a board of an agent no one registered', () => {
    // A board left by an agent since taken out of team.toml (or a doorbell key no one registered).
    service.boards.set({ ...service.boards.get('stray'), state: 'done' }, false);
    const v = handoffView(service, undefined);
    assert.deepStrictEqual(
      v.agents.map((a) => [a.key, a.name, a.drivable, a.board.state]),
      [
        ['coder', 'Coder', true, 'idle'],
        ['site', 'site', false, 'idle'],
        ['stray', 'stray (not registered)', true, 'done'],
      ],
    );
    assert.strictEqual(v.teamFile, path.join(tmp, 'team.toml'));
    assert.deepStrictEqual(v.routes, []);
  });

  it('tells of a board once when it comes to done or blocked, not while it stays there', () => {
    const last = new Map<string, string>();
    const board = (agent: string, state: string) => ({ ...service.boards.get(agent), state }) as ReturnType<typeof service.boards.get>;
    assert.deepStrictEqual(newlySettled(last, [board('coder', 'in_progress')]), []);
    assert.deepStrictEqual(
      newlySettled(last, [board('coder', 'done'), board('site', 'blocked')]).map((b) => b.agent),
      ['coder', 'site'],
    );
    assert.deepStrictEqual(newlySettled(last, [board('coder', 'done'), board('site', 'blocked')]), []);
    assert.deepStrictEqual(newlySettled(last, [board('coder', 'error')]), []);
  });
});
