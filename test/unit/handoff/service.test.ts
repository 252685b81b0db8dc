import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DispatchFailure } from '../../../src/handoff/dispatch';
import { HandoffService } from '../../../src/handoff/service';
import type { DeliveryTarget } from '../../../src/handoff/steps';
import type { TeamAgent } from '../../../src/handoff/team/schema';
import { Hub } from '../../../src/hub/hub';
import { SILENT } from '../../../src/common/log';
import { typingTarget } from '../helpers';

let tmp: string;

describe('handoff service: an untrusted workspace’s team.toml neither launches nor types', () => {
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-service-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  async function run(trusted: boolean | undefined, existing: boolean) {
    fs.writeFileSync(path.join(tmp, 'team.toml'), '[w]\nmode = "embedded"\nlaunch = "evil-script --flag"\nargs = ["x"]\n');
    const launched: string[] = [];
    const typed: string[] = [];
    const find = async (a: TeamAgent): Promise<DeliveryTarget> => {
      if (existing) return typingTarget(typed);
      if (!a.launch) throw new DispatchFailure('no_terminal', `no terminal runs ${a.key} and team.toml gives no launch command`);
      launched.push([a.launch, ...(a.args ?? [])].join(' '));
      return typingTarget(typed);
    };
    const hub = new Hub({ bodyLimit: 64 * 1024 });
    const service = new HandoffService({
      root: tmp,
      teamFile: path.join(tmp, 'team.toml'),
      hub,
      hubFile: path.join(tmp, 'hub.json'),
      hubEnv: 'AGENT_LENS_HUB',
      cli: '/bin/false',
      finder: { find },
      log: SILENT,
      sleep: async () => undefined,
      ...(trusted === undefined ? {} : { trusted: () => trusted }),
    });
    service.start();
    try {
      await hub.listen();
      const r = await service.dispatch({ agent: 'w', taskId: 't1', brief: 'b' });
      return { r, launched, typed, board: service.boards.get('w') };
    } finally {
      service.dispose();
      await hub.close();
    }
  }

  it('untrusted: the launch command never runs, nothing is typed, the brief is on the board and the error says why', async () => {
    for (const existing of [false, true]) {
      const { r, launched, typed, board } = await run(false, existing);
      assert.deepStrictEqual(launched, []);
      assert.deepStrictEqual(typed, [], 'not even into a terminal that already runs the agent');
      assert.strictEqual(r.delivered, false);
      assert.strictEqual(r.submitted, true);
      assert.ok(board.brief_path && fs.existsSync(board.brief_path));
      assert.strictEqual(board.error_point, 'no_terminal');
      assert.match(r.error ?? '', /not trusted.*"evil-script --flag"/);
    }
  });

  it('trusted (or serve) launches and delivers', async () => {
    for (const trusted of [true, undefined]) {
      const t = await run(trusted, false);
      assert.deepStrictEqual(t.launched, ['evil-script --flag x']);
      assert.strictEqual(t.r.delivered, true, t.r.error);
    }
  });
});
