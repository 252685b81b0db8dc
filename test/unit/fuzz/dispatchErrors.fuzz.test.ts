import * as assert from 'assert';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DispatchFailure } from '../../../src/handoff/dispatch';
import { HandoffService } from '../../../src/handoff/service';
import type { DeliveryTarget } from '../../../src/handoff/steps';
import { Hub } from '../../../src/hub/hub';
import * as msg from '../../../src/views/messages';
import { linksIn } from '../shownText';
import { checkPlain, hostile, linkWith, RUNS, SEED, text } from './hostileText';
import { SILENT } from '../../../src/common/log';

describe(`fuzz: hostile text in every message, prompt, pick, tree row and status-bar item (seed ${SEED})`, function () {
  this.timeout(600_000);

  it('real dispatch errors: a workspace team.toml’s launch (Restricted Mode) and a finder’s reason reach the message as text', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'al-sinks-'));
    const team = path.join(tmp, 'team.toml');
    fs.writeFileSync(team, '[w]\nmode = "embedded"\n');
    let trusted = false;
    let reason = '';
    const find = async (): Promise<DeliveryTarget> => {
      throw new DispatchFailure('no_terminal', reason);
    };
    const hub = new Hub({ bodyLimit: 64 * 1024 });
    const service = new HandoffService({
      root: path.join(tmp, 'h'),
      teamFile: team,
      hub,
      hubFile: path.join(tmp, 'hub.json'),
      hubEnv: 'AGENT_LENS_HUB',
      cli: '/bin/false',
      finder: { find },
      trusted: () => trusted,
      log: SILENT,
      sleep: async () => undefined,
    });
    service.start();
    await hub.listen();
    let n = 0;
    let rawLinks = 0;
    // The schema refuses control characters in launch (a test of its own): links split by anything else reach the text.
    const launch = fc
      .tuple(linkWith(['', '', '\u200b', '\u202e', '\u2066', ' ']), text)
      .map(([l, t]) => `claude ${l} ${t.replace(/[\p{Cc}\u2028\u2029]/gu, '')}`);
    try {
      await fc.assert(
        fc.asyncProperty(launch, hostile, fc.boolean(), async (cmd, why, finderFails) => {
          fs.writeFileSync(team, `[w]\nmode = "embedded"\nlaunch = ${JSON.stringify(cmd)}\n`);
          service.registry.load();
          trusted = finderFails;
          reason = why;
          const r = await service.dispatch({ agent: 'w', taskId: `t${++n}`, brief: 'b' });
          assert.ok(r.error, 'the dispatch failed as set up');
          if (linksIn(r.error).length) rawLinks++;
          const shown = msg.dispatchNotice(r, msg.briefWhat('w', `t${n}`));
          assert.strictEqual(shown.level, 'error');
          checkPlain('dispatch error', shown.text);
        }),
        { numRuns: Math.max(30, Math.floor(RUNS / 5)), seed: SEED },
      );
    } finally {
      service.dispose();
      await hub.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    assert.ok(rawLinks > 0, 'some raw errors held a link VS Code would render, so the property was exercised');
  });
});
